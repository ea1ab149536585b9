package e2e

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stg-tool/stg/internal/testlong"
	stgplay "github.com/stg-tool/stg/play"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec/specfile"
)

// shrinkBudget is the candidate runs of each shrinking in TestShrinkMutants.
const shrinkBudget = 60

// starterOf starts a fresh in-process SUT per run.
func starterOf(s examples.SUT) adapter.Starter {
	return func(context.Context) (adapter.Adapter, error) { return adapter.InProcess(s.New()), nil }
}

// viaFile writes a run's trace as a trace file (stg run --save-trace)
// and reads its stimuli back (stg run --replay).
func viaFile(t *testing.T, r *runner.Runner, res *runner.Result) stgplay.Script {
	t.Helper()
	var b bytes.Buffer
	for _, ev := range stgplay.TraceEvents(res.Trace) {
		if err := specfile.WriteTraceEvent(&b, ev); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := specfile.ReadTrace("run.jsonl", &b)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := stgplay.ScriptFromTrace(r, "run.jsonl", evs)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// firstFail plays seeds 1, 2, ... of every test case of the mutant's
// example until one fails; nil when none of maxSeeds per test case does.
func firstFail(t *testing.T, tcs []testcase, s examples.SUT, maxSeeds int64) (*runner.Runner, *runner.Result) {
	t.Helper()
	for _, tc := range tcs {
		if tc.example != s.Example {
			continue
		}
		r, err := runner.New(tc.tc, inProcessOptions(runner.DefaultDepth))
		if err != nil {
			t.Fatal(err)
		}
		for seed := int64(1); seed <= maxSeeds; seed++ {
			res, err := stgplay.RunOnce(context.Background(), r.Engine(), starterOf(s), seed)
			if err != nil {
				t.Fatalf("%s vs %s seed %d: %v", tc, s, seed, err)
			}
			if res.Verdict == runner.Fail {
				t.Cleanup(r.Close)
				return r, res
			}
		}
		r.Close()
	}
	return nil, nil
}

// TestShrinkMutants: a failing run against each bundled mutant shrinks
// to a trace no longer than the original, which fails the same way when
// replayed from its trace file; the original run replays to the same
// failure too. And a saved passing run of each correct SUT replays to
// Pass. The default run shrinks every third mutant; STG_LONG=1 all.
func TestShrinkMutants(t *testing.T) {
	tcs := generate(t)
	var mutants []examples.SUT
	for _, s := range examples.SUTs() {
		if !s.Correct() {
			mutants = append(mutants, s)
		}
	}
	mutants = testlong.Pick(mutants, func(i int, _ examples.SUT) bool { return i%3 == 0 })
	var shrunkBy, total, killed int
	for _, s := range mutants {
		total++
		r, res := firstFail(t, tcs, s, 40)
		if res == nil {
			t.Logf("%s: no failing run in 40 seeds per purpose (not shrunk)", s)
			continue
		}
		killed++
		again, err := stgplay.ReplayOnce(context.Background(), r.Engine(), starterOf(s), viaFile(t, r, res), false)
		if err != nil || !stgplay.SameFailure(res, again) {
			t.Errorf("%s seed %d: the saved run replays to %v (%v), want the same Fail\n%s", s, res.Seed, again.Verdict, err, res.TraceString())
			continue
		}
		sh, err := r.Engine().Shrink(context.Background(), starterOf(s), res, shrinkBudget)
		if err != nil || !sh.Reproduced {
			t.Errorf("%s seed %d: shrinking: %v (reproduced %v)", s, res.Seed, err, sh.Reproduced)
			continue
		}
		if len(sh.Result.Trace) > len(res.Trace) || len(sh.Script) > sh.From || sh.Tried > shrinkBudget {
			t.Errorf("%s seed %d: shrunk to %d steps, %d stimuli from %d steps, %d stimuli (%d runs)",
				s, res.Seed, len(sh.Result.Trace), len(sh.Script), len(res.Trace), sh.From, sh.Tried)
		}
		replayed, err := stgplay.ReplayOnce(context.Background(), r.Engine(), starterOf(s), viaFile(t, r, sh.Result), false)
		if err != nil || !stgplay.SameFailure(res, replayed) {
			t.Errorf("%s seed %d: the shrunk trace replays to %v (%v)\n%s", s, res.Seed, replayed.Verdict, err, sh.Result.TraceString())
		}
		if len(sh.Result.Trace) < len(res.Trace) {
			shrunkBy++
		}
		t.Logf("%-32s seed %3d: %2d steps (%2d stimuli) -> %2d steps (%2d stimuli) in %2d runs", s, res.Seed,
			len(res.Trace), sh.From, len(sh.Result.Trace), len(sh.Script), sh.Tried)
	}
	t.Logf("%d of %d mutants failed and shrank; %d to a strictly shorter trace", killed, total, shrunkBy)
	if killed < total*3/4 {
		t.Errorf("only %d of %d mutants gave a failing run to shrink", killed, total)
	}
	for _, s := range examples.SUTs() {
		if !s.Correct() {
			continue
		}
		for _, tc := range tcs {
			if tc.example != s.Example {
				continue
			}
			t.Run(fmt.Sprintf("replay-pass/%s", tc), func(t *testing.T) { replayPass(t, tc, s) })
		}
	}
}

// replayPass replays a saved run of the correct SUT: it passes again.
func replayPass(t *testing.T, tc testcase, s examples.SUT) {
	r, err := runner.New(tc.tc, inProcessOptions(runner.DefaultDepth))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for seed := int64(1); seed <= 3; seed++ {
		res, err := stgplay.RunOnce(context.Background(), r.Engine(), starterOf(s), seed)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != runner.Pass {
			continue
		}
		again, err := stgplay.ReplayOnce(context.Background(), r.Engine(), starterOf(s), viaFile(t, r, res), false)
		if err != nil || again.Verdict != runner.Pass || len(again.Trace) != len(res.Trace) {
			t.Errorf("seed %d: a saved passing run replays to %v (%v)\n%s", seed, again.Verdict, err, res.TraceString())
		}
		return
	}
	t.Logf("no passing run in 3 seeds")
}
