package runner

import (
	"context"
	"math/big"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec/expr"
)

// meanSteps plays runs of detour.yaml against its SUT and returns the
// mean number of steps to a verdict and the number of Pass verdicts.
func meanSteps(t testing.TB, depth, runs int) (float64, int) {
	r := newRunner(t, "detour.yaml", Options{Depth: depth, Options: play.Options{MaxSteps: 1000}})
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
// whose Pass needs a particular sequence of sends among detours: 60
// runs per depth (200 with STG_LONG=1).
func TestGoalDirected(t *testing.T) {
	runs := testlong.Runs(60, 200)
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
	r := newRunner(b, name, Options{Depth: depth, Options: play.Options{MaxSteps: 1000}})
	steps := 0
	checks := r.z.Stats().Checks
	b.ResetTimer()
	begin := time.Now()
	for i := 0; i < b.N; i++ {
		res := runInProcess(b, r, newSUT(), int64(i))
		steps += len(res.Trace)
	}
	b.ReportMetric(float64(steps)/time.Since(begin).Seconds(), "steps/s")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/run")
	b.ReportMetric(float64(r.z.Stats().Checks-checks)/float64(steps), "checks/step")
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

// exampleBinary builds the program examples/<example>/sut/<name> once
// per benchmark into a temporary directory.
func exampleBinary(b *testing.B, example, name string) string {
	b.Helper()
	out := filepath.Join(b.TempDir(), name)
	cmd := exec.Command("go", "build", "-o", out, "./examples/"+example+"/sut/"+name)
	cmd.Dir = ".."
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("building examples/%s/sut/%s: %v\n%s", example, name, err, msg)
	}
	return out
}

// benchmarkProcess plays runs of the test case name (testdata) against
// a program started afresh for each run, with the options of stg run
// (DefaultOptions): steps per second, steps per run and the Z3 checks
// per step.
func benchmarkProcess(b *testing.B, name string, argv []string) {
	r := newRunner(b, name, DefaultOptions())
	steps, fails := 0, 0
	checks := r.z.Stats().Checks
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := play.RunOnce(context.Background(), r.Engine(), adapter.Command(argv, nil), int64(i))
		if err != nil {
			b.Fatalf("seed %d: %v", i, err)
		}
		if res.Verdict == Fail {
			fails++
		}
		steps += len(res.Trace)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(steps)/float64(b.N), "steps/run")
	b.ReportMetric(float64(r.z.Stats().Checks-checks)/float64(steps), "checks/step")
	if fails > 0 {
		b.Fatalf("%d runs of %d Fail against a correct SUT", fails, b.N)
	}
}

// BenchmarkProcessSteps measures steps per second against the example
// SUT programs of buffer and cmp (examples/*/sut/correct), a process
// per run, with the options of stg run; the test cases are those stg
// generate makes of the examples' spec.yaml and purpose.yaml
// (testdata/example-*.yaml).
func BenchmarkProcessSteps(b *testing.B) {
	for _, ex := range []string{"buffer", "cmp"} {
		b.Run(ex, func(b *testing.B) {
			benchmarkProcess(b, "example-"+ex+".yaml", []string{exampleBinary(b, ex, "correct")})
		})
	}
}

// BenchmarkProcessFloor measures what a run of cmp costs without the
// tester: start the program, send two inputs, read its two outputs, stop
// it. It bounds the steps per second any runner can reach on that SUT.
func BenchmarkProcessFloor(b *testing.B) {
	argv := []string{exampleBinary(b, "cmp", "correct")}
	ctx := context.Background()
	in := func(p int64) adapter.Input {
		return adapter.Input{Action: "in", Args: map[string]expr.Value{"p": expr.IntValue(big.NewInt(p))}}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sut, err := adapter.Command(argv, nil)(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range []int64{3, 5} {
			if err := sut.Send(ctx, in(p)); err != nil {
				b.Fatal(err)
			}
		}
		for range 2 {
			if _, err := sut.Receive(ctx, time.Second); err != nil {
				b.Fatal(err)
			}
		}
		sut.Close()
	}
	b.ReportMetric(3*float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}
