package online

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// The accept paths of TG_2 on the ATM (SEEDS.md §1(d) item 2), and
// longer ones, each a purpose of its own; "path | constraint" gives the
// accept node an external constraint.
var atmPurposes = [][]string{
	{"ask cash"}, {"ask cashFee"}, {"ask noMoney"}, {"check sum"}, {"deposit delta"},
	{"deposit ask cash"}, {"deposit ask cashFee"}, {"deposit ask noMoney"}, {"deposit check sum"}, {"deposit deposit delta"},
	{"check sum ask cashFee check sum"}, {"check sum ask cash", "deposit ask noMoney"},
	// With external constraints (component-systems paper, Def 10): on
	// the output into the accept node (its twin is ⊥), on inputs before.
	{"deposit ask cash | deposit.v >= 1000 && cash.v < 300"}, {"check sum | sum.v > 100"},
	{"ask cashFee | cashFee.v > 10", "deposit ask noMoney | deposit.v < 0"},
}

// TestRulesExclusiveExhaustive plays random events on the ATM, for
// random purposes, and checks at every step that (a) Next, NextSkip and
// NextPass are those of Defs. 15-17, computed independently with Z3 on
// the formulas f' ∧ π(s') and f' ∧ targetCond(s') as the paper writes
// them, and (b) for an observation exactly one of the conditions of
// rules 1-5 holds, and it is the rule applied; for a stimulation, rule
// 6 applies iff NextSkip is not empty.
func TestRulesExclusiveExhaustive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	steps := 3000
	if testing.Short() {
		steps = 300
	}
	testers := atmTesters(t)
	var tr *Tester
	var sc []Context
	counts := map[Rule]int{}
	for i := 0; i < steps; i++ {
		if sc == nil {
			tr = testers[rng.IntN(len(testers))]
			var err error
			if sc, err = tr.Start(); err != nil {
				t.Fatal(err)
			}
		}
		ev := randomEvent(t, tr, sc, rng)
		st, err := tr.Apply(sc, ev)
		if err != nil {
			t.Fatal(err)
		}
		counts[st.Rule]++
		checkStep(t, tr, sc, st)
		sc = st.SC
		if st.Verdict != None || len(sc) == 0 {
			sc = nil
		}
	}
	t.Logf("rules applied: %v", counts)
	for _, r := range []Rule{1, 2, 3, 4, 5, 6} {
		if counts[r] == 0 {
			t.Errorf("rule %d never applied: the random traces are too narrow", r)
		}
	}
}

// atmTesters returns a tester per purpose of atmPurposes, all on one
// symbolic execution of the ATM.
func atmTesters(t testing.TB) []*Tester {
	t.Helper()
	first := newTester(t, atmPurposes[0]...)
	ts := []*Tester{first}
	for _, accept := range atmPurposes[1:] {
		sp := &spec.SymPurpose{Name: "test", Spec: "atm-paper.yaml"}
		for _, a := range accept {
			sp.Accept = append(sp.Accept, acceptPath(a))
		}
		tp, err := NewPurpose(first.tp.x, sp)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, NewTester(first.z, tp))
	}
	return ts
}

// checkStep compares st with the oracle.
func checkStep(t *testing.T, tr *Tester, sc []Context, st *Step) {
	t.Helper()
	next, skip, pass := oracle(t, tr, sc, st.Event)
	for _, c := range []struct {
		name      string
		got, want []Context
	}{{"Next", st.Next, next}, {"NextSkip", st.NextSkip, skip}, {"NextPass", st.NextPass, pass}} {
		if paths(c.got) != paths(c.want) {
			t.Fatalf("%s(%s, %s) = %s, oracle says %s", c.name, st.Event, setString(sc), paths(c.got), paths(c.want))
		}
	}
	sub := func(a, b []Context) bool { // a ⊊ b, both subsets of Next
		return len(a) < len(b)
	}
	if st.Event.Stim {
		if (st.Rule == 6) != (len(skip) > 0) {
			t.Fatalf("stim %s: %s with NextSkip %s", st.Event, st.Rule, paths(skip))
		}
		return
	}
	conds := []bool{
		len(skip) > 0 && len(pass) == 0,                   // rule 1
		len(next) == 0,                                    // rule 2
		len(next) > 0 && len(skip) == 0 && len(pass) == 0, // rule 3
		len(next) > 0 && len(pass) == len(next),           // rule 4: NextPass ⊆ Next
		len(pass) > 0 && sub(pass, next),                  // rule 5
	}
	var hold []Rule
	for i, ok := range conds {
		if ok {
			hold = append(hold, Rule(i+1))
		}
	}
	if len(hold) != 1 || hold[0] != st.Rule {
		t.Fatalf("obs %s after %s: conditions of rules %v hold, engine applied %s", st.Event, setString(sc), hold, st.Rule)
	}
}

