package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/tool"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "validate a spec (and a purpose) or a testcase, print a summary",
		ArgsUsage: "SPEC [PURPOSE] | TESTCASE | [SPEC] TABLES",
		UsageText: "stg check SPEC [PURPOSE]\nstg check TESTCASE\nstg check [SPEC] TABLES",
		Description: `Check reads the model files and checks names, types and the rules of each
kind of model (docs/reference.md#model-files-2), then asks the solver whether the spec (or
testcase) is deterministic: no two transitions leaving a location with the
same action may have guards that hold together, and the initial condition
must have a solution. A testcase must also be complete for receives (every
SUT output and quiescence leads somewhere, in every non-verdict location)
and name its verdict locations Pass, Fail and Inconc. Every problem is
printed as FILE:LINE:COL: message on stderr and the exit code is 3;
otherwise a summary is printed and the exit code is 0. A purpose is read
with its spec.

A tables file (kind: tables: known rows of external functions) is checked
against the signatures of SPEC's functions and against SPEC's own rows, or
alone against signatures read from its rows (each column one type): rows
of the wrong arity or type, and two rows with equal inputs and different
results, are FILE:LINE:COL errors.

A pair of transitions (or a receive gap) that the solver cannot decide
within --solver-timeout per query (non-linear guards, external functions)
is printed as FILE:LINE:COL: warning: message on stderr; it does not
change the exit code, and the summary says how many were undecided.

Example:
   $ stg check examples/cmp/spec.yaml examples/cmp/purpose.yaml
   spec cmp: 4 locations (Rx initial, Ry, Cmp, End), 5 transitions, ...
   purpose cmp-reach-ok2: 3 locations (Wait initial, Accept accept, Sink), ...`,
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query to `DURATION`; an undecided query is a warning"},
		},
		Action: runCheck,
	}
}

func runCheck(c *cli.Context) error {
	return tool.Check(tool.CheckOptions{Files: cmdline.Args(c), SolverTimeout: c.Duration("solver-timeout")}, c.App.Writer, c.App.ErrWriter)
}
