// Package e2e plays the test cases that stg generates for every bundled
// example against the example's reference implementation and its mutants.
//
// The soundness test (a correct SUT never gets Fail: 200 runs, 1,000
// with STG_LONG=1, half goal-directed, half random walk) and the
// mutation score run the
// implementations in process (examples.SUTs), where quiescence is exact:
// no timer decides a verdict, so a Fail is a fault of the SUT and a kill
// is real. process_test.go plays fewer runs against the real programs,
// with the options of stg run, to show that the processes and the wire
// protocol work, and, with STG_LONG=1, the handling of time: programs
// started late.
//
// go test ./e2e plays a representative share of each matrix, so that
// go test ./... stays short; STG_LONG=1 (internal/testlong) plays all of
// it, and the measurements (TestMutationScoreByStrategy, the Lucky
// People planning comparison), as the second step of .ci/run does. Long
// tests log their progress every 30 s (go test -v).
package e2e

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples"
	"github.com/stg-tool/stg/internal/exampletest"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/pipeline"
	stgplay "github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
)

var soundRuns = flag.Int("sound-runs", 0, "runs of correct SUTs in process, spread over all examples and purposes (0: 200, or 1000 with STG_LONG=1)")

// testcase is a generated test case of one example and purpose.
type testcase struct {
	example, purpose string
	tc               *spec.Model
}

func (tc testcase) String() string { return tc.example + "/" + tc.purpose }

// generated holds the test cases of generate once made: the tests that
// play them, parallel, share one generation. The first to ask generates
// while the others wait; a failed generation is not kept. The test
// cases are read only, by any number of goroutines (spec.Model).
var generated struct {
	sync.Mutex
	tcs []testcase
}

// generate returns the test case of every purpose of every example
// registered in examples.SUTs. The other examples play in their own
// files with their own SUT set-up: microgrid (a SUT that speaks first,
// external functions), slot (projected purposes of a component),
// quidonc and tank (covering tours).
func generate(t *testing.T) []testcase {
	t.Helper()
	generated.Lock()
	defer generated.Unlock()
	if generated.tcs == nil {
		generated.tcs = generateAll(t)
	}
	return generated.tcs
}

func generateAll(t *testing.T) []testcase {
	t.Helper()
	registered := map[string]bool{}
	for _, s := range examples.SUTs() {
		registered[s.Example] = true
	}
	var r []testcase
	for _, ex := range exampletest.Pairs(t, "..") {
		if !registered[strings.Split(ex.Name, "/")[0]] {
			continue
		}
		res, err := pipeline.Generate(ex.Spec, ex.Purpose, pipeline.Options{Domain: "polyhedra"})
		if err != nil {
			t.Fatalf("%s: %v", ex.Purpose, err)
		}
		example, purpose, _ := strings.Cut(ex.Name, "/")
		r = append(r, testcase{example, purpose, res.Testcase})
	}
	if len(r) == 0 {
		t.Fatal("no examples")
	}
	return r
}

// inProcess returns the implementations of example, correct first.
func inProcess(t *testing.T, example string) []examples.SUT {
	t.Helper()
	var r []examples.SUT
	for _, s := range examples.SUTs() {
		if s.Example == example {
			r = append(r, s)
		}
	}
	if len(r) == 0 || !r[0].Correct() {
		t.Fatalf("%s: no correct in-process implementation", example)
	}
	return r
}

// job is a batch of runs of one test case against one SUT.
type job struct {
	tc        testcase
	sut       string // "correct", "mutant-no-end", "correct, 3s late", ...
	start     adapter.Starter
	opts      runner.Options
	runs      int
	seed      int64
	untilFail bool   // stop at the first Fail
	suite     string // the group of jobs it belongs to
}

func (j job) String() string {
	return fmt.Sprintf("%s vs %s, depth %d", j.tc, j.sut, j.opts.Depth)
}

// outcome is what the runs of a job gave.
type outcome struct {
	job
	played, pass, fail, inconc int
	steps                      int // summed over runs
	firstFail                  *runner.Result
	err                        error
}

// inProcessOptions bound runs against in-process SUTs; their quiescence
// is exact, so no window matters. Planning is diverse, as in stg run.
func inProcessOptions(depth int) runner.Options {
	return runner.Options{Depth: depth, Plan: runner.Diverse, Options: stgplay.Options{MaxSteps: 150, Timeout: 2 * time.Minute}}
}

