package e2e

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	quidonc "github.com/stg-tool/stg/examples/quidonc/sut/impl"
	tank "github.com/stg-tool/stg/examples/tank/sut/impl"
	"github.com/stg-tool/stg/instantiate"
	"github.com/stg-tool/stg/internal/exampletest"
	"github.com/stg-tool/stg/internal/testlong"
	stgplay "github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// The abstraction route (stg tour): the instantiated tests of the
// examples with a purpose on the abstraction replay on their model, pass
// against the correct implementation in every one of 1,000 seeded
// in-process runs, and catch mutants.

type tourExample struct {
	name, spec string
	purposes   []string
	correct    func() adapter.SUT
	mutants    map[string]func() adapter.SUT
}

func tourExamples() []tourExample {
	return []tourExample{
		{"quidonc", "../examples/quidonc/spec.yaml", quidoncTourPurposes(),
			func() adapter.SUT { return quidonc.New(quidonc.Correct) },
			map[string]func() adapter.SUT{
				quidonc.NoResetOnEntry.String():     func() adapter.SUT { return quidonc.New(quidonc.NoResetOnEntry) },
				quidonc.HangUpKeepsCounter.String(): func() adapter.SUT { return quidonc.New(quidonc.HangUpKeepsCounter) },
				quidonc.ThirdRetry.String():         func() adapter.SUT { return quidonc.New(quidonc.ThirdRetry) },
			}},
		{"tank", "../examples/tank/spec.yaml", []string{"../examples/tank/purpose-high-then-empty.yaml"},
			func() adapter.SUT { return tank.New(tank.Correct) },
			map[string]func() adapter.SUT{
				tank.DrainLeavesOne.String(): func() adapter.SUT { return tank.New(tank.DrainLeavesOne) },
				tank.HighAt8.String():        func() adapter.SUT { return tank.New(tank.HighAt8) },
			}},
	}
}

// quidoncTourPurposes are the purposes of Qui-Donc's tours that the
// tour tests play: tp1's by default, and Fig. 4's with STG_LONG=1
// (instantiate's TestQuidoncToursKillMutants plays Fig. 4's tour against
// the correct implementation and every mutant by default).
func quidoncTourPurposes() []string {
	ps := []string{"../examples/quidonc/purpose-fig4.yaml", "../examples/quidonc/purpose-tp1.yaml"}
	return testlong.Pick(ps, func(_ int, p string) bool { return strings.HasSuffix(p, "tp1.yaml") })
}

// tourCache holds the test cases of each tour example once built: the
// two tour tests, parallel, play the same ones, and the instantiation
// takes seconds. The first test to ask builds them while the other
// waits; a failed build is not kept, so each test reports its own.
var tourCache = struct {
	sync.Mutex
	tcs map[string][]*spec.Model
}{tcs: map[string][]*spec.Model{}}

// tourSuite returns the test cases of the instances of the example's
// suites, built once (buildTourSuite).
func tourSuite(t *testing.T, ex tourExample) []*spec.Model {
	t.Helper()
	tourCache.Lock()
	defer tourCache.Unlock()
	if tcs, ok := tourCache.tcs[ex.name]; ok {
		return tcs
	}
	tcs := buildTourSuite(t, ex)
	if !t.Failed() {
		tourCache.tcs[ex.name] = tcs
	}
	return tcs
}

