package runner

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec/expr"
)

// sqSUT answers in(p) with out(p*p + 1), or out(p*p) when off.
func sqSUT(off bool) adapter.SUT {
	return adapter.SUTFunc(func(action string, args map[string]expr.Value) ([]adapter.Output, error) {
		p := args["p"].Int
		q := new(big.Int).Mul(p, p)
		if !off {
			q.Add(q, big.NewInt(1))
		}
		return []adapter.Output{{Action: "out", Args: map[string]any{"q": q}}}, nil
	})
}

// square is SQ's Go implementation; it counts its calls.
func square(calls *int) extfunc.GoFunc {
	return func(a []expr.Value) (expr.Value, error) {
		*calls++
		return expr.IntValue(new(big.Int).Mul(a[0].Int, a[0].Int)), nil
	}
}

// TestCalls: a test case whose send guard and assignment call an
// external function runs: the values sent satisfy the guard with the
// function's real values, the correct SUT passes and the mutant fails,
// with or without planning.
func TestCalls(t *testing.T) {
	tc := loadTestcase(t, "calls.yaml")
	funcs, err := extfunc.New(tc.Funcs, extfunc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	funcs.Register("SQ", square(&calls))
	inconc := 0
	for _, depth := range []int{0, DefaultDepth} {
		r, err := New(tc, Options{Depth: depth, Funcs: funcs})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for seed := int64(1); seed <= 30; seed++ {
			for _, off := range []bool{false, true} {
				res := runInProcess(t, r, sqSUT(off), seed)
				want := Pass
				if off {
					want = Fail
				}
				if res.Verdict == Inconc && strings.Contains(res.Reason, "quiescence") && !off {
					inconc++ // no value found: allowed, never Fail
					continue
				}
				if res.Verdict != want {
					t.Fatalf("depth %d seed %d off %v: %s (%s)\n%s", depth, seed, off, res.Verdict, res.Reason, res.TraceString())
				}
				p := res.Trace[0].Args[0].Value.Int
				if p.Cmp(big.NewInt(100)) >= 0 || new(big.Int).Mul(p, p).Cmp(big.NewInt(50)) <= 0 {
					t.Errorf("seed %d: sent p = %s, which SQ(p) > 50 && p < 100 refuses", seed, p)
				}
			}
		}
	}
	if calls == 0 {
		t.Error("the implementation was never called")
	}
	if inconc > 6 {
		t.Errorf("%d runs of 60 found no value to send", inconc)
	}
}

// TestCallErrors: a call the tester cannot evaluate is an error of the
// run naming the call, never a verdict.
func TestCallErrors(t *testing.T) {
	tc := loadTestcase(t, "calls.yaml")
	funcs, err := extfunc.New(tc.Funcs, extfunc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	funcs.Register("SQ", func([]expr.Value) (expr.Value, error) { return expr.Value{}, errors.New("library not loaded") })
	r, err := New(tc, Options{Depth: 0, Funcs: funcs})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for seed := int64(1); seed <= 5; seed++ {
		res, err := r.Run(context.Background(), adapter.InProcess(sqSUT(false)), seed)
		if err == nil || !strings.Contains(err.Error(), "SQ(") || !strings.Contains(err.Error(), "library not loaded") {
			t.Errorf("seed %d: %v, %v", seed, res, err)
		}
	}
}

// TestCallsSteeredByTable: Pass needs H(x) == 77, which only the table
// row H(5) = 77 makes known (the implementation is H(x) = x*x): planning
// picks p = 5 from the row in most runs, where a blind choice would
// almost never reach Pass.
func TestCallsSteeredByTable(t *testing.T) {
	tc := loadTestcase(t, "calls-table.yaml")
	funcs, err := extfunc.New(tc.Funcs, extfunc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	funcs.Register("H", square(&calls))
	r, err := New(tc, Options{Depth: DefaultDepth, Funcs: funcs})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// The SUT answers 1 when x*x == 77 or x == 5 (the table's H), else 0.
	sut := adapter.SUTFunc(func(action string, args map[string]expr.Value) ([]adapter.Output, error) {
		q := 0
		if args["p"].Int.Int64() == 5 {
			q = 1
		}
		return []adapter.Output{{Action: "out", Args: map[string]any{"q": q}}}, nil
	})
	pass := 0
	for seed := int64(1); seed <= 40; seed++ {
		res := runInProcess(t, r, sut, seed)
		if res.Verdict == Fail {
			t.Fatalf("seed %d: Fail\n%s", seed, res.TraceString())
		}
		if res.Verdict == Pass {
			pass++
		}
	}
	if pass < 30 {
		t.Errorf("%d runs of 40 passed: planning did not use the table", pass)
	}
}
