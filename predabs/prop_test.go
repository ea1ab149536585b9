package predabs

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// randomModels writes a small bounded spec (an enum e, an int v in
// 0..3, a bool h, one or two locations, actions with a bool parameter
// or none, an invariant) and a purpose with state predicates and action
// sets over it.
func randomModels(r *rand.Rand) (string, string) {
	guards := []string{"true", "e == a", "e != c", "v < 3", "v >= 1", "h", "!h", "p", "!p && v == 0", "e == b || v == 2"}
	assigns := []string{"e: a", "e: b", "e: c", "v: v + 1", "v: 0", "v: 3 - v", "h: \"!h\"", "h: p", "v: 2", "e: b, v: 1"}
	locs := []string{"L0"}
	if r.Intn(2) == 0 {
		locs = append(locs, "L1")
	}
	var b strings.Builder
	b.WriteString("kind: spec\nname: r\ntypes: {E: [a, b, c]}\nvariables:\n  e: E\n  v: {type: int, range: [0, 3]}\n  h: bool\n")
	b.WriteString("invariant: \"e != c || v <= 2\"\nactions:\n  A: {dir: input, params: {p: bool}}\n  B: {dir: input}\n  C: {dir: output, params: {p: bool}}\n")
	fmt.Fprintf(&b, "initial: {location: L0, condition: \"e == a && v == 0 && !h\"}\ntransitions:\n")
	for i := 0; i < 3+r.Intn(5); i++ {
		act := []string{"A", "B", "C"}[r.Intn(3)]
		g := guards[r.Intn(len(guards))]
		for act == "B" && strings.Contains(g, "p") {
			g = guards[r.Intn(len(guards))]
		}
		as := assigns[r.Intn(len(assigns))]
		for act == "B" && strings.Contains(as, "p") {
			as = assigns[r.Intn(len(assigns))]
		}
		fmt.Fprintf(&b, "  - {from: %s, action: %s, guard: %q, assign: {%s}, to: %s}\n", locs[r.Intn(len(locs))], act, g, as, locs[r.Intn(len(locs))])
	}
	preds := []string{"v == 0", "v >= 2", "e == b", "h", "e != a && v <= 1"}
	sets := []string{"A", "B", "[A, C]", "{except: [B]}", "{except: []}", "\"*\""}
	var p strings.Builder
	p.WriteString("kind: purpose\nname: rp\nvariables: {}\ninitial: {location: q0}\nlocations: [q0, q1, q2]\naccept: [q2]\n")
	fmt.Fprintf(&p, "where: {q1: %q}\ntransitions:\n", preds[r.Intn(len(preds))])
	for i := 0; i < 2+r.Intn(4); i++ {
		q, q2 := fmt.Sprintf("q%d", r.Intn(3)), fmt.Sprintf("q%d", r.Intn(3))
		fmt.Fprintf(&p, "  - {from: %s, action: %s, to: %s}\n", q, sets[r.Intn(len(sets))], q2)
	}
	return b.String(), p.String()
}

// concreteStates enumerates the valuations of b's variables (finite by
// construction) that satisfy I.
func concreteStates(t *testing.T, b *Behaviour) []expr.Valuation {
	out := []expr.Valuation{{Vars: map[string]expr.Value{}}}
	for _, x := range b.Vars {
		var next []expr.Valuation
		for _, s := range out {
			for _, c := range x.Values(finiteLimit) {
				v, err := expr.Eval(c, s)
				if err != nil {
					t.Fatal(err)
				}
				n := expr.Valuation{Vars: map[string]expr.Value{x.Name: v}}
				for k, w := range s.Vars {
					n.Vars[k] = w
				}
				next = append(next, n)
			}
		}
		out = next
	}
	var in []expr.Valuation
	for _, s := range out {
		if ok, err := expr.EvalBool(b.Invariant, s); err == nil && ok {
			in = append(in, s)
		}
	}
	return in
}

// abstractOf returns the unique abstract state containing s.
func abstractOf(t *testing.T, a *Abstraction, s expr.Valuation) *State {
	t.Helper()
	var found *State
	for _, st := range a.States {
		ok, err := expr.EvalBool(st.Pred, s)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			if found != nil {
				t.Fatalf("state %v is in two abstract states %s and %s", s.Vars, found.Label, st.Label)
			}
			found = st
		}
	}
	if found == nil {
		t.Fatalf("state %v is in no abstract state", s.Vars)
	}
	return found
}

