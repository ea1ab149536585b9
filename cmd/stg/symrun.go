package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/online"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// symRunFlags are the flags stg run takes for a symbolic purpose, in
// addition to its own.
func symRunFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "save-trace", Usage: "write the trace of the run to `FILE` (JSON Lines, FORMAT.md §5; for stg run --replay and stg verdict); with several runs: a test case saves each failing run to FILE with its seed inserted, a sympurpose the first run that gave the overall verdict"},
		&cli.StringFlag{Name: "spec", Usage: "with a sympurpose: its spec `SPEC` (default: the spec the sympurpose names)"},
	}
}

// The external functions a spec or test case calls are evaluated with
// funcFlags (funcs.go): on-line testing decides a call exactly once its
// arguments are known and steers stimuli toward the tables' rows
// (online.Tester.Funcs); a call that cannot be evaluated ends the run
// with an error (exit code 3).

// isSymPurpose reports whether file declares kind: sympurpose.
func isSymPurpose(file string) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	k, err := spec.PeekKind(file, data)
	return err == nil && k == spec.SymPurposeKind
}

// symSession is one invocation of stg run on a symbolic purpose.
type symSession struct {
	session
	results []*online.Result
}

// runSymPurpose is stg run SYMPURPOSE: on-line testing by the inference
// rules, against a SUT started afresh for each run (or over TCP).
func runSymPurpose(c *cli.Context, file string, command []string) error {
	ro, err := runOptions(c)
	if err != nil {
		return err
	}
	opts := online.Options{MaxSteps: ro.MaxSteps, Timeout: ro.Timeout, Timing: adapter.Timing{
		Quiescence: ro.Quiescence, Auto: ro.AutoQuiescence, Confirm: ro.Confirm, Startup: ro.Startup}}
	z, err := solver.NewContext()
	if err != nil {
		return inputError(fmt.Errorf("cannot start the solver: %v", err))
	}
	defer z.Close()
	z.SetTimeout(runner.DefaultSolverTimeout)
	t, m, err := loadSymRun(z, c.String("spec"), file, c.App.ErrWriter)
	if err != nil {
		return inputError(err)
	}
	funcs, err := funcRegistry(c, m, c.App.ErrWriter)
	if err != nil {
		return err
	}
	defer funcs.Close()
	t.Funcs = funcs
	replayFile := file
	if sp := c.String("spec"); sp != "" {
		replayFile += " --spec " + shellJoin([]string{sp})
	}
	s := &symSession{session: newSession(c, file, replayFile, command, opts.Timeout)}
	ctx, stop := interruptible()
	defer stop()
	fmt.Fprintf(s.stdout, "sympurpose %s: %d run(s), seeds %d..%d, accept %v\n", t.Purpose().Name, s.runs, s.seed, s.seed+int64(s.runs)-1, t.Purpose().AcceptPaths())
	s.play(ctx, online.NewRunner(t, opts))
	return s.finish(t.Purpose().Name)
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

// play plays the runs, printing each, until one ends in an error.
func (s *symSession) play(ctx context.Context, r *online.Runner) {
	for k := 1; k <= s.runs; k++ {
		seed := s.seed + int64(k-1)
		res, err := s.once(ctx, r, seed)
		if err != nil {
			if res == nil {
				res = &online.Result{Seed: seed}
			}
			res.Reason = err.Error()
			s.results = append(s.results, res)
			s.failed(k, seed, err, res, len(res.Steps))
			return
		}
		s.results = append(s.results, res)
		s.printRun(k, seed, res.Verdict, res.Reason, res.Verdict == online.Fail, res)
	}
}

// once starts a SUT, plays one run and releases the SUT.
func (s *symSession) once(ctx context.Context, r *online.Runner, seed int64) (*online.Result, error) {
	sut, err := s.start(ctx)
	if err != nil {
		if !errors.Is(err, adapter.ErrSUTUnavailable) {
			err = fmt.Errorf("%w: %v", adapter.ErrSUTUnavailable, err)
		}
		return nil, err
	}
	defer sut.Close()
	return r.Run(ctx, sut, seed)
}

// finish prints the summary, writes the report and the trace, and sets
// the exit code.
func (s *symSession) finish(name string) error {
	counts := map[online.Verdict]int{}
	var vs []online.Verdict
	for _, res := range s.results {
		if res.Verdict != online.None {
			counts[res.Verdict]++
			vs = append(vs, res.Verdict)
		}
	}
	overall := online.Overall(vs...)
	if overall == online.None {
		overall = online.Inconc
	}
	summary := overall.String()
	if s.runErr != nil {
		summary = "error"
	}
	fmt.Fprintf(s.stdout, "\n%s: %d Pass, %d WeakPass, %d Fail, %d Inconc in %d run(s): %s\n", name,
		counts[online.Pass], counts[online.WeakPass], counts[online.Fail], counts[online.Inconc], len(s.results), summary)
	if err := s.save(overall); err != nil {
		return inputError(err)
	}
	if path := s.c.String("report"); path != "" {
		if err := writeJUnit(path, name, s.junitRuns(), s.runErr); err != nil {
			return inputError(fmt.Errorf("writing the report: %v", err))
		}
	}
	if s.runErr != nil {
		return s.errorExit()
	}
	return verdictError(overall)
}

// save writes the trace of the first run with the overall verdict (or
// of the last run) to --save-trace.
func (s *symSession) save(overall online.Verdict) error {
	path := s.c.String("save-trace")
	if path == "" || len(s.results) == 0 {
		return nil
	}
	res := s.results[len(s.results)-1]
	for _, r := range s.results {
		if r.Verdict == overall {
			res = r
			break
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--save-trace: %v", err)
	}
	for _, te := range res.Trace {
		if err := spec.WriteTraceEvent(f, te); err != nil {
			f.Close()
			return fmt.Errorf("--save-trace %s: %v", path, err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--save-trace: %v", err)
	}
	fmt.Fprintf(s.stdout, "trace of run seed %d (%s) saved to %s\n", res.Seed, res.Verdict, path)
	return nil
}

// junitRuns returns the runs for the JUnit report, as stg run on a test
// case: Fail a failure, Inconc (or no verdict) skipped, Pass and WeakPass
// passed (the verdict is in the trace, in <system-out>).
func (s *symSession) junitRuns() []junitRun {
	runs := make([]junitRun, len(s.results))
	for i, res := range s.results {
		runs[i] = junitRun{run: i + 1, seed: res.Seed, elapsed: res.Elapsed, reason: res.Reason, trace: res.TraceString(),
			fail: res.Verdict == online.Fail, inconc: res.Verdict == online.Inconc || res.Verdict == online.None}
	}
	return runs
}
