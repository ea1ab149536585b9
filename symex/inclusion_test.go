package symex

import (
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/spec/specfile"
)

// TestInclusionPruningSound is the property test of the pruned
// comparison against the unpruned check (Included: QE of b's symbols
// by the solver, then one query) with Z3 as the oracle: on the trees of
// the examples (at most 150 nodes), for every pair c, b of nodes at one
// location with b before c, a comparison the pruning skips (literals,
// intervals, b's projection at a point of c) is one Included rejects,
// and where the pruned path decides, it agrees with Included.
func TestInclusionPruningSound(t *testing.T) {
	z := newContext(t)
	for _, ex := range []string{"atm-paper", "atm", "buffer", "jobs", "retry", "tank", "vending"} {
		m, err := specfile.LoadFile(filepath.Join("..", "examples", ex, "spec.yaml"), nil)
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewExecutor(z, m, Options{Depth: 6, MaxNodes: 150})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := e.Execute(nil)
		if err != nil {
			t.Fatal(err)
		}
		pairs, skipped := 0, 0
		for i, c := range tr.Nodes {
			p := e.point(c, c.State)
			for _, bn := range tr.Nodes[:i] {
				if bn.State.Loc != c.State.Loc || bn.Unknown || pairs >= 400 {
					continue
				}
				pairs++
				want, err := Included(z, c.State, bn.State)
				if err != nil {
					t.Fatal(err)
				}
				b := &candidate{n: bn, iv: intervals(bn.State)}
				skip := knownApart(c.State, bn.State) || (p != nil && !b.ivAdmits(p))
				q, err := eliminated(z, bn.State)
				if err != nil || q == nil {
					t.Fatalf("%s: %s: no elimination (%v)", ex, bn.PathString(), err)
				}
				skip = skip || (p != nil && !admits(q, p))
				if skip {
					skipped++
					if want {
						t.Errorf("%s: %s ⊆ %s, but the pruning skips it", ex, c.PathString(), bn.PathString())
					}
					continue
				}
				got, err := includedIn(z, c.State, q)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s: %s ⊆ %s: pruned check %v, unpruned %v", ex, c.PathString(), bn.PathString(), got, want)
				}
			}
		}
		t.Logf("%s: %d pairs, %d skipped", ex, pairs, skipped)
	}
}
