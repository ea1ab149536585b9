package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	stgplay "github.com/stg-tool/stg/play"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// thresholdSUT implements testdata/threshold/spec.yaml (after TorXakis's
// Lucky People): a person is lucky after at least 5 persons in a row of
// the other sex. The correct one caps its counter at 5 and tests == 5;
// notCapped does not cap it, so only a switch after exactly 5 is lucky.
type thresholdSUT struct {
	notCapped bool
	last      bool
	run       int
}

func (s *thresholdSUT) Input(action string, args map[string]expr.Value) ([]adapter.Output, error) {
	if action != "person" {
		return nil, fmt.Errorf("unexpected input %s", action)
	}
	female := args["female"].Bool
	out := "unlucky"
	if female == s.last {
		s.run++
		if !s.notCapped {
			s.run = min(s.run, 5)
		}
	} else {
		if s.run == 5 {
			out = "lucky"
		}
		s.last, s.run = female, 1
	}
	return []adapter.Output{{Action: out}}, nil
}

// thresholdTestcase generates the test case of the threshold example.
func thresholdTestcase(t *testing.T) *spec.Model {
	t.Helper()
	res, err := pipeline.Generate("testdata/threshold/spec.yaml", "testdata/threshold/purpose.yaml", pipeline.Options{Domain: "polyhedra"})
	if err != nil {
		t.Fatal(err)
	}
	return res.Testcase
}

