package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/extfunc"
)

// funcFlags are the flags of stg run for the external functions a model
// calls: their implementations and tables.
func funcFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "impl", Usage: "evaluate the external function NAME with the JSON Lines command `NAME=COMMAND` (run in the current directory; repeatable), instead of the model's impl:"},
		&cli.StringFlag{Name: "tables", Usage: "the known tuples of the external functions: the tables file `FILE`, instead of the model's tables"},
		&cli.DurationFlag{Name: "call-timeout", Value: extfunc.DefaultTimeout, Usage: "a call of an implementation command fails after `DURATION`"},
	}
}
