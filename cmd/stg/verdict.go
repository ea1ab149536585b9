package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/tool"
)

func verdictCommand() *cli.Command {
	return &cli.Command{
		Name:      "verdict",
		Usage:     "judge a recorded trace by a symbolic purpose or a test case, without a SUT",
		ArgsUsage: "[SPEC] SYMPURPOSE TRACE | TESTCASE TRACE",
		UsageText: "stg verdict [SPEC] SYMPURPOSE TRACE [--after-weakpass stop|observe] [--solver-timeout DURATION]\nstg verdict TESTCASE TRACE [--solver-timeout DURATION]",
		Description: `Verdict applies the inference rules of on-line testing (AGATHA, §4.3,
rules 0-6) to a recorded trace (JSON Lines, docs/reference.md#trace-files, as written by
stg run --save-trace) and prints each step: the event, the rule applied,
the sets of contexts Next, NextSkip and NextPass, the new set of contexts
(a context is a node of the spec's symbolic execution tree, named by its
path, and the equalities f between the symbols and the values seen), and
for each node its label, location and path condition under f.

Without SPEC, the spec is the one the sympurpose names (its spec: field,
relative to the sympurpose's directory), as for stg run.

It stops at the first verdict. A trace that ends before one gives Inconc.
With --after-weakpass observe it judges the trace as stg run
--after-weakpass observe judged it: a WeakPass on an output begins the
observation, and the later outputs and quiescence are judged by the rule
"observing" (at most 16 of them), which may turn the WeakPass into Pass,
Inconc or Fail.

Given a test case and a trace, it judges the trace by the test case as
stg run would have (the play engine's Judge: the stimuli as recorded, the
outputs judged in queued semantics) and prints the run's trace table.
Exit codes: 0 Pass, 1 Fail, 2 Inconc, 3 error, 4 WeakPass.

Example:
   stg verdict examples/atm-paper/spec.yaml eta11.yaml trace.jsonl
   stg verdict cmp.tc.yaml trace.jsonl`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "after-weakpass", Value: "stop", Usage: "judge the trace as a run that did `stop|observe` after WeakPass (stg run --after-weakpass)"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query by `DURATION` (an undecided query counts as satisfiable: never a false Fail)"},
		}, funcFlags()...),
		Action: runVerdict,
	}
}

func runVerdict(c *cli.Context) error {
	return tool.Verdict(tool.VerdictOptions{Files: cmdline.Args(c), SolverTimeout: c.Duration("solver-timeout"), Funcs: funcOptions(c),
		AfterWeakPass: c.String("after-weakpass")},
		c.App.Writer, c.App.ErrWriter)
}

// funcOptions reads the flags of funcFlags (funcs.go).
func funcOptions(c *cli.Context) tool.FuncOptions {
	return tool.FuncOptions{Impl: c.StringSlice("impl"), Tables: c.String("tables"), CallTimeout: c.Duration("call-timeout")}
}