// buildTourSuite builds the example's suites (with filtering, K = 2), one
// per purpose, and replays every instance on the model once more; it
// returns the test cases of the instances.
func buildTourSuite(t *testing.T, ex tourExample) []*spec.Model {
	t.Helper()
	s, err := specfile.LoadFile(ex.spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tcs []*spec.Model
	for _, p := range ex.purposes {
		tcs = append(tcs, tourPurpose(t, s, p)...)
	}
	return tcs
}

func tourPurpose(t *testing.T, s *spec.Model, purpose string) []*spec.Model {
	t.Helper()
	tp, err := specfile.LoadFile(purpose, s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := exampletest.Context(t)
	su, err := instantiate.Generate(ctx, s, tp, instantiate.Options{Reflexive: 2, Testcases: true})
	if err != nil {
		t.Fatal(err)
	}
	anim, err := instantiate.NewAnimator(ctx, su.SPPrime, 2)
	if err != nil {
		t.Fatal(err)
	}
	var tcs []*spec.Model
	for i, inst := range su.Instances {
		if inst == nil {
			continue
		}
		if err := anim.Replay(inst); err != nil {
			t.Errorf("%s t%d does not replay on the model: %v", tp.Name, i+1, err)
		}
		tcs = append(tcs, su.Testcases[i])
	}
	t.Logf("%s: %d of %d symbolic tests instantiated", tp.Name, len(tcs), len(su.Symbolic))
	if len(tcs) == 0 {
		t.Fatalf("%s: no instantiated test", tp.Name)
	}
	return tcs
}

// playTour runs tc against fresh SUTs runs times from seed, half
// goal-directed, half random walk; it returns the verdict counts and the
// first Fail.
func playTour(t *testing.T, tc *spec.Model, newSUT func() adapter.SUT, runs int, seed int64, untilFail bool) (pass, fail int, first *runner.Result) {
	t.Helper()
	for _, depth := range []int{8, 0} {
		r, err := runner.New(tc, runner.Options{Depth: depth, Options: stgplay.Options{MaxSteps: 150, Timeout: 2 * time.Minute}})
		if err != nil {
			t.Fatal(err)
		}
		for k := range int64(runs / 2) {
			res, err := stgplay.RunOnce(context.Background(), r.Engine(), adapter.GoSUT(newSUT), seed+k)
			if err != nil {
				r.Close()
				t.Fatalf("%s seed %d: %v", tc.Name, seed+k, err)
			}
			switch res.Verdict {
			case runner.Pass:
				pass++
			case runner.Fail:
				fail++
				if first == nil {
					first = res
				}
			}
			if untilFail && fail > 0 {
				r.Close()
				return pass, fail, first
			}
		}
		r.Close()
	}
	return pass, fail, first
}

// TestTourCorrectPasses: 100 seeded runs (1,000 with STG_LONG=1) of the
// instantiated tests of every example against its correct implementation
// all end in Pass.
func TestTourCorrectPasses(t *testing.T) {
	t.Parallel()
	total := testlong.Runs(100, 1000)
	var all []*spec.Model
	var sut []func() adapter.SUT
	for _, ex := range tourExamples() {
		for _, tc := range tourSuite(t, ex) {
			all = append(all, tc)
			sut = append(sut, ex.correct)
		}
	}
	per := (total + len(all) - 1) / len(all)
	per += per % 2
	runs := 0
	for i, tc := range all {
		pass, fail, first := playTour(t, tc, sut[i], per, 1, false)
		runs += per
		if fail > 0 {
			t.Errorf("%s: the correct SUT got Fail in %d of %d runs: %s\n%s", tc.Name, fail, per, first.Reason, first.TraceString())
		}
		if pass != per {
			t.Errorf("%s: %d of %d runs passed", tc.Name, pass, per)
		}
	}
	t.Logf("%d runs of %d test cases, all Pass", runs, len(all))
}

// TestTourMutants: every mutant of the tank, and, with STG_LONG=1 (Fig.
// 4's tour), the Qui-Donc mutant that does not reset the counter on a
// correct entry, are caught by some instantiated test; the figures are
// logged for the README. The other Qui-Donc mutants, which need not be
// caught (third-retry plays every test to the end), play with
// STG_LONG=1; instantiate's TestQuidoncToursKillMutants requires Fig.
// 4's tour to kill every Qui-Donc mutant by default.
func TestTourMutants(t *testing.T) {
	t.Parallel()
	mustCatch := map[string]bool{
		"tank/" + tank.DrainLeavesOne.String(): true,
		"tank/" + tank.HighAt8.String():        true,
	}
	if testlong.Enabled() { // Fig. 4's tour plays (quidoncTourPurposes)
		mustCatch["quidonc/"+quidonc.NoResetOnEntry.String()] = true
	}
	for _, ex := range tourExamples() {
		tcs := tourSuite(t, ex)
		for name, newSUT := range ex.mutants {
			if !mustCatch[ex.name+"/"+name] && !testlong.Enabled() {
				continue
			}
			caughtBy := ""
			for _, tc := range tcs {
				if _, fail, _ := playTour(t, tc, newSUT, 20, 1, true); fail > 0 {
					caughtBy = tc.Name
					break
				}
			}
			key := ex.name + "/" + name
			t.Logf("%s: caught by %q", key, caughtBy)
			if mustCatch[key] && caughtBy == "" {
				t.Errorf("%s: not caught by any instantiated test", key)
			}
		}
	}
}