// killRuns plays runs seeds 1..n against newSUT with the strategy and
// returns the seeds that ended in Fail and the number of Pass verdicts.
func killRuns(t *testing.T, tc *spec.Model, plan runner.Strategy, n int, newSUT func() adapter.SUT) (fails []int64, passes int) {
	t.Helper()
	opts := inProcessOptions(runner.DefaultDepth)
	opts.Plan = plan
	r, err := runner.New(tc, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for seed := int64(1); seed <= int64(n); seed++ {
		res, err := stgplay.RunOnce(context.Background(), r.Engine(), adapter.GoSUT(newSUT), seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		switch res.Verdict {
		case runner.Fail:
			fails = append(fails, seed)
		case runner.Pass:
			passes++
		}
	}
	return fails, passes
}

// TestDiverseCatchesNotCapped is the acceptance test of diverse planning
// on a counter threshold: shortest paths always switch after exactly 5
// persons, so the mutant whose counter is not capped survives them; the
// diverse planner stretches some runs by a person or two and kills it
// within 20 runs, while the correct SUT never gets Fail (60 runs each).
func TestDiverseCatchesNotCapped(t *testing.T) {
	tc := thresholdTestcase(t)
	correct := func() adapter.SUT { return &thresholdSUT{} }
	mutant := func() adapter.SUT { return &thresholdSUT{notCapped: true} }
	for _, plan := range []runner.Strategy{runner.Diverse, runner.Shortest} {
		fails, passes := killRuns(t, tc, plan, 60, correct)
		if len(fails) > 0 {
			t.Errorf("%s: the correct SUT got Fail with seeds %v", plan, fails)
		}
		if passes < 45 {
			t.Errorf("%s: the correct SUT reached Pass in only %d of 60 runs", plan, passes)
		}
	}
	fails, _ := killRuns(t, tc, runner.Diverse, 20, mutant)
	if len(fails) == 0 {
		t.Fatalf("diverse: the not-capped mutant survives 20 runs")
	}
	short, _ := killRuns(t, tc, runner.Shortest, 20, mutant)
	t.Logf("not capped, 20 runs: diverse kills in %d (first seed %d), shortest in %d", len(fails), fails[0], len(short))
}

// TestDiverseReplays checks that a diverse run is fixed by its seed: the
// same seed gives the same trace from a fresh Runner, after other runs.
func TestDiverseReplays(t *testing.T) {
	tc := thresholdTestcase(t)
	opts := inProcessOptions(runner.DefaultDepth)
	opts.Plan = runner.Diverse
	trace := func(r *runner.Runner, seed int64) string {
		res, err := stgplay.RunOnce(context.Background(), r.Engine(), adapter.GoSUT(func() adapter.SUT { return &thresholdSUT{notCapped: true} }), seed)
		if err != nil {
			t.Fatal(err)
		}
		return res.TraceString()
	}
	batch, err := runner.New(tc, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer batch.Close()
	var traces []string
	for seed := range int64(12) {
		traces = append(traces, trace(batch, seed))
	}
	lengths := map[int]bool{}
	for _, tr := range traces {
		lengths[strings.Count(tr, "\n")] = true
	}
	if len(lengths) < 3 {
		t.Errorf("12 diverse runs took only %d distinct lengths", len(lengths))
	}
	for _, seed := range []int64{0, 5, 11} {
		fresh, err := runner.New(tc, opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := trace(fresh, seed); got != traces[seed] {
			t.Errorf("seed %d: the batch gave\n%s\nthe replay\n%s", seed, traces[seed], got)
		}
		fresh.Close()
	}
}

// strategies are the ways of steering compared by the mutation table.
var strategies = []struct {
	name  string
	depth int
	plan  runner.Strategy
}{
	{"diverse", runner.DefaultDepth, runner.Diverse},
	{"shortest", runner.DefaultDepth, runner.Shortest},
	{"random walk", 0, runner.Walk},
}

// stepBudget is the steps each strategy spends on a purpose and a mutant
// in TestMutationScoreByStrategy.
const stepBudget = 150

// budgetJob plays seeds 1, 2, ... of a test case against a mutant until
// the step budget is spent (the last run may overshoot it).
type budgetJob struct {
	tc       testcase
	mutant   string
	strategy string
	start    adapter.Starter
	opts     runner.Options
	// outcome
	runs, fails, steps int
	err                error
}

func (j *budgetJob) play() {
	r, err := runner.New(j.tc.tc, j.opts)
	if err != nil {
		j.err = err
		return
	}
	defer r.Close()
	for seed := int64(1); j.steps < stepBudget; seed++ {
		res, err := stgplay.RunOnce(context.Background(), r.Engine(), j.start, seed)
		if err != nil {
			j.err = fmt.Errorf("seed %d: %w", seed, err)
			return
		}
		j.runs++
		j.steps += len(res.Trace)
		if res.Verdict == runner.Fail {
			j.fails++
		}
	}
}

// TestMutationScoreByStrategy plays every purpose of every example
// against every mutant with the same budget of steps for each strategy
// (seeds 1, 2, ... until stepBudget steps are spent; runs of at most 150
// steps) and prints, per mutant, the failing runs of each strategy side
// by side. Per example, diverse planning must kill at least as many
// mutants as shortest paths. A measurement (the README's table): it runs
// with STG_LONG=1; TestDiverseCatchesNotCapped compares the strategies
// in the default run.
func TestMutationScoreByStrategy(t *testing.T) {
	testlong.Skip(t)
	t.Parallel()
	tcs := generate(t)
	type mutant struct {
		name  string
		start adapter.Starter
	}
	mutants := map[string][]mutant{} // by example
	for _, tc := range tcs {
		if _, ok := mutants[tc.example]; !ok {
			for _, s := range inProcess(t, tc.example)[1:] {
				mutants[tc.example] = append(mutants[tc.example], mutant{s.Name, adapter.GoSUT(s.New)})
			}
		}
	}
	// The counter threshold of testdata/threshold, with its mutant.
	tcs = append(tcs, testcase{"threshold", "purpose", thresholdTestcase(t)})
	mutants["threshold"] = []mutant{{"mutant-not-capped", adapter.GoSUT(func() adapter.SUT { return &thresholdSUT{notCapped: true} })}}
	var jobs []*budgetJob
	for _, tc := range tcs {
		for _, m := range mutants[tc.example] {
			for _, st := range strategies {
				opts := inProcessOptions(st.depth)
				opts.Plan = st.plan
				jobs = append(jobs, &budgetJob{tc: tc, mutant: m.name, strategy: st.name, start: m.start, opts: opts})
			}
		}
	}
	progress := testlong.NewProgress(t, "jobs", len(jobs))
	parallel(len(jobs), 2, func(i int) {
		jobs[i].play()
		progress.Add(1)
	})
	type key struct{ example, mutant, strategy string }
	killed := map[key]int{} // runs ending in Fail, over the example's purposes
	runs := map[string]int{}
	for _, j := range jobs {
		if j.err != nil {
			t.Errorf("%s vs %s, %s: %v", j.tc, j.mutant, j.strategy, j.err)
			continue
		}
		killed[key{j.tc.example, j.mutant, j.strategy}] += j.fails
		runs[j.strategy] += j.runs
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| example/mutant | diverse | shortest | random walk |\n|---|---|---|---|\n")
	var names []string
	for _, tc := range tcs {
		names = append(names, tc.example)
	}
	slices.Sort(names)
	total := map[string]int{}
	for _, e := range slices.Compact(names) {
		perExample := map[string]int{}
		for _, m := range mutants[e] {
			fmt.Fprintf(&b, "| %s/%s", e, m.name)
			for _, st := range strategies {
				n := killed[key{e, m.name, st.name}]
				fmt.Fprintf(&b, " | %d", n)
				if n > 0 {
					perExample[st.name]++
					total[st.name]++
				}
			}
			b.WriteString(" |\n")
		}
		if perExample["diverse"] < perExample["shortest"] {
			t.Errorf("%s: diverse planning kills %d mutants, shortest paths %d", e, perExample["diverse"], perExample["shortest"])
		}
	}
	fmt.Fprintf(&b, "| mutants killed | %d | %d | %d |\n", total["diverse"], total["shortest"], total["random walk"])
	fmt.Fprintf(&b, "| runs played | %d | %d | %d |\n", runs["diverse"], runs["shortest"], runs["random walk"])
	t.Logf("failing runs per mutant, summed over its example's purposes, with %d steps per purpose, mutant and strategy:%s", stepBudget, b.String())
}
