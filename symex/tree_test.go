package symex

import (
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

func newContext(t testing.TB) *solver.Context {
	t.Helper()
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(z.Close)
	return z
}

func loadSpec(t testing.TB, name string) *spec.Model {
	t.Helper()
	m, err := spec.LoadFile("testdata/"+name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func execute(t testing.TB, z *solver.Context, m *spec.Model, opts Options) *Tree {
	t.Helper()
	e, err := NewExecutor(z, m, opts)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := e.Execute(nil)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestATMInclusion is Fig. 2 of the AGATHA paper: the tree of the ATM
// restricted by inclusion has 9 states, 8 transitions, 5 leaves cut by
// inclusion and a longest path of 2.
func TestATMInclusion(t *testing.T) {
	z := newContext(t)
	tr := execute(t, z, loadSpec(t, "atm-paper.yaml"), Options{Inclusion: true})
	want := Stats{Nodes: 9, Transitions: 8, CutByInclusion: 5, LongestPath: 2}
	got := tr.Stats
	got.Queries = 0
	if got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
	cut := map[string]bool{}
	for _, n := range tr.Nodes {
		if n.CutBy != nil {
			cut[n.PathString()] = true
			if n.CutBy != tr.Root {
				t.Errorf("%s cut by %s, want the root", n.PathString(), n.CutBy.PathString())
			}
		}
	}
	for _, p := range []string{"[deposit]", "[ask, cash]", "[ask, cashFee]", "[ask, noMoney]", "[check, sum]"} {
		if !cut[p] {
			t.Errorf("%s not cut by inclusion (cut: %v)", p, cut)
		}
	}
}
