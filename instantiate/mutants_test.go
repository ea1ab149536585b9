package instantiate

import (
	"context"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	account "github.com/stg-tool/stg/examples/account/sut/impl"
	quidonc "github.com/stg-tool/stg/examples/quidonc/sut/impl"
	"github.com/stg-tool/stg/internal/testlong"
	stgplay "github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
)

// play runs tc against fresh SUTs for the seeds 1..runs and returns the
// number of Fail verdicts and the first failing result.
// correctRuns are the seeded runs of each test against a correct SUT: 4
// by default, 10 with STG_LONG=1. A mutant plays up to 10, until its
// first Fail.
func correctRuns() int { return testlong.Runs(4, 10) }

func play(t *testing.T, tc *spec.Model, newSUT func() adapter.SUT, runs int, untilFail bool) (int, *runner.Result) {
	t.Helper()
	r, err := runner.New(tc, runner.Options{Depth: 8, Options: stgplay.Options{MaxSteps: 150, Timeout: 2 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	fails := 0
	var first *runner.Result
	for seed := int64(1); seed <= int64(runs); seed++ {
		res, err := stgplay.RunOnce(context.Background(), r.Engine(), adapter.GoSUT(newSUT), seed)
		if err != nil {
			t.Fatalf("%s seed %d: %v", tc.Name, seed, err)
		}
		if res.Verdict == runner.Fail {
			fails++
			if first == nil {
				first = res
			}
			if untilFail {
				break
			}
		}
	}
	return fails, first
}

// TestQuidoncToursKillMutants: with pending outputs and the completion,
// at least 7 of the 8 symbolic tests of Fig. 4's tour have an instance,
// every test (the tour's and the completion's) passes the correct
// Qui-Donc in correctRuns() seeded runs, and each bundled mutant fails some test.
func TestQuidoncToursKillMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every test against four SUTs")
	}
	_, _, su := fig4Suite(t)
	if su.Stats.Instantiated < 7 {
		t.Errorf("%d of %d symbolic tests instantiated, want at least 7", su.Stats.Instantiated, su.Stats.Symbolic)
	}
	if st := su.Stats; st.Covered != st.Feasible || len(su.Coverage.Undecided) > 0 {
		t.Errorf("covered %d of %d feasible, %d undecided", st.Covered, st.Feasible, len(su.Coverage.Undecided))
	}
	var tcs []*spec.Model
	for _, tc := range su.Testcases {
		if tc != nil {
			tcs = append(tcs, tc)
		}
	}
	for _, tc := range tcs {
		if n, first := play(t, tc, func() adapter.SUT { return quidonc.New(quidonc.Correct) }, correctRuns(), false); n > 0 {
			t.Errorf("%s: the correct SUT got Fail in %d of %d runs: %s\n%s", tc.Name, n, correctRuns(), first.Reason, first.TraceString())
		}
	}
	for _, f := range quidonc.Faults()[1:] {
		killed := ""
		for _, tc := range tcs {
			if n, _ := play(t, tc, func() adapter.SUT { return quidonc.New(f) }, 10, true); n > 0 {
				killed = tc.Name
				break
			}
		}
		if killed == "" {
			t.Errorf("%s survives the %d tests", f, len(tcs))
		} else {
			t.Logf("%s killed by %s", f, killed)
		}
	}
}

// TestAccountToursKillMutant: the account (a daily limit, deposits, a
// relational invariant): the completed tour gives test cases, all pass
// the correct SUT in correctRuns() seeded runs, and the mutant that pays beyond the
// balance fails one.
func TestAccountToursKillMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("plays every test against two SUTs")
	}
	ctx := newContext(t)
	s, tp := load(t, "../examples/account/spec.yaml", "../examples/account/purpose-limit.yaml")
	su, err := Generate(ctx, s, tp, Options{Reflexive: 2, Testcases: true})
	if err != nil {
		t.Fatal(err)
	}
	st := su.Stats
	t.Logf("%d symbolic, %d instantiated, %d extra; covered %d of %d feasible (%d transitions, %d proved infeasible within %d, %d undecided)",
		st.Symbolic, st.Instantiated, st.Extra, st.Covered, st.Feasible, st.SPTransitions, st.Infeasible, su.Coverage.Bound, len(su.Coverage.Undecided))
	var tcs []*spec.Model
	for _, tc := range su.Testcases {
		if tc != nil {
			tcs = append(tcs, tc)
		}
	}
	if len(tcs) == 0 {
		t.Fatal("no test case")
	}
	for _, tc := range tcs {
		if n, first := play(t, tc, func() adapter.SUT { return account.New(account.Correct) }, correctRuns(), false); n > 0 {
			t.Errorf("%s: the correct SUT got Fail in %d of %d runs: %s\n%s", tc.Name, n, correctRuns(), first.Reason, first.TraceString())
		}
	}
	killed := ""
	for _, tc := range tcs {
		if n, _ := play(t, tc, func() adapter.SUT { return account.New(account.PaysBeyondBalance) }, 10, true); n > 0 {
			killed = tc.Name
			break
		}
	}
	if killed == "" {
		t.Errorf("%s survives the %d tests", account.PaysBeyondBalance, len(tcs))
	}
	t.Logf("%s killed by %s", account.PaysBeyondBalance, killed)
}

// TestInsertionLooksThroughOutputs: the account's deposit moves to a
// phase where the acknowledgement is due, so no single step loops on
// the abstract state before a withdrawal; an insertion that looks
// through outputs (deposit? then ack!) does. Without outputs in
// insertions (Pending < 0) the tour's second test has no instance.
func TestInsertionLooksThroughOutputs(t *testing.T) {
	ctx := newContext(t)
	s, tp := load(t, "../examples/account/spec.yaml", "../examples/account/purpose-limit.yaml")
	through, err := Generate(ctx, s, tp, Options{Reflexive: 2, TourOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	single, err := Generate(ctx, s, tp, Options{Reflexive: 2, TourOnly: true, Pending: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("instantiated: %d of %d looking through outputs, %d without", through.Stats.Instantiated, through.Stats.Symbolic, single.Stats.Instantiated)
	if through.Stats.Instantiated != through.Stats.Symbolic || single.Stats.Instantiated >= through.Stats.Instantiated {
		t.Errorf("instantiated: %d of %d looking through outputs, %d without; want all, and fewer without",
			through.Stats.Instantiated, through.Stats.Symbolic, single.Stats.Instantiated)
	}
	insertedOutput := false
	for _, inst := range through.Instances {
		for _, st := range inst.Steps {
			insertedOutput = insertedOutput || st.Reflexive && !st.Input
		}
	}
	if !insertedOutput {
		t.Error("no inserted output")
	}
}
