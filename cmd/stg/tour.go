package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/tool"
)

func tourCommand() *cli.Command {
	return &cli.Command{
		Name:      "tour",
		Usage:     "covering tour of the product of an abstraction with a purpose, instantiated into test cases (LTG/GeneSyst)",
		ArgsUsage: "SPEC PURPOSE",
		UsageText: "stg tour SPEC PURPOSE [-o DIR] [--vars X,Y] [--reflexive K] [--no-filter] [--format yaml|go] [--package PACKAGE] [--stats [--format json]] [--solver-timeout DURATION]",
		Description: `Tour builds the abstraction of SPEC guided by PURPOSE (as stg abstract does),
its synchronised product SP with the purpose, and a covering tour of SP: a
set of paths from the initial state to final states that traverses every
transition of SP lying on such a path, of minimal total length (directed
Chinese postman by min-cost flow). Each path is a symbolic test: a
sequence of actions with the abstract state expected after each. Each is
then animated on SPEC with Z3: values for the parameters such that every
step is enabled and every state lies in its abstract state, with up to K
reflexive steps of SP' (--reflexive) inserted before each step where the
action is not enabled, and inputs sent only where SPEC predicts
quiescence. An instance becomes a linear test case (stg generate on a
purpose that follows it): sends with the chosen values, receives with
the outputs SPEC predicts, Fail on an unspecified output, Inconc on an
allowed one off the path, Pass at the end.

Without -o, tour prints the symbolic tests and their instances; with
-o DIR it also writes one test case per instance into DIR, named
PURPOSE-tI.yaml (or PURPOSE-tI_test.go with --format go, all in the
package --package). --vars chooses the abstraction variables, as for stg
abstract. --stats prints the columns of Table II instead, with and without
filtering; --stats --format json prints them as JSON, with the key names
of stg symex --stats: states and transitions (of SP), coverage (the spec
transitions the instances take: covered, total, percent) and time_ms.

Example:
   stg tour examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml --stats
   stg tour examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml -o tests/
   stg run tests/quidonc-fig4-t1.yaml -- ./quidonc-sut`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "o", Aliases: []string{"output"}, Usage: "write one test case per instantiated test into `DIR`"},
			varsFlag(),
			&cli.IntFlag{Name: "reflexive", Value: tool.DefaultTourReflexive, Usage: "insert at most `K` reflexive steps before each step"},
			&cli.BoolFlag{Name: "no-filter", Usage: "abstraction without filtering (keep the transitions only the exact check refutes)"},
			&cli.StringFlag{Name: "format", Value: "yaml", Usage: "`FORMAT` of the test case files: yaml or go; with --stats, text or json"},
			&cli.StringFlag{Name: "package", Usage: "`PACKAGE` clause of --format go (default: PURPOSE_test)"},
			&cli.BoolFlag{Name: "stats", Usage: "print the columns of Table II, with and without filtering"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query to `DURATION`"},
		},
		Action: runTour,
	}
}

func runTour(c *cli.Context) error {
	args, err := nArgs(c, 2, "stg tour needs SPEC and PURPOSE")
	if err != nil {
		return err
	}
	o := tool.TourOptions{Spec: args[0], Purpose: args[1], Reflexive: c.Int("reflexive"), Output: cmdline.Output(c), Format: c.String("format"),
		Package: c.String("package"), Stats: c.Bool("stats"), SolverTimeout: c.Duration("solver-timeout"),
		Abstraction: predabs.Options{NoFilter: c.Bool("no-filter"), Vars: varsOf(c)}}
	if err := checkOptions(c, &o); err != nil {
		return err
	}
	return tool.Tour(o, c.App.Writer)
}
