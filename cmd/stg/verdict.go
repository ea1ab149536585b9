package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/online"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
	"github.com/stg-tool/stg/tool"
)

func verdictCommand() *cli.Command {
	return &cli.Command{
		Name:      "verdict",
		Usage:     "judge a recorded trace by a symbolic purpose or a test case, without a SUT",
		ArgsUsage: "SPEC SYMPURPOSE TRACE | TESTCASE TRACE",
		UsageText: "stg verdict SPEC SYMPURPOSE TRACE [--solver-timeout DURATION]\nstg verdict TESTCASE TRACE [--solver-timeout DURATION]",
		Description: `Verdict applies the inference rules of on-line testing (AGATHA, §4.3,
rules 0-6) to a recorded trace (JSON Lines, docs/reference.md#trace-files, as written by
stg run --save-trace) and prints each step: the event, the rule applied,
the sets of contexts Next, NextSkip and NextPass, the new set of contexts
(a context is a node of the spec's symbolic execution tree, named by its
path, and the equalities f between the symbols and the values seen), and
for each node its label, location and path condition under f.

It stops at the first verdict. A trace that ends before one gives Inconc.

Given a test case and a trace, it judges the trace by the test case as
stg run would have (the play engine's Judge: the stimuli as recorded, the
outputs judged in queued semantics) and prints the run's trace table.
Exit codes: 0 Pass, 1 Fail, 2 Inconc, 3 error, 4 WeakPass.

Example:
   stg verdict examples/atm-paper/spec.yaml eta11.yaml trace.jsonl
   stg verdict cmp.tc.yaml trace.jsonl`,
		Flags: append([]cli.Flag{
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query by `DURATION` (an undecided query counts as satisfiable: never a false Fail)"},
		}, funcFlags()...),
		Action: runVerdict,
	}
}

func runVerdict(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(args) == 2 {
		return testcaseVerdict(c, args[0], args[1])
	}
	if len(args) != 3 {
		return usageError(c, "stg verdict needs SPEC SYMPURPOSE TRACE, or TESTCASE TRACE")
	}
	z, err := solver.NewContext()
	if err != nil {
		return tool.InputError(fmt.Errorf("cannot start the solver: %v", err))
	}
	defer z.Close()
	z.SetTimeout(c.Duration("solver-timeout"))
	m, err := loadModel(args[0], nil)
	if err != nil {
		return tool.InputError(err)
	}
	t, err := loadTester(z, m, args[1], c.App.ErrWriter)
	if err != nil {
		return tool.InputError(err)
	}
	funcs, err := funcRegistry(c, m, c.App.ErrWriter) // external functions, as stg run evaluates them
	if err != nil {
		return err
	}
	defer funcs.Close()
	t.Funcs = funcs
	events, err := readEvents(m, args[2])
	if err != nil {
		return tool.InputError(err)
	}
	w := c.App.Writer
	fmt.Fprintf(w, "spec %s, purpose %s: accept %v\n", m.Name, t.Purpose().Name, t.Purpose().AcceptPaths())
	steps, err := t.Replay(events, func(i int, sc []online.Context, st *online.Step) error {
		return t.WriteStep(w, i, sc, st)
	})
	if err != nil {
		return tool.InputError(fmt.Errorf("%s: %v", args[2], err))
	}
	return printVerdict(w, steps, len(events))
}

// testcaseVerdict judges the trace file path by the test case file: the
// engine's Judge, as stg run --replay gives the recorded verdict.
func testcaseVerdict(c *cli.Context, file, path string) error {
	m, err := loadModel(file, nil)
	if err != nil {
		return tool.InputError(err)
	}
	if m.Kind != spec.TestcaseKind {
		return usageError(c, "%s is a %s: stg verdict takes a TESTCASE and a TRACE, or a SPEC, a SYMPURPOSE and a TRACE", file, m.Kind)
	}
	if err := validateTestcase(m, c.App.ErrWriter); err != nil {
		return tool.InputError(err)
	}
	funcs, err := funcRegistry(c, m, c.App.ErrWriter)
	if err != nil {
		return err
	}
	defer funcs.Close()
	r, err := runner.New(m, runner.Options{Funcs: funcs, SolverTimeout: c.Duration("solver-timeout")})
	if err != nil {
		return tool.InputError(fmt.Errorf("%s: %v", file, err))
	}
	defer r.Close()
	events, err := readTraceFile(path) // replay.go
	if err != nil {
		return tool.InputError(err)
	}
	res, err := r.Engine().Judge(context.Background(), path, events)
	var se *play.StimulusError
	switch {
	case errors.As(err, &se):
		return tool.InputError(fmt.Errorf("%s: stimulus %d, %s, is not allowed by test case %s in %s",
			sendPos(path, events, se.Index), se.Index, se.Stimulus, m.Name, se.Where()))
	case err != nil:
		return tool.InputError(fmt.Errorf("%s: %v", path, err))
	}
	fmt.Fprintf(c.App.Writer, "test case %s, trace %s\n", m.Name, path)
	res.WriteTrace(c.App.Writer)
	return verdictExit(res.Verdict)
}

// loadTester reads a symbolic purpose and prepares its tester on the
// spec m, warning on w about accept paths that are infeasible.
func loadTester(z *solver.Context, m *spec.Model, file string, w io.Writer) (*online.Tester, error) {
	if m.Kind != spec.SpecKind {
		return nil, fmt.Errorf("%s: a %s, not a spec", m.File, m.Kind)
	}
	sp, err := spec.LoadSymPurpose(file)
	if err != nil {
		return nil, readError(file, err)
	}
	x, err := symex.NewExecutor(z, m, symex.Options{})
	if err != nil {
		return nil, err
	}
	tp, err := online.NewPurpose(x, sp)
	if err != nil {
		return nil, err
	}
	for _, a := range tp.Infeasible {
		fmt.Fprintf(w, "%s: warning: accept path [%s] is infeasible: its path condition is unsatisfiable\n", a.Pos, a)
	}
	return online.NewTester(z, tp), nil
}

// readError says "FILE: cannot read: REASON" for a file that cannot be
// opened, as loadModel does; other errors are returned as they are.
func readError(file string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: cannot read: %v", file, pe.Err)
	}
	return err
}

// readEvents reads a trace file and types its events against m.
func readEvents(m *spec.Model, file string) ([]online.Event, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, readError(file, err)
	}
	defer f.Close()
	tes, err := spec.ReadTrace(file, f)
	if err != nil {
		return nil, err
	}
	var errs spec.ErrorList
	events := make([]online.Event, 0, len(tes))
	for _, te := range tes {
		ev, err := online.EventOf(m, te)
		if err != nil {
			errs.Add(spec.Pos{File: file, Line: te.Line, Col: 1}, "%v", err)
			continue
		}
		events = append(events, ev)
	}
	return events, errs.Err()
}

// printVerdict prints the verdict of a replay and returns its exit code.
func printVerdict(w io.Writer, steps []*online.Step, events int) error {
	v, reason := online.Inconc, "the trace ends before a verdict"
	if len(steps) > 0 && steps[len(steps)-1].Verdict != online.None {
		last := steps[len(steps)-1]
		v, reason = last.Verdict, fmt.Sprintf("%s: %s", last.Rule, last.Reason)
	}
	fmt.Fprintf(w, "verdict: %s (%s)\n", v, reason)
	if rest := events - len(steps); rest > 0 && len(steps) > 0 {
		fmt.Fprintf(w, "(%d event(s) after the verdict ignored)\n", rest)
	}
	return verdictExit(v)
}
