package symex

import (
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/spec/specfile"
)

// TestShapeQuestionsAgree is the property test of the questions asked of
// shapes (literals set apart, ground comparisons folded, groups of
// forgotten symbols dropped, symbols renamed, answers memoized) with Z3
// as the oracle: on the trees of the examples, for every pair c, b of
// nodes at one location, b before c and not known apart, the inclusion
// decided on their shapes is the one Included decides on the states.
func TestShapeQuestionsAgree(t *testing.T) {
	z := newContext(t)
	for _, ex := range []string{"atm-paper", "atm", "buffer", "jobs", "retry", "tank", "vending"} {
		m, err := specfile.LoadFile(filepath.Join("..", "examples", ex, "spec.yaml"), nil)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewExecutor(z, m, Options{Depth: 7, MaxNodes: 200})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := e.Execute(nil)
		if err != nil {
			t.Fatal(err)
		}
		x := newInclusionIndex()
		pairs, memo, included := 0, 0, 0
		for i, c := range tr.Nodes {
			csh := shapeOf(c.State, x.conjs)
			for _, bn := range tr.Nodes[:i] {
				if bn.State.Loc != c.State.Loc || bn.Unknown || knownApart(c.State, bn.State) || pairs >= 600 {
					continue
				}
				pairs++
				want, err := Included(z, c.State, bn.State)
				if err != nil {
					t.Fatal(err)
				}
				b := &candidate{n: bn, iv: intervals(bn.State), sh: shapeOf(bn.State, x.conjs)}
				if err := e.eliminate(b, x); err != nil || b.noQ {
					t.Fatalf("%s: %s: no elimination (%v)", ex, bn.PathString(), err)
				}
				before := x.Memo
				got, err := e.included(csh, b, x)
				if err != nil {
					t.Fatal(err)
				}
				if x.Memo > before {
					memo++
				}
				if want {
					included++
				}
				if got != want {
					t.Errorf("%s: %s ⊆ %s: on shapes %v, on states %v\nc: %s\nb: %s", ex, c.PathString(), bn.PathString(), got, want, csh.key, b.sh.key)
				}
			}
		}
		t.Logf("%s: %d pairs (%d included), %d answered from the memo", ex, pairs, included, memo)
	}
}
