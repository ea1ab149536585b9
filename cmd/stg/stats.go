package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// commandOptions are the options struct of a command of package tool.
type commandOptions interface {
	EnsureDefaults()
	Validate() error
}

// checkOptions sets the defaults of o and checks it: an invalid option
// is a usage error.
func checkOptions(c *cli.Context, o commandOptions) error {
	o.EnsureDefaults()
	if err := o.Validate(); err != nil {
		return usageError(c, "%v", err)
	}
	return nil
}

// nArgs returns the positional arguments of c, a usage error with
// msg unless there are n of them.
func nArgs(c *cli.Context, n int, msg string) ([]string, error) {
	args, err := positionalArgs(c)
	if err != nil {
		return nil, usageError(c, "%v", err)
	}
	if len(args) != n {
		return nil, usageError(c, "%s", msg)
	}
	return args, nil
}

// varsFlag is --vars of stg abstract and stg tour.
func varsFlag() cli.Flag {
	return &cli.StringFlag{Name: "vars", Usage: "the abstraction variables `X,Y` (instead of the rule's)"}
}

// varsOf returns the variables of --vars, nil without it.
func varsOf(c *cli.Context) []string {
	var vars []string
	if v := c.String("vars"); v != "" {
		for _, x := range strings.Split(v, ",") {
			vars = append(vars, strings.TrimSpace(x))
		}
	}
	return vars
}
