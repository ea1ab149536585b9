package summary

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// TestSolveTabProperties checks SolveTab on random tables of INTGR and
// random predicates ψ over its result I and inputs, with brute force over
// the rows as the oracle:
//
//   - m = 0: a solution exists iff some row satisfies ψ, and a solution
//     found is such a row; the tables do not change;
//   - m > 0: the rows only grow, by at most one per attempt (κ has one
//     call), every new row is the implementation's, and a solution is a
//     row satisfying ψ.
func TestSolveTabProperties(t *testing.T) {
	z := newContext(t)
	rng := rand.New(rand.NewSource(1))
	impl := func(f *expr.Func, args []expr.Value) (expr.Value, error) {
		s := new(big.Int).Add(args[0].Int, new(big.Int).Mul(big.NewInt(3), args[1].Int))
		return expr.IntValue(s), nil
	}
	ops := []string{"<", "<=", ">", ">=", "==", "!="}
	for i := 0; i < 150; i++ {
		tab := Tab{}
		for n := rng.Intn(4); n > 0; n-- {
			a, b := int64(rng.Intn(10)), int64(rng.Intn(10))
			tab.Add(intgr, []expr.Value{ival(a), ival(b)}, ival(int64(rng.Intn(40))))
		}
		src := fmt.Sprintf("I %s %d && m1 %s %d", ops[rng.Intn(len(ops))], rng.Intn(40), ops[rng.Intn(len(ops))], rng.Intn(10))
		psi := parse(t, src)
		m := rng.Intn(3)
		before := tab.Clone()
		cl1, _ := calls()
		res, err := SolveTab(z, psi, []*Call{cl1}, tab, Options{M: m, Exec: impl})
		if err != nil {
			t.Fatal(err)
		}
		// The oracle: the rows satisfying ψ.
		holds := func(r expr.TableRow) bool {
			ok, err := expr.EvalBool(psi, expr.Valuation{Vars: map[string]expr.Value{"I": r.Result, "m1": r.Args[0], "m2": r.Args[1]}})
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		some := false
		for _, r := range tab["INTGR"] {
			some = some || holds(r)
		}
		if res.Unknown {
			continue
		}
		if res.Found != some {
			t.Errorf("%s, m = %d, rows %v: found %v, oracle %v", src, m, tab["INTGR"], res.Found, some)
		}
		if res.Found {
			row := expr.TableRow{Args: []expr.Value{res.Sol.Vars["m1"], res.Sol.Vars["m2"]}, Result: res.Sol.Vars["I"]}
			if v, ok := tab.Lookup("INTGR", row.Args); !ok || !v.Equal(row.Result) || !holds(row) {
				t.Errorf("%s: solution %v is not a row satisfying ψ", src, res.Sol.Vars)
			}
		}
		grown := len(tab["INTGR"]) - len(before["INTGR"])
		if grown < 0 || grown > res.Attempts || res.Attempts > m || (m == 0 && grown != 0) {
			t.Errorf("%s, m = %d: %d rows added in %d attempts", src, m, grown, res.Attempts)
		}
		for _, r := range tab["INTGR"][len(before["INTGR"]):] {
			if want, _ := impl(intgr, r.Args); !want.Equal(r.Result) {
				t.Errorf("row %v is not the implementation's", r)
			}
		}
	}
}
