package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/online"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
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
// as many as --parallel asks and the runs to play need.
func loadPlayable(c *cli.Context, file string, opts runner.Options, runs int) (*playable, error) {
	t := &playable{opts: opts, replayArg: file}
	workers := play.Workers(c.Int("parallel"), runs)
	var err error
	if isSymPurpose(file) {
		err = t.loadSymPurpose(c, file, workers)
	} else {
		err = t.loadTestcase(c, file, workers)
	}
	if err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// isSymPurpose reports whether file declares kind: sympurpose.
func isSymPurpose(file string) bool {
	data, err := spec.ReadModelFile(file)
	if err != nil {
		return false
	}
	k, err := spec.PeekKind(file, data)
	return err == nil && k == spec.SymPurposeKind
}

// loadTestcase prepares the workers of a test case.
func (t *playable) loadTestcase(c *cli.Context, file string, workers int) error {
	m, err := loadModel(file, nil)
	if err != nil {
		return tool.InputError(err)
	}
	if m.Kind != spec.TestcaseKind {
		return tool.InputError(fmt.Errorf("%s: stg run plays a testcase or a sympurpose, not a %s", file, m.Kind))
	}
	if err := validateTestcase(m, c.App.ErrWriter); err != nil {
		return tool.InputError(err)
	}
	t.kind, t.name = "test case", m.Name
	t.about = fmt.Sprintf("depth %d, %s paths", t.opts.Depth, t.opts.Plan)
	for w := range workers {
		o := t.opts
		funcs, err := funcRegistry(c, m, stderrOf(c, w))
		if err != nil {
			return err
		}
		t.closers = append(t.closers, func() { funcs.Close() })
		o.Funcs = funcs
		r, err := runner.New(m, o)
		if err != nil {
			return tool.InputError(fmt.Errorf("%s: %v", file, err))
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
func (t *playable) loadSymPurpose(c *cli.Context, file string, workers int) error {
	for _, f := range []string{"plan", "depth"} {
		if c.IsSet(f) {
			return usageError(c, "--%s applies to a test case: the on-line tester of a sympurpose steers by its accept nodes, not by planning", f)
		}
	}
	t.kind = "sympurpose"
	if sp := c.String("spec"); sp != "" {
		t.replayArg += " --spec " + shellJoin([]string{sp})
	}
	for w := range workers {
		r, err := t.symWorker(c, file, stderrOf(c, w))
		if err != nil {
			return err
		}
		t.engines = append(t.engines, r.Engine())
	}
	return nil
}

// symWorker prepares one on-line worker: its solver context, tester and
// external functions.
func (t *playable) symWorker(c *cli.Context, file string, w io.Writer) (*online.Runner, error) {
	z, err := solver.NewContext()
	if err != nil {
		return nil, tool.InputError(fmt.Errorf("cannot start the solver: %v", err))
	}
	t.closers = append(t.closers, z.Close)
	z.SetTimeout(runner.DefaultSolverTimeout)
	tester, m, err := loadSymRun(z, c.String("spec"), file, w)
	if err != nil {
		return nil, tool.InputError(err)
	}
	funcs, err := funcRegistry(c, m, w)
	if err != nil {
		return nil, err
	}
	t.closers = append(t.closers, func() { funcs.Close() })
	tester.Funcs = funcs
	p := tester.Purpose()
	t.name, t.about = p.Name, fmt.Sprintf("accept %v", p.AcceptPaths())
	return online.NewRunner(tester, online.Options{Options: t.opts.Options}), nil
}

// stderrOf is where worker w writes the warnings of loading: the first
// worker's reach the user, the others' repeat them.
func stderrOf(c *cli.Context, w int) io.Writer {
	if w == 0 {
		return c.App.ErrWriter
	}
	return io.Discard
}

// loadSymRun loads the symbolic purpose file and its spec (specFile, or
// the one it names).
func loadSymRun(z *solver.Context, specFile, file string, w io.Writer) (*online.Tester, *spec.Model, error) {
	if specFile == "" {
		sp, err := spec.LoadSymPurpose(file)
		if err != nil {
			return nil, nil, err
		}
		specFile = sp.SpecPath()
	}
	m, err := loadModel(specFile, nil)
	if err != nil {
		return nil, nil, err
	}
	t, err := loadTester(z, m, file, w)
	return t, m, err
}