// parallel calls do(i) for every i in [0, n), in that order, on workers
// goroutines, and returns when all calls have returned.
func parallel(n, workers int, do func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// play runs the jobs on workers goroutines, logging the progress of t.
// Each job has its own Runner and so its own Z3 context, used by one
// goroutine.
func play(t *testing.T, jobs []job, workers int) []outcome {
	results := make([]outcome, len(jobs))
	progress := testlong.NewProgress(t, "jobs", len(jobs))
	parallel(len(jobs), workers, func(i int) {
		results[i] = jobs[i].play()
		progress.Add(1)
	})
	return results
}

func (j job) play() outcome {
	o := outcome{job: j}
	r, err := runner.New(j.tc.tc, j.opts)
	if err != nil {
		o.err = err
		return o
	}
	defer r.Close()
	for k := range int64(j.runs) {
		res, err := stgplay.RunOnce(context.Background(), r.Engine(), j.start, j.seed+k)
		if err != nil {
			o.err = fmt.Errorf("seed %d: %w", j.seed+k, err)
			return o
		}
		o.played++
		o.steps += len(res.Trace)
		switch res.Verdict {
		case runner.Pass:
			o.pass++
		case runner.Fail:
			o.fail++
			if o.firstFail == nil {
				o.firstFail = res
			}
		default:
			o.inconc++
		}
		if j.untilFail && o.fail > 0 {
			break
		}
	}
	return o
}

// checkSound reports every error and every Fail of the outcomes of
// correct SUTs, and returns the runs played and the Fails.
func checkSound(t *testing.T, outs []outcome) (runs, fails int) {
	t.Helper()
	for _, o := range outs {
		runs += o.played
		fails += o.fail
		if o.err != nil {
			t.Errorf("%s: %v", o.job, o.err)
		}
		if o.fail > 0 {
			t.Errorf("%s: the correct SUT got Fail in %d of %d runs; first: seed %d: %s\n%s",
				o.job, o.fail, o.played, o.firstFail.Seed, o.firstFail.Reason, o.firstFail.TraceString())
		}
	}
	return runs, fails
}

// TestCorrectNeverFails plays the test cases of every example against
// the correct implementations in process: soundness says no run may end
// in Fail, and goal-directed runs must reach Pass.
func TestCorrectNeverFails(t *testing.T) {
	t.Parallel()
	tcs := generate(t)
	total := *soundRuns
	if total == 0 {
		total = testlong.Runs(80, 1000)
	}
	per := (total + len(tcs) - 1) / len(tcs)
	var jobs []job
	for _, tc := range tcs {
		correct := inProcess(t, tc.example)[0]
		start := adapter.GoSUT(correct.New)
		// Half goal-directed, half random walk: both must be sound.
		jobs = append(jobs,
			job{tc: tc, sut: correct.Name, start: start, opts: inProcessOptions(8), runs: per - per/2, seed: 1},
			job{tc: tc, sut: correct.Name, start: start, opts: inProcessOptions(0), runs: per / 2, seed: 100001})
	}
	outs := play(t, jobs, 2)
	runs, fails := checkSound(t, outs)
	for _, o := range outs {
		if o.opts.Depth > 0 && o.pass == 0 && o.err == nil {
			t.Errorf("%s: the correct SUT never reached Pass in %d goal-directed runs", o.job, o.played)
		}
	}
	t.Logf("%d runs of correct SUTs in process over %d test cases: %d Fail", runs, len(tcs), fails)
}

// kill is the first Fail of a mutant at a planning depth.
type kill struct {
	tc  testcase
	res *runner.Result
}

// TestMutationScore plays every test case of an example against each of
// its mutants in process, goal-directed (depth 8) and as a random walk
// (depth 0), and reports per example the mutants killed (some run ends in
// Fail; quiescence is exact, so a Fail on quiescence is a missing output,
// not a slow SUT) with the reason of each kill, and the mean steps per
// run. Every mutant must be killed by the goal-directed runs of some test
// case of its example. The default run plays the goal-directed runs
// alone and stops each job at its first Fail (the mean steps are then
// those of the runs up to it); STG_LONG=1 plays all 10 runs at both
// depths.
func TestMutationScore(t *testing.T) {
	t.Parallel()
	tcs := generate(t)
	const runs = 10
	// The random walks (depth 0) are measured, not required to kill:
	// they play with STG_LONG=1.
	depths := testlong.Pick([]int{8, 0}, func(_ int, d int) bool { return d == 8 })
	var jobs []job
	for _, tc := range tcs {
		for _, s := range inProcess(t, tc.example)[1:] {
			for _, d := range depths {
				jobs = append(jobs, job{tc: tc, sut: s.Name, start: adapter.GoSUT(s.New), opts: inProcessOptions(d), runs: runs, seed: 7, untilFail: !testlong.Enabled()})
			}
		}
	}
	type key struct {
		example, mutant string
		depth           int
	}
	kills := map[key]kill{}
	steps, count := map[key]int{}, map[key]int{}
	for _, o := range play(t, jobs, 2) {
		if o.err != nil {
			t.Errorf("%s: %v", o.job, o.err)
			continue
		}
		k := key{o.tc.example, o.sut, o.opts.Depth}
		if _, done := kills[k]; o.firstFail != nil && !done {
			kills[k] = kill{o.tc, o.firstFail}
		}
		k.mutant = "" // per example
		steps[k] += o.steps
		count[k] += o.played
	}
	var table, reasons strings.Builder
	fmt.Fprintf(&table, "\n| example | mutants | killed, depth 8 | killed, depth 0 | mean steps/run, depth 8 | mean steps/run, depth 0 |\n|---|---|---|---|---|---|\n")
	var names []string // of the examples
	for _, tc := range tcs {
		names = append(names, tc.example)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	for _, e := range names {
		mutants := inProcess(t, e)[1:]
		killed := map[int]int{}
		for _, m := range mutants {
			for _, d := range depths {
				kl, ok := kills[key{e, m.Name, d}]
				if !ok {
					fmt.Fprintf(&reasons, "%s/%s, depth %d: survives\n", e, m.Name, d)
					continue
				}
				killed[d]++
				fmt.Fprintf(&reasons, "%s/%s, depth %d: killed by %s, seed %d: %s\n", e, m.Name, d, kl.tc.purpose, kl.res.Seed, kl.res.Reason)
			}
			if _, ok := kills[key{e, m.Name, 8}]; !ok {
				t.Errorf("%s: mutant %s survives the goal-directed runs of every test case of its example", e, m.Name)
			}
		}
		k8, k0 := key{e, "", 8}, key{e, "", 0}
		fmt.Fprintf(&table, "| %s | %d | %d | %d | %.1f | %.1f |\n", e, len(mutants), killed[8], killed[0],
			float64(steps[k8])/float64(max(count[k8], 1)), float64(steps[k0])/float64(max(count[k0], 1)))
	}
	t.Log(table.String() + "\nkills (first Fail per mutant and depth, in process):\n" + reasons.String())
}
