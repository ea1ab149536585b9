package runner

import (
	"github.com/stg-tool/stg/adapter"
	"testing"
	"time"
)

// meanSteps plays runs of detour.yaml against its SUT and returns the
// mean number of steps to a verdict and the number of Pass verdicts.
func meanSteps(t testing.TB, depth, runs int) (float64, int) {
	r := newRunner(t, "detour.yaml", Options{Depth: depth, MaxSteps: 1000})
	total, passed := 0, 0
	for seed := int64(0); seed < int64(runs); seed++ {
		res := runInProcess(t, r, &detourSUT{}, seed)
		if res.Verdict == Fail {
			t.Fatalf("depth %d seed %d: Fail against a correct SUT\n%s", depth, seed, res.TraceString())
		}
		if res.Verdict == Pass {
			passed++
		}
		total += len(res.Trace)
	}
	return float64(total) / float64(runs), passed
}

// TestGoalDirected compares planning with a random walk on a test case
// whose Pass needs a particular sequence of sends among detours.
func TestGoalDirected(t *testing.T) {
	runs := 200
	if testing.Short() {
		runs = 30
	}
	random, randomPassed := meanSteps(t, 0, runs)
	planned, plannedPassed := meanSteps(t, DefaultDepth, runs)
	t.Logf("detour.yaml, %d runs: depth 0 (random walk): mean %.1f steps, %d Pass; depth %d: mean %.1f steps, %d Pass",
		runs, random, randomPassed, DefaultDepth, planned, plannedPassed)
	if planned != 4 || plannedPassed != runs {
		t.Errorf("planning: mean %.1f steps and %d Pass, want 4 steps and always Pass", planned, plannedPassed)
	}
	if random <= 2*planned {
		t.Errorf("the random walk took %.1f steps on average; the detours should cost it more", random)
	}
	// A depth too small to see Pass falls back to the random walk.
	shallow, _ := meanSteps(t, 2, runs)
	if shallow <= planned {
		t.Errorf("depth 2: mean %.1f steps, want more than depth %d's %.1f", shallow, DefaultDepth, planned)
	}
}

func benchmarkSteps(b *testing.B, name string, depth int, newSUT func() adapter.SUT) {
	r := newRunner(b, name, Options{Depth: depth, MaxSteps: 1000})
	steps := 0
	b.ResetTimer()
	begin := time.Now()
	for i := 0; i < b.N; i++ {
		res := runInProcess(b, r, newSUT(), int64(i))
		steps += len(res.Trace)
	}
	b.ReportMetric(float64(steps)/time.Since(begin).Seconds(), "steps/s")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/run")
}

// BenchmarkRunnerSteps measures the runner's own speed: steps per second
// against an in-process SUT, with and without planning.
func BenchmarkRunnerSteps(b *testing.B) {
	b.Run("cmp/depth8", func(b *testing.B) {
		benchmarkSteps(b, "cmp.yaml", DefaultDepth, func() adapter.SUT { return &cmpSUT{} })
	})
	b.Run("cmp/depth0", func(b *testing.B) {
		benchmarkSteps(b, "cmp.yaml", 0, func() adapter.SUT { return &cmpSUT{} })
	})
	b.Run("detour/depth8", func(b *testing.B) {
		benchmarkSteps(b, "detour.yaml", DefaultDepth, func() adapter.SUT { return &detourSUT{} })
	})
	b.Run("detour/depth0", func(b *testing.B) {
		benchmarkSteps(b, "detour.yaml", 0, func() adapter.SUT { return &detourSUT{} })
	})
}
