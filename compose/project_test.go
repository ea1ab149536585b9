package compose

import (
	"testing"
)

// TestProjectionUnique: for every transition of the slot machine and
// every sub-system, at most one transition of the sub-system fits Def 9
// (o' = o or ε, i' ⊆ i, from the restricted source) with i' maximal,
// and Project finds it; the system itself projects to itself.
func TestProjectionUnique(t *testing.T) {
	_, g := build(t, "../examples/slot/system.yaml")
	subs := g.Subsystems()
	if len(subs) != 4 {
		t.Fatalf("SubS has %d systems, want 4 (Hide, Int * SM, Int, SM)", len(subs))
	}
	moves := 0
	for _, tr := range g.Transitions {
		if p := g.Project(tr, g); p != tr {
			t.Errorf("%s does not project to itself", tr)
		}
		for _, sub := range subs {
			p := g.Project(tr, sub)
			cands := fits(g, tr, sub)
			switch {
			case p == nil && len(cands) > 0:
				t.Errorf("%s on %s: none found, %d fit", tr.Name, sub, len(cands))
			case p != nil && (len(cands) != 1 || cands[0] != p):
				t.Errorf("%s on %s: %v, fitting %v", tr.Name, sub, p, cands)
			case p != nil:
				moves++
			}
		}
	}
	if moves == 0 {
		t.Fatal("no projection")
	}
}

// fits returns the transitions of sub that fit Def 9 for tr with a
// maximal input set.
func fits(g *System, tr *Transition, sub *System) []*Transition {
	off := 0
	for g.Leaves[off] != sub.Leaves[0] {
		off++
	}
	from := tr.From[off : off+len(sub.Leaves)].key()
	in := map[string]bool{}
	for _, i := range tr.Name.In {
		in[i] = true
	}
	var best []*Transition
	size := -1
	for _, u := range sub.Transitions {
		if u.From.key() != from || (u.Name.Out != "" && u.Name.Out != tr.Name.Out) {
			continue
		}
		sub := true
		for _, i := range u.Name.In {
			sub = sub && in[i]
		}
		if !sub || (u.Name.Out == "" && len(u.Name.In) == 0) {
			continue
		}
		k := len(u.Name.In)
		if u.Name.Out != "" {
			k += 1000
		}
		switch {
		case k > size:
			best, size = []*Transition{u}, k
		case k == size:
			best = append(best, u)
		}
	}
	return best
}

// TestProjectSlot: the examples of the paper's naming: a transition of
// Int alone projects to nothing on SM; a synchronisation projects on
// both sides.
func TestProjectSlot(t *testing.T) {
	_, g := build(t, "../examples/slot/system.yaml")
	sm, in := g.Sub("SM"), g.Sub("Int")
	if sm == nil || in == nil || g.Sub("Int * SM") == nil {
		t.Fatal("missing sub-systems")
	}
	tests := []struct {
		tr, onSM, onInt string
	}{
		{"Int.i_refuse", "", "Int.i_refuse"},
		{"Int.i_pay", "", "Int.i_pay"},
		{"{Int.i_bet}", "", "{Int.i_bet}"},
		{"SM.s_pay+{Int.i_cash}", "SM.s_pay", "{Int.i_cash}"},
		{"Int.i_forward+{SM.s_bet}", "{SM.s_bet}", "Int.i_forward"},
	}
	for _, tt := range tests {
		n, _ := ParseName(tt.tr)
		var tr *Transition
		for _, u := range g.Transitions {
			if u.Name.Equal(n) {
				tr = u
			}
		}
		if tr == nil {
			t.Fatalf("no transition %s", tt.tr)
		}
		for _, c := range []struct {
			sub  *System
			want string
		}{{sm, tt.onSM}, {in, tt.onInt}} {
			p := g.Project(tr, c.sub)
			got := ""
			if p != nil {
				got = p.Name.String()
			}
			if got != c.want {
				t.Errorf("%s on %s = %q, want %q", tt.tr, c.sub, got, c.want)
			}
		}
	}
}