// oracle computes Next, NextSkip and NextPass by Defs. 15 and 17
// literally: one Z3 query of f' ∧ π(s') and of f' ∧ targetCond(s') per
// candidate, f' written as the conjunction of equalities.
func oracle(t *testing.T, tr *Tester, sc []Context, ev Event) (next, skip, pass []Context) {
	t.Helper()
	z := tr.z
	isSat := func(e expr.Expr) bool {
		r, err := z.Sat(e)
		if err != nil {
			t.Fatal(err)
		}
		return r == solver.Sat
	}
	for _, c := range sc {
		for _, n := range c.Node.Children {
			if n.Action == nil || n.Action.Name != ev.Action || ev.Bad != "" || (n.Action.Dir == spec.Input) != ev.Stim || n.Action.Dir == spec.Internal {
				continue
			}
			eqs := []expr.Expr{c.F()}
			vals := map[string]expr.Value{}
			for k, v := range c.Values {
				vals[k] = v
			}
			for i, p := range n.Action.Params {
				eqs = append(eqs, expr.Compare(expr.Eq, n.Args[i], ev.Args[p.Name].Expr()))
				vals[n.Args[i].Name] = ev.Args[p.Name]
			}
			f := expr.AndOf(eqs...)
			d := Context{Node: n, Values: vals}
			if !isSat(expr.AndOf(f, n.State.PC)) {
				continue
			}
			next = append(next, d)
			l := tr.tp.Label(n)
			if l != symex.Bottom && isSat(expr.AndOf(f, tr.tp.TargetCond(n))) {
				if l == symex.Accept {
					pass = append(pass, d)
				} else {
					skip = append(skip, d)
				}
			}
		}
	}
	return next, skip, pass
}

// randomEvent returns, two times out of three, an event some context allows
// (values from a model of f ∧ π(s')), and otherwise an arbitrary event
// of the spec with small or interesting values.
func randomEvent(t *testing.T, tr *Tester, sc []Context, rng *rand.Rand) Event {
	t.Helper()
	m := tr.tp.x.Spec()
	if rng.IntN(3) > 0 {
		c := sc[rng.IntN(len(sc))]
		children, err := tr.tp.x.Expand(c.Node)
		if err != nil {
			t.Fatal(err)
		}
		if len(children) > 0 {
			n := children[rng.IntN(len(children))]
			if ev, ok := modelEvent(t, tr, c, n); ok {
				return ev
			}
		}
	}
	acts := append(slices.Clone(m.Actions), &spec.Action{Name: spec.Delta, Dir: spec.Output})
	a := acts[rng.IntN(len(acts))]
	ev := Event{Stim: a.Dir == spec.Input, Action: a.Name}
	for _, p := range a.Params {
		if ev.Args == nil {
			ev.Args = map[string]expr.Value{}
		}
		if p.Type.Kind == expr.EnumKind {
			ev.Args[p.Name] = expr.EnumValue(p.Type.Enum, 0)
			continue
		}
		ns := []int64{-3, 0, 1, 5, 50, 250, 999, 1000, 2000}
		ev.Args[p.Name] = expr.IntValue(big.NewInt(ns[rng.IntN(len(ns))]))
	}
	return ev
}

// modelEvent returns the event of the transition into n with values
// from a model of f ∧ π(n).
func modelEvent(t *testing.T, tr *Tester, c Context, n *symex.Node) (Event, bool) {
	if n.Action == nil || n.Action.Dir == spec.Internal {
		return Event{}, false
	}
	ev := Event{Stim: n.Action.Dir == spec.Input, Action: n.Action.Name}
	if len(n.Args) == 0 {
		return ev, true
	}
	val, ok, err := tr.z.Model(c.under(n.State.PC))
	if err != nil || !ok {
		return Event{}, false
	}
	ev.Args = map[string]expr.Value{}
	for i, p := range n.Action.Params {
		v, found := val.Vars[n.Args[i].Name]
		if !found {
			v = expr.Zero(p.Type)
		}
		ev.Args[p.Name] = v
	}
	return ev, true
}
