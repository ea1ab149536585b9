package tool

import (
	"fmt"
	"io"

	"github.com/stg-tool/stg/online"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// A playable is what stg run plays: a test case (the STG route) or a
// symbolic purpose (on-line testing), as the engines of its workers
// (--parallel), each with its own solver context.
type playable struct {
	kind      string // testcase or sympurpose
	name      string
	about     string // what the header says of the runs
	replayArg string // the file as the replay line names it
	engines   []*play.Engine
	tc        *runner.Runner // the first worker of a test case (coverage); nil for a sympurpose
	opts      runner.Options
	closers   []func()
}

func (t *playable) close() {
	for _, f := range t.closers {
		f()
	}
}

// loadPlayable reads the file stg run plays and prepares the workers,
// as many as o.Parallel asks and the runs to play need.
func loadPlayable(o RunOptions, ropts runner.Options, runs int, stderr io.Writer) (*playable, error) {
	t := &playable{opts: ropts, replayArg: o.File}
	workers := play.Workers(o.Parallel, runs)
	f, err := Open(o.File)
	switch {
	case f != nil && f.Kind == spec.SymPurposeKind:
		if err != nil {
			return nil, InputError(err)
		}
		err = t.loadSymPurpose(o, f.SymPurpose, workers, stderr)
	case err != nil && (f == nil || f.Kind == spec.TestcaseKind):
		return nil, InputError(err)
	default:
		err = t.loadTestcase(o, f, workers, stderr)
	}
	if err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// loadTestcase prepares the workers of a test case.
func (t *playable) loadTestcase(o RunOptions, f *specfile.File, workers int, stderr io.Writer) error {
	m, err := ModelOf(f, nil)
	if err != nil {
		return InputError(err)
	}
	if m.Kind != spec.TestcaseKind {
		return InputError(fmt.Errorf("%s: stg run plays a testcase or a sympurpose, not a %s", f.Path, m.Kind))
	}
	if o.Given["after-weakpass"] || o.AfterWeakPass == string(online.Observe) {
		return UsageError("stg run", "--after-weakpass applies to a sympurpose: a test case's runs end on Pass, Fail or Inconc, never WeakPass")
	}
	if err := validateTestcase(m, stderr); err != nil {
		return InputError(err)
	}
	t.kind, t.name = "test case", m.Name
	t.about = fmt.Sprintf("depth %d, %s paths", t.opts.Depth, t.opts.Plan)
	for w := range workers {
		ro := t.opts
		funcs, err := o.Funcs.registry("stg run", m, stderrOf(stderr, w))
		if err != nil {
			return err
		}
		t.closers = append(t.closers, func() { funcs.Close() })
		ro.Funcs = funcs
		r, err := runner.New(m, ro)
		if err != nil {
			return InputError(fmt.Errorf("%s: %v", f.Path, err))
		}
		t.closers = append(t.closers, r.Close)
		if w == 0 {
			t.tc = r
		}
		t.engines = append(t.engines, r.Engine())
	}
	return nil
}

// loadSymPurpose prepares the workers of a symbolic purpose, refusing the
// options that have no meaning for it.
func (t *playable) loadSymPurpose(o RunOptions, sp *spec.SymPurpose, workers int, stderr io.Writer) error {
	for _, f := range []string{"plan", "depth"} {
		if o.Given[f] {
			return UsageError("stg run", "--%s applies to a test case: the on-line tester of a sympurpose steers by its accept nodes, not by planning", f)
		}
	}
	t.kind = "sympurpose"
	if o.Spec != "" {
		t.replayArg += " --spec " + shellJoin([]string{o.Spec})
	}
	if o.AfterWeakPass == string(online.Observe) {
		t.replayArg += " --after-weakpass observe"
	}
	for w := range workers {
		r, err := t.symWorker(o, sp, stderrOf(stderr, w))
		if err != nil {
			return err
		}
		t.engines = append(t.engines, r.Engine())
	}
	return nil
}

// symWorker prepares one on-line worker: its solver context, tester and
// external functions.
func (t *playable) symWorker(o RunOptions, sp *spec.SymPurpose, w io.Writer) (*online.Runner, error) {
	z, err := newSolver("stg run", runner.DefaultSolverTimeout)
	if err != nil {
		return nil, err
	}
	t.closers = append(t.closers, z.Close)
	specFile := o.Spec
	if specFile == "" {
		specFile = sp.SpecPath()
	}
	m, err := LoadModel(specFile, nil)
	if err != nil {
		return nil, InputError(err)
	}
	tester, err := newTester(z, m, sp, w)
	if err != nil {
		return nil, InputError(err)
	}
	funcs, err := o.Funcs.registry("stg run", m, w)
	if err != nil {
		return nil, err
	}
	t.closers = append(t.closers, func() { funcs.Close() })
	tester.Funcs = funcs
	p := tester.Purpose()
	t.name, t.about = p.Name, fmt.Sprintf("accept %v", p.AcceptPaths())
	after := online.AfterWeakPass(o.AfterWeakPass) // checked by RunOptions.check
	if after == online.Observe {
		t.about += ", observing after WeakPass"
	}
	return online.NewRunner(tester, online.Options{Options: t.opts.Options, AfterWeakPass: after}), nil
}

// stderrOf is where worker w writes the warnings of loading: the first
// worker's reach the user, the others' repeat them.
func stderrOf(stderr io.Writer, w int) io.Writer {
	if w == 0 {
		return stderr
	}
	return io.Discard
}
