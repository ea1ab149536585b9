package tool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/stg-tool/stg/online"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// VerdictOptions are the options of stg verdict SPEC SYMPURPOSE TRACE |
// TESTCASE TRACE: the files, the bound of each solver query (an
// undecided query counts as satisfiable: never a false Fail; stg's
// default is DefaultSolverTimeout), the
// external functions, evaluated as stg run evaluates them, and what the
// run did after WeakPass (AfterWeakPass: stop, the default, or observe,
// as stg run --after-weakpass: a trace saved by a run that observed
// after WeakPass is judged as the run judged it).
type VerdictOptions struct {
	Files         []string
	SolverTimeout time.Duration
	Funcs         FuncOptions
	AfterWeakPass string
}

// Verdict is stg verdict: it judges a recorded trace by the inference
// rules of on-line testing on a symbolic purpose, printing each step,
// or by a test case as stg run would have; the exit code is the verdict.
func Verdict(opts VerdictOptions, stdout, stderr io.Writer) error {
	args := opts.Files
	after := online.Stop
	if opts.AfterWeakPass != "" {
		var err error
		if after, err = online.ParseAfterWeakPass(opts.AfterWeakPass); err != nil {
			return UsageError("stg verdict", "--after-weakpass: %v", err)
		}
	}
	if len(args) == 2 {
		if f, err := Open(args[0]); err == nil && f.Kind == spec.SymPurposeKind {
			// as stg run: the spec the sympurpose names
			args = []string{f.SymPurpose.SpecPath(), args[0], args[1]}
		}
	}
	if len(args) == 2 {
		if after == online.Observe {
			return UsageError("stg verdict", "--after-weakpass observe applies to a sympurpose: a test case's runs end on Pass, Fail or Inconc, never WeakPass")
		}
		return testcaseVerdict(opts, stdout, stderr)
	}
	if len(args) != 3 {
		return UsageError("stg verdict", "stg verdict needs SPEC SYMPURPOSE TRACE, SYMPURPOSE TRACE or TESTCASE TRACE")
	}
	z, err := newSolver("stg verdict", opts.SolverTimeout)
	if err != nil {
		return err
	}
	defer z.Close()
	m, err := LoadModel(args[0], nil)
	if err != nil {
		return InputError(err)
	}
	t, err := loadTester(z, m, args[1], stderr)
	if err != nil {
		return InputError(err)
	}
	funcs, err := opts.Funcs.registry("stg verdict", m, stderr)
	if err != nil {
		return err
	}
	defer funcs.Close()
	t.Funcs = funcs
	events, err := readEvents(m, args[2])
	if err != nil {
		return InputError(err)
	}
	fmt.Fprintf(stdout, "spec %s, purpose %s: accept %v\n", m.Name, t.Purpose().Name, t.Purpose().AcceptPaths())
	visit := func(i int, sc []online.Context, st *online.Step) error {
		return t.WriteStep(stdout, i, sc, st)
	}
	var steps []*online.Step
	if after == online.Observe {
		steps, err = t.ReplayObserving(events, 0, visit)
	} else {
		steps, err = t.Replay(events, visit)
	}
	if err != nil {
		return InputError(fmt.Errorf("%s: %v", args[2], err))
	}
	return printVerdict(stdout, steps, len(events))
}

// testcaseVerdict judges the trace file by the test case file: the
// engine's Judge, as stg run --replay gives the recorded verdict.
func testcaseVerdict(opts VerdictOptions, stdout, stderr io.Writer) error {
	file, path := opts.Files[0], opts.Files[1]
	m, err := LoadModel(file, nil)
	if err != nil {
		return InputError(err)
	}
	if m.Kind != spec.TestcaseKind {
		return UsageError("stg verdict", "%s is a %s: stg verdict takes a TESTCASE and a TRACE, a SYMPURPOSE and a TRACE, or a SPEC, a SYMPURPOSE and a TRACE", file, m.Kind)
	}
	if err := validateTestcase(m, stderr); err != nil {
		return InputError(err)
	}
	funcs, err := opts.Funcs.registry("stg verdict", m, stderr)
	if err != nil {
		return err
	}
	defer funcs.Close()
	r, err := runner.New(m, runner.Options{Funcs: funcs, SolverTimeout: opts.SolverTimeout})
	if err != nil {
		return InputError(fmt.Errorf("%s: %v", file, err))
	}
	defer r.Close()
	events, err := readTraceFile(path)
	if err != nil {
		return InputError(err)
	}
	res, err := r.Engine().Judge(context.Background(), path, events)
	var se *play.StimulusError
	switch {
	case errors.As(err, &se):
		return InputError(fmt.Errorf("%s: stimulus %d, %s, is not allowed by test case %s in %s",
			sendPos(path, events, se.Index), se.Index, se.Stimulus, m.Name, se.Where()))
	case err != nil:
		return InputError(fmt.Errorf("%s: %v", path, err))
	}
	fmt.Fprintf(stdout, "test case %s, trace %s\n", m.Name, path)
	res.WriteTrace(stdout)
	return verdictExit(res.Verdict)
}

// loadTester reads the symbolic purpose file with Open and prepares its
// tester on the spec m, warning on w about accept paths that are
// infeasible.
func loadTester(z *solver.Context, m *spec.Model, file string, w io.Writer) (*online.Tester, error) {
	f, err := Open(file)
	if err == nil && f.Kind != spec.SymPurposeKind {
		_, err = specfile.LoadSymPurpose(file) // its message: a KIND, not a sympurpose
	}
	if err != nil {
		return nil, err
	}
	return newTester(z, m, f.SymPurpose, w)
}

// newTester prepares the tester of the symbolic purpose sp on the spec
// m, warning on w about accept paths that are infeasible.
func newTester(z *solver.Context, m *spec.Model, sp *spec.SymPurpose, w io.Writer) (*online.Tester, error) {
	if m.Kind != spec.SpecKind {
		return nil, fmt.Errorf("%s: a %s, not a spec", m.File, m.Kind)
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

// readTraceFile reads a trace file: "FILE: cannot read: REASON" when it
// cannot be read.
func readTraceFile(path string) ([]specfile.TraceEvent, error) {
	events, err := openTrace(path)
	return events, readError(path, err)
}

// readEvents reads a trace file and types its events against m.
func readEvents(m *spec.Model, file string) ([]online.Event, error) {
	tes, err := readTraceFile(file)
	if err != nil {
		return nil, err
	}
	var errs expr.ErrorList
	events := make([]online.Event, 0, len(tes))
	for _, te := range tes {
		ev, err := online.EventOf(m, te)
		if err != nil {
			errs.Add(expr.Pos{File: file, Line: te.Line, Col: 1}, "%v", err)
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
		fmt.Fprintf(w, "(%d event(s) after the verdict ignored", rest)
		if v == online.WeakPass {
			fmt.Fprint(w, "; a run with --after-weakpass observe records observations after WeakPass: judge them with stg verdict --after-weakpass observe")
		}
		fmt.Fprintln(w, ")")
	}
	return verdictExit(v)
}

// verdictExit is the exit of a campaign or replay whose verdict is v.
func verdictExit(v play.Verdict) error {
	if code := v.ExitCode(); code != play.ExitPass {
		return &Exit{Code: code}
	}
	return nil
}

// sendPos returns FILE:LINE:1 of the k-th send event (from 1).
func sendPos(path string, events []specfile.TraceEvent, k int) string {
	for _, ev := range events {
		if ev.Send {
			if k--; k == 0 {
				return fmt.Sprintf("%s:%d:1", path, ev.Line)
			}
		}
	}
	return path
}
