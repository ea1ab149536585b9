package online

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/atm-paper/sut/impl"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec/expr"
)

// atm is an in-process implementation of the paper's ATM (Fig. 1),
// starting from the attribute values m0 and cp0 (the spec leaves them
// free), with an optional fault.
type atm struct {
	x, m, cp int64
	noFee    bool // the cashFee branch withdraws x without the fee
}

func (a *atm) Input(action string, args map[string]expr.Value) ([]adapter.Output, error) {
	switch action {
	case "amount":
		a.x = args["v"].Int.Int64()
		a.cp++
		if a.cp > 2 || a.x > a.m {
			return []adapter.Output{{Action: "screen", Args: map[string]any{"msg": "no_money"}}}, nil
		}
		fee := a.m < 1000 && !a.noFee
		a.m -= a.x
		if fee {
			a.m--
		}
		return []adapter.Output{{Action: "cash", Args: map[string]any{"v": a.x}}}, nil
	case "deposit":
		a.m += args["v"].Int.Int64()
		a.cp = 0
		return nil, nil
	case "check":
		return []adapter.Output{{Action: "sum", Args: map[string]any{"v": big.NewInt(a.m)}}}, nil
	}
	return nil, fmt.Errorf("unknown input %s", action)
}

// TestSoundness is Theorem 1 on the ATM (SEEDS.md §1(d) item 7): 1,000
// seeded on-line runs of a correct ATM, over every purpose of
// atmPurposes and initial balances and counters on both sides of the
// fee and withdrawal limits, never give Fail. In process: quiescence is
// exact, no timer is involved.
func TestSoundness(t *testing.T) {
	runs := testlong.Runs(100, 1000) // all 1,000 with STG_LONG=1
	if testing.Short() {
		runs = 200
	}
	testers := atmTesters(t)
	runners := make([]*Runner, len(testers))
	for i, tr := range testers {
		runners[i] = NewRunner(tr, Options{})
	}
	inits := []struct{ m, cp int64 }{{0, 0}, {500, 0}, {999, 1}, {1000, 0}, {1500, 2}, {-20, 0}, {3000, 3}}
	count := map[Verdict]int{}
	for seed := int64(0); seed < int64(runs); seed++ {
		init := inits[seed%int64(len(inits))]
		r := runners[seed%int64(len(runners))]
		res, err := r.Run(context.Background(), adapter.InProcess(&atm{m: init.m, cp: init.cp}), seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		count[res.Verdict]++
		if res.Verdict == Fail {
			t.Errorf("seed %d, purpose %s, m0=%d cp0=%d: Fail (%s)\n%s", seed, r.t.tp.AcceptPaths(), init.m, init.cp, res.Reason, traceOf(res))
		}
	}
	t.Logf("%d runs: %v", runs, count)
	if count[Pass] == 0 || count[WeakPass] == 0 || count[Inconc] == 0 {
		t.Errorf("verdicts %v: want some Pass, WeakPass and Inconc", count)
	}
}

func traceOf(res *Result) string {
	s := ""
	for _, st := range Steps(res) {
		s += fmt.Sprintf("  %s: %s\n", st.Event, st.Rule)
	}
	return s
}

// TestMutantNoFee: an ATM that does not charge the fee below 1000 gets
// Fail under the purpose [check, sum, ask, cashFee, check, sum], which
// reads the balance before and after a withdrawal.
func TestMutantNoFee(t *testing.T) {
	tr := newTester(t, "check sum ask cashFee check sum")
	r := NewRunner(tr, Options{})
	fails := 0
	for seed := int64(0); seed < 20; seed++ {
		res, err := r.Run(context.Background(), adapter.InProcess(&atm{m: 500, noFee: true}), seed)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict == Fail {
			fails++
		}
		// The correct ATM from the same state passes.
		ok, err := r.Run(context.Background(), adapter.InProcess(&atm{m: 500}), seed)
		if err != nil {
			t.Fatal(err)
		}
		if ok.Verdict == Fail {
			t.Errorf("seed %d: correct ATM: Fail (%s)\n%s", seed, ok.Reason, traceOf(ok))
		}
	}
	if fails == 0 {
		t.Errorf("the no-fee mutant never failed in 20 runs")
	}
	t.Logf("no-fee mutant: %d/20 Fail", fails)
}

// TestRunReplays: the trace of an on-line run, replayed, gives the
// same rules and verdict.
func TestRunReplays(t *testing.T) {
	for _, accept := range atmPurposes {
		tr := newTester(t, accept...)
		r := NewRunner(tr, Options{})
		for seed := int64(0); seed < 5; seed++ {
			res, err := r.Run(context.Background(), adapter.InProcess(&atm{m: 900}), seed)
			if err != nil {
				t.Fatal(err)
			}
			var evs []Event
			for _, te := range play.TraceEvents(res.Trace) {
				ev, err := EventOf(tr.tp.x.Spec(), te)
				if err != nil {
					t.Fatal(err)
				}
				evs = append(evs, ev)
			}
			steps, err := tr.Replay(evs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(steps) != len(Steps(res)) || steps[len(steps)-1].Verdict != res.Verdict {
				t.Errorf("%v seed %d: run %s in %d steps, replay %s in %d", accept, seed, res.Verdict, len(Steps(res)), steps[len(steps)-1].Verdict, len(steps))
			}
		}
	}
}

// TestMutantsImpl plays the reference ATM of examples/atm-paper and its
// mutants in process, under purposes that read the balance around a
// withdrawal or withdraw three times: the reference never gets Fail,
// every mutant does (SEEDS.md §1(d) item 7).
func TestMutantsImpl(t *testing.T) {
	purposes := [][]string{
		{"deposit ask cash"},
		{"check sum ask cash check sum"},
		{"check sum ask cashFee check sum"},
		{"check sum deposit ask cash ask cash ask noMoney"},
	}
	testers := make([]*Runner, len(purposes))
	for i, p := range purposes {
		testers[i] = NewRunner(newTester(t, p...), Options{})
	}
	seeds := int64(testlong.Runs(4, 10)) // as -short; every seed with STG_LONG=1
	if testing.Short() {
		seeds = 4
	}
	for _, f := range impl.Faults() {
		fails := 0
		for i, r := range testers {
			for _, m0 := range []int64{500, 1000, 2000} {
				for seed := int64(0); seed < seeds; seed++ {
					res, err := r.Run(context.Background(), adapter.InProcess(impl.NewAt(f, impl.Initial{M: big.NewInt(m0)})), seed)
					if err != nil {
						t.Fatalf("%s, %v, m0=%d, seed %d: %v", f, purposes[i], m0, seed, err)
					}
					if res.Verdict == Fail {
						fails++
						if f == impl.Correct {
							t.Errorf("%s, %v, m0=%d, seed %d: Fail (%s)\n%s", f, purposes[i], m0, seed, res.Reason, traceOf(res))
						}
					}
				}
			}
		}
		if f != impl.Correct && fails == 0 {
			t.Errorf("%s never failed", f)
		}
		t.Logf("%s: %d Fail in %d runs", f, fails, int64(len(testers)*3)*seeds)
	}
}