// TestOverApproximation: on random bounded specs and purposes, the
// abstract states partition the concrete states satisfying I, every
// concrete step between such states is simulated by an abstract
// transition of its EGA (with and without filtering, whatever X^A), and
// every reachable concrete state lies in a reachable abstract state.
// Concrete semantics by enumeration and exact evaluation: the oracle is
// independent of Z3. 16 random models by default, 40 with STG_LONG=1.
func TestOverApproximation(t *testing.T) {
	ctx := newContext(t)
	r := rand.New(rand.NewSource(1))
	for i := range testlong.Runs(16, 40) { // random models
		src, psrc := randomModels(r)
		s, err := specfile.ParseModel("r.yaml", []byte(src), nil)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		tp, err := specfile.ParseModel("rp.yaml", []byte(psrc), s)
		if err != nil {
			t.Fatalf("%v\n%s", err, psrc)
		}
		opts := Options{NoFilter: i%3 == 0}
		if i%4 == 1 {
			opts.Vars = []string{"v"}
		}
		a, err := Abstract(ctx, s, tp, opts)
		if err != nil {
			t.Fatalf("%v\n%s\n%s", err, src, psrc)
		}
		simulated(t, ctx, a, src+psrc)
	}
}

func simulated(t *testing.T, ctx *solver.Context, a *Abstraction, models string) {
	t.Helper()
	b := a.Behaviour
	has := map[[2]*State]map[*EGA]bool{}
	for _, tr := range a.Transitions {
		k := [2]*State{tr.From, tr.To}
		if has[k] == nil {
			has[k] = map[*EGA]bool{}
		}
		has[k][tr.EGA] = true
	}
	states := concreteStates(t, b)
	key := func(s expr.Valuation) string { return fmt.Sprint(s.Vars) }
	in := map[string]bool{}
	for _, s := range states {
		in[key(s)] = true
		st := abstractOf(t, a, s)
		if ok, _ := expr.EvalBool(b.Init, s); ok && !st.Initial {
			t.Errorf("initial state %v in the non-initial %s\n%s", s.Vars, st.Label, models)
		}
	}
	succ := map[string][]expr.Valuation{}
	for _, s := range states {
		for _, g := range b.EGAs {
			for _, p := range []bool{false, true} {
				env := expr.Valuation{Vars: s.Vars, Params: map[string]expr.Value{"p": expr.BoolValue(p)}}
				if ok, err := expr.EvalBool(g.Guard, env); err != nil || !ok {
					continue
				}
				post := expr.Valuation{Vars: map[string]expr.Value{}}
				for _, x := range b.Vars {
					v, err := expr.Eval(g.Assign[x.Name], env)
					if err != nil {
						t.Fatal(err)
					}
					post.Vars[x.Name] = v
				}
				if !in[key(post)] {
					continue // not a state of the semantics (it violates I)
				}
				succ[key(s)] = append(succ[key(s)], post)
				from, to := abstractOf(t, a, s), abstractOf(t, a, post)
				if !has[[2]*State{from, to}][g] {
					t.Errorf("step %v -%s-> %v (%s) not simulated from %s to %s\n%s", s.Vars, g.Action, post.Vars, g.Transition.Label(), from.Label, to.Label, models)
				}
			}
		}
	}
	var queue []expr.Valuation
	reached := map[string]bool{}
	for _, s := range states {
		if ok, _ := expr.EvalBool(b.Init, s); ok {
			reached[key(s)] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if st := abstractOf(t, a, s); !st.Reachable {
			t.Errorf("reachable state %v in the unreachable %s\n%s", s.Vars, st.Label, models)
		}
		for _, n := range succ[key(s)] {
			if !reached[key(n)] {
				reached[key(n)] = true
				queue = append(queue, n)
			}
		}
	}
	n, err := b.ReachableStates(ctx, 1000)
	if err != nil || n != len(reached) {
		t.Errorf("ReachableStates = %d, %v; enumeration gives %d\n%s", n, err, len(reached), models)
	}
}
