package pipeline

import (
	"testing"

	"github.com/stg-tool/stg/internal/exampletest"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// TestMemoSameTestcases generates every example's test cases (and a
// small ring of issue 15's family) twice, with the solver's memo and
// without, and checks with Z3 that they are the same (sameTestcase). The
// default run takes every third purpose, in one of the two domains in
// turn; STG_LONG=1 all of them in both.
func TestMemoSameTestcases(t *testing.T) {
	type pair struct {
		name  string
		s, tp *spec.Model
	}
	var pairs []pair
	for _, ex := range testlong.Pick(examples(t), func(i int, _ exampletest.Pair) bool { return i%3 == 0 }) {
		s, err := specfile.LoadFile(ex.Spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		tp, err := specfile.LoadFile(ex.Purpose, s)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pair{ex.Name, s, tp})
	}
	s, tp := ring2(t, 12)
	pairs = append(pairs, pair{"ring2/12", s, tp})
	oracle := newContext(t)
	oracle.SetMemo(false)
	progress := testlong.NewProgress(t, "purposes", len(pairs))
	for i, p := range pairs {
		progress.Add(1)
		for d, domain := range []string{"none", "polyhedra"} {
			if !testlong.Enabled() && (i+d)%2 != 0 {
				continue
			}
			with, without := newContext(t), newContext(t)
			with.SetTimeout(DefaultQueryTimeout)
			without.SetTimeout(DefaultQueryTimeout)
			without.SetMemo(false)
			a, err := Models(with, p.s, p.tp, Options{Domain: domain})
			if err != nil {
				t.Fatalf("%s/%s with the memo: %v", p.name, domain, err)
			}
			b, err := Models(without, p.s, p.tp, Options{Domain: domain})
			if err != nil {
				t.Fatalf("%s/%s without: %v", p.name, domain, err)
			}
			if st := with.Stats(); st.Hits == 0 {
				t.Errorf("%s/%s: the memo answered nothing: %+v", p.name, domain, st)
			}
			sameTestcase(t, oracle, p.name+"/"+domain, a, b)
		}
	}
}

// sameTestcase compares two test cases of one product as transition
// systems on the reachable states: for every source, action, target and
// assignment, the disjunction of the guards, within reach(source), must
// be equivalent. (Z3 may give back equivalent guards in other forms
// depending on its history, and a guard's form decides whether the
// selection keeps the relative or the exact form of a group, which
// differ only outside reach(source).)
func sameTestcase(t *testing.T, ctx *solver.Context, name string, a, b *Result) {
	t.Helper()
	type key struct{ from, action, to, assign string }
	collect := func(tc *spec.Model) (map[key][]expr.Expr, map[string]bool) {
		m, locs := map[key][]expr.Expr{}, map[string]bool{}
		for _, l := range tc.Locations {
			locs[l] = true
		}
		for _, tr := range tc.Transitions {
			k := key{tr.From, tr.Action, tr.To, assignText(tr)}
			m[k] = append(m[k], tr.Guard)
		}
		return m, locs
	}
	ga, la := collect(a.Testcase)
	gb, lb := collect(b.Testcase)
	keys := map[key]bool{}
	for k := range ga {
		keys[k] = true
	}
	for k := range gb {
		keys[k] = true
	}
	for k := range keys {
		if !la[k.from] || !lb[k.from] {
			continue // a source only one test case can reach: compared through its entry
		}
		reach := a.Analysis.ReachOf(k.from)
		x := expr.AndOf(reach, expr.OrOf(ga[k]...))
		y := expr.AndOf(reach, expr.OrOf(gb[k]...))
		if ok, err := ctx.Equivalent(x, y); err != nil || !ok {
			t.Errorf("%s: %s -%s-> %s {%s}: %s with the memo, %s without (equivalent within reach: %v, %v)",
				name, k.from, k.action, k.to, k.assign, expr.Format(expr.OrOf(ga[k]...)), expr.Format(expr.OrOf(gb[k]...)), ok, err)
		}
	}
}

func assignText(t *spec.Transition) string {
	s := ""
	for _, a := range t.Assign {
		s += a.Var + ":=" + expr.Format(a.Value) + ";"
	}
	return s
}
