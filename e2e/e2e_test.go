// Package e2e plays the test cases that stg generates for every bundled
// example against the example's reference implementation and its
// mutants, as separate processes speaking the JSON-Lines protocol. It
// checks soundness (a correct SUT never gets Fail) and measures
// effectiveness (mutation score and steps to a verdict, goal-directed
// runs against a random walk).
package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stg-tool/stg/internal/exampletest"
	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
)

var soundRuns = flag.Int("sound-runs", 1000, "runs of correct SUTs, spread over all examples and purposes")

// sut is a built reference implementation or mutant.
type sut struct {
	example, name, path string
}

// buildSUTs compiles every examples/*/sut/correct and examples/*/sut/mutant-*
// program into a temporary directory; other directories there, such as the
// shared implementation in sut/impl, are not programs.
func buildSUTs(t *testing.T) map[string][]sut {
	t.Helper()
	dirs, err := filepath.Glob("../examples/*/sut/*")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	out := map[string][]sut{}
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		example := filepath.Base(filepath.Dir(filepath.Dir(d)))
		name := filepath.Base(d)
		if name != "correct" && !strings.HasPrefix(name, "mutant-") {
			continue
		}
		path := filepath.Join(bin, example+"-"+name)
		cmd := exec.Command("go", "build", "-o", path, "./"+d)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", d, err, b)
		}
		out[example] = append(out[example], sut{example, name, path})
	}
	return out
}

// testcase is a generated test case of one example and purpose.
type testcase struct {
	example, purpose string
	tc               *spec.Model
}

func generate(t *testing.T) []testcase {
	t.Helper()
	var r []testcase
	for _, ex := range exampletest.Pairs(t, "..") {
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

// job is a batch of runs of one test case against one SUT.
type job struct {
	tc    testcase
	sut   sut
	depth int
	runs  int
	seed  int64
}

type outcome struct {
	job
	pass, fail, inconc int
	steps              int // summed over runs
	firstFail          *runner.Result
	err                error
}

func options(depth int) runner.Options {
	return runner.Options{Depth: depth, Quiescence: 250 * time.Millisecond, MaxSteps: 150, Timeout: 20 * time.Second}
}

// play runs the jobs on two workers (the machine has two cores); each
// worker owns its runners and so its Z3 contexts.
func play(t *testing.T, jobs []job) []outcome {
	t.Helper()
	results := make([]outcome, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = playJob(jobs[i])
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func playJob(j job) outcome {
	o := outcome{job: j}
	r, err := runner.New(j.tc.tc, options(j.depth))
	if err != nil {
		o.err = err
		return o
	}
	defer r.Close()
	start := adapter.Command([]string{j.sut.path}, nil)
	for k := 0; k < j.runs; k++ {
		res, err := runner.RunOnce(context.Background(), r, start, j.seed+int64(k))
		if err != nil {
			o.err = fmt.Errorf("seed %d: %w", j.seed+int64(k), err)
			return o
		}
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
	}
	return o
}

// TestCorrectNeverFails plays the test cases of every example against
// the correct implementations: soundness says no run may end in Fail.
func TestCorrectNeverFails(t *testing.T) {
	if testing.Short() {
		t.Skip("plays many runs against processes")
	}
	suts := buildSUTs(t)
	tcs := generate(t)
	per := (*soundRuns + len(tcs) - 1) / len(tcs)
	var jobs []job
	for _, tc := range tcs {
		for _, s := range suts[tc.example] {
			if s.name == "correct" {
				// Half goal-directed, half random walk: both must be sound.
				jobs = append(jobs, job{tc, s, 8, per - per/2, 1}, job{tc, s, 0, per / 2, 100001})
			}
		}
	}
	total := 0
	for _, o := range play(t, jobs) {
		total += o.pass + o.fail + o.inconc
		if o.err != nil {
			t.Errorf("%s/%s depth %d: %v", o.tc.example, o.tc.purpose, o.depth, o.err)
		}
		if o.fail > 0 {
			t.Errorf("%s/%s depth %d: the correct SUT got Fail in %d runs; first: seed %d: %s", o.tc.example, o.tc.purpose, o.depth, o.fail, o.firstFail.Seed, o.firstFail.Reason)
		}
		if o.depth > 0 && o.pass == 0 {
			t.Errorf("%s/%s: the correct SUT never reached Pass in %d goal-directed runs", o.tc.example, o.tc.purpose, o.runs)
		}
	}
	t.Logf("%d runs of correct SUTs over %d test cases, no Fail", total, len(tcs))
}

// TestMutationScore plays every test case of an example against each of
// its mutants, goal-directed (depth 8) and as a random walk (depth 0),
// and reports per example the mutants killed (some run ends in Fail) and
// the mean steps per run. Every mutant must be killed by the
// goal-directed runs of some test case of its example.
func TestMutationScore(t *testing.T) {
	if testing.Short() {
		t.Skip("plays many runs against processes")
	}
	suts := buildSUTs(t)
	tcs := generate(t)
	const runs = 10
	var jobs []job
	for _, tc := range tcs {
		for _, s := range suts[tc.example] {
			if s.name == "correct" {
				continue
			}
			for _, d := range []int{8, 0} {
				jobs = append(jobs, job{tc, s, d, runs, 7})
			}
		}
	}
	type key struct {
		example string
		depth   int
	}
	killed := map[key]map[string]bool{}
	mutants := map[string]map[string]bool{}
	steps, count := map[key]int{}, map[key]int{}
	for _, o := range play(t, jobs) {
		if o.err != nil {
			t.Errorf("%s/%s vs %s depth %d: %v", o.tc.example, o.tc.purpose, o.sut.name, o.depth, o.err)
			continue
		}
		k := key{o.tc.example, o.depth}
		if killed[k] == nil {
			killed[k] = map[string]bool{}
		}
		if mutants[o.tc.example] == nil {
			mutants[o.tc.example] = map[string]bool{}
		}
		mutants[o.tc.example][o.sut.name] = true
		if o.fail > 0 {
			killed[k][o.sut.name] = true
		}
		steps[k] += o.steps
		count[k] += o.runs
	}
	var examples []string
	for e := range mutants {
		examples = append(examples, e)
	}
	sort.Strings(examples)
	var b strings.Builder
	fmt.Fprintf(&b, "\n| example | mutants | killed, depth 8 | killed, depth 0 | mean steps/run, depth 8 | mean steps/run, depth 0 |\n|---|---|---|---|---|---|\n")
	for _, e := range examples {
		k8, k0 := key{e, 8}, key{e, 0}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f | %.1f |\n", e, len(mutants[e]), len(killed[k8]), len(killed[k0]),
			float64(steps[k8])/float64(count[k8]), float64(steps[k0])/float64(count[k0]))
		for m := range mutants[e] {
			if !killed[k8][m] {
				t.Errorf("%s: mutant %s survives every test case of its example", e, m)
			}
		}
	}
	t.Log(b.String())
}
