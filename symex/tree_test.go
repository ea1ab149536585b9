package symex

import (
	"slices"
	"testing"
	"time"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
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
	m, err := specfile.LoadFile("testdata/"+name, nil)
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
	got.Queries, got.Inclusion = 0, InclusionStats{}
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

// TestATMLength2 is Fig. 4 and Example 4: the 1-inclusion purpose of the
// ATM is TG_2, with 18 nodes, 10 accept, 7 skip and 1 ⊥ (the quiescence
// at length 1, by the literal reading of Def. 18).
func TestATMLength2(t *testing.T) {
	z := newContext(t)
	e, err := NewExecutor(z, loadSpec(t, "atm-paper.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.KInclusion(1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Stats(), (PurposeStats{Nodes: 18, Accept: 10, Skip: 7, Bottom: 1}); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
	var got []string
	for _, a := range p.Accept {
		got = append(got, a.PathString())
	}
	slices.Sort(got)
	want := []string{"[ask, cash]", "[ask, cashFee]", "[ask, noMoney]", "[check, sum]", "[deposit, ask, cash]",
		"[deposit, ask, cashFee]", "[deposit, ask, noMoney]", "[deposit, check, sum]", "[deposit, deposit, delta]", "[deposit, delta]"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("accept paths\n got %v\nwant %v", got, want)
	}
	if n := len(p.Split()); n != 10 {
		t.Errorf("split: %d purposes, want 10", n)
	}
	if p.Criterion != "k-inclusion 1 (length 2)" {
		t.Errorf("criterion %q", p.Criterion)
	}
}

// TestInclusion checks Def. 10 on the ATM's nodes (SEEDS.md §1(d) item 6).
func TestInclusion(t *testing.T) {
	z := newContext(t)
	e, err := NewExecutor(z, loadSpec(t, "atm-paper.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	root, err := e.Root()
	if err != nil {
		t.Fatal(err)
	}
	node := func(path ...string) *Node {
		n, err := e.FindPath(root, path)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	eta1, eta3, eta4 := node("ask"), node("deposit"), node("ask", "cash")
	for _, tt := range []struct {
		name string
		a, b *Node
		want bool
	}{
		{"η4 ⊆ init", eta4, root, true},
		{"η3 ⊆ init", eta3, root, true},
		{"init ⊄ η4 (π0 constrains m)", root, eta4, false},
		{"η1 ⊄ η4 (another location)", eta1, eta4, false},
		{"init ⊆ init", root, root, true},
		{"init ⊄ η3 (cp = 0 there)", root, eta3, false},
	} {
		got, err := Included(z, tt.a.State, tt.b.State)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("%s: got %v", tt.name, got)
		}
	}
	if _, err := e.FindPath(root, []string{"ask", "sum"}); err == nil {
		t.Error("FindPath [ask, sum]: no error")
	}
}

// TestUndecidedKept: a child whose path condition the solver cannot
// decide is kept (sound), marked and counted.
func TestUndecidedKept(t *testing.T) {
	z := newContext(t)
	z.SetTimeout(300 * time.Millisecond)
	tr := execute(t, z, loadSpec(t, "cubes.yaml"), Options{Depth: 2})
	var out *Node
	for _, n := range tr.Nodes {
		if n.Name == "out" {
			out = n
		}
	}
	if out == nil || !out.Unknown || tr.Stats.Undecided != 1 {
		t.Errorf("out node %+v, undecided %d: want it kept, marked and counted", out, tr.Stats.Undecided)
	}
}
