package runner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples"
	"github.com/stg-tool/stg/internal/exampletest"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
)

// TestRunDependsOnSeedAlone plays seeds 1..5 of every example's test
// cases against each of its in-process SUTs (correct and mutants) in one
// Runner, in order, and again in a fresh Runner in reverse order: every
// run must give the same trace, whatever ran before it in its Runner (the
// memo of states without a path, the Z3 context). It is what makes a run
// replay by its seed, and --shard and --parallel play the campaign's runs.
// The default run plays the first purpose of each example, seeds 1..3;
// STG_LONG=1 every purpose, seeds 1..5.
func TestRunDependsOnSeedAlone(t *testing.T) {
	seeds := int64(testlong.Runs(3, 5))
	byExample := map[string][]examples.SUT{}
	for _, s := range examples.SUTs() {
		byExample[s.Example] = append(byExample[s.Example], s)
	}
	played := map[string]bool{}
	for _, ex := range exampletest.Pairs(t, "..") {
		example, _, _ := strings.Cut(ex.Name, "/")
		suts := byExample[example]
		if len(suts) == 0 || played[example] && !testlong.Enabled() {
			continue
		}
		played[example] = true
		res, err := pipeline.Generate(ex.Spec, ex.Purpose, pipeline.Options{Domain: "polyhedra"})
		if err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		opts := runner.Options{Depth: runner.DefaultDepth, Plan: runner.Diverse, Options: play.Options{MaxSteps: 150}}
		for _, s := range suts {
			play := func(r *runner.Runner, seed int64) string {
				res, err := r.Run(context.Background(), adapter.InProcess(s.New()), seed)
				if err != nil {
					t.Fatalf("%s against %s, seed %d: %v", ex.Name, s, seed, err)
				}
				return res.Verdict.String() + "\n" + res.TraceString()
			}
			batch, fresh := newTestRunner(t, res.Testcase, opts), newTestRunner(t, res.Testcase, opts)
			traces := make([]string, seeds+1)
			for seed := int64(1); seed <= seeds; seed++ {
				traces[seed] = play(batch, seed)
			}
			for seed := seeds; seed >= 1; seed-- {
				if got := play(fresh, seed); got != traces[seed] {
					t.Errorf("%s against %s, seed %d: in order\n%s\nin reverse order\n%s", ex.Name, s, seed, traces[seed], got)
				}
			}
		}
	}
}

func newTestRunner(t *testing.T, tc *spec.Model, opts runner.Options) *runner.Runner {
	t.Helper()
	r, err := runner.New(tc, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}
