// Package selection turns the product can(S) × TP into a test case, with
// the two rules of §4 of the STG paper, given an over-approximation
// coreach_α of the states co-reachable from Accept:
//
//	Keep:   <l, a, G, A, l'>               ⟶  <l, a, G ∧ pre_α(A)(coreach_α(l')), A, l'>
//	Inconc: <l, a, G, A, l'>, a ∈ Σ!       ⟶  <l, a, G ∧ ¬pre_α(A)(coreach_α(l')), A, Inconc>
//
// Keep discards the inputs (tester sends) that certainly leave
// coreach(Accept); Inconc redirects the outputs (tester receives) that
// certainly leave it. Transitions into Fail are kept as they are, so
// the test case stays sound (its Fail traces are unspecified outputs) and
// complete for receives. Accept locations become Pass, and actions are
// mirrored: the SUT's inputs are the tester's sends, its outputs (and
// delta) the tester's receives.
//
// pre(A)(C) is computed exactly by substitution, C[x := A_x]: the
// over-approximation lies only in coreach_α itself.
//
// The satisfiability, entailment and validity questions of the
// selection go to a decider (linear.go) that settles those of linear
// arithmetic with exact polyhedra, soundly and exactly, and asks the
// solver only the rest; guards are simplified by the solver once per
// distinct guard (issue 15). On a large product two workers, each with
// its own decider and solver context, share the questions by source
// location (parallel.go); the test case depends on the product only.
package selection

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Verdict location names (docs/reference.md#model-files).
const (
	Pass   = "Pass"
	Fail   = "Fail"
	Inconc = "Inconc"
)

// UnreachableError says that no run of the test case can reach Pass:
// the purpose's Accept locations are unreachable in the product (as far
// as the analysis can tell).
type UnreachableError struct {
	Purpose string
	Why     string
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("purpose %s: Accept is unreachable %s; no test case can reach Pass", e.Purpose, e.Why)
}

// Select returns the test case selected from p with the analysis a.
func Select(ctx *solver.Context, p *product.Product, a *coreach.Result) (*spec.Model, error) {
	return selectWith(ctx, p, a, workersFor(p)) // parallel.go
}

// selectWith is Select with n workers.
func selectWith(ctx *solver.Context, p *product.Product, a *coreach.Result, n int) (*spec.Model, error) {
	tc := &spec.Model{
		Kind:      spec.TestcaseKind,
		Name:      p.Purpose.Name,
		Enums:     p.Enums,
		Funcs:     p.Funcs,
		Variables: p.Variables,
		Initial:   p.Initial,
		Verdicts:  spec.Verdicts{Pass: []string{Pass}, Fail: []string{Fail}, Inconc: []string{Inconc}},
	}
	for _, act := range p.Actions {
		m := &spec.Action{Name: act.Name, Params: act.Params, Pos: act.Pos, Dir: spec.Send}
		if act.Dir == spec.Output {
			m.Dir = spec.Receive
		}
		tc.Actions = append(tc.Actions, m)
	}
	if p.Accept[p.Initial.Location] {
		return nil, &UnreachableError{Purpose: p.Purpose.Name, Why: "trivially (the initial location is accepting, so there is nothing to test)"}
	}
	init := expr.AndOf(p.Initial.Condition, a.CoreachOf(p.Initial.Location))
	if possible, err := ctx.Possible(init); err != nil {
		return nil, err
	} else if !possible {
		return nil, &UnreachableError{Purpose: p.Purpose.Name, Why: "from the initial states"}
	}

	ws, err := newWorkers(ctx, p, n) // parallel.go
	if err != nil {
		return nil, err
	}
	defer ws.close()
	kept, err := ws.keep(p, a)
	if err != nil {
		return nil, err
	}
	if kept, err = ws.readable(p.Model, kept, a); err != nil {
		return nil, err
	}
	tc.Transitions = reachable(tc.Initial.Location, kept)

	// Locations: in order of the product, then the verdicts used.
	used := map[string]bool{tc.Initial.Location: true}
	for _, t := range tc.Transitions {
		used[t.From], used[t.To] = true, true
	}
	if !used[Pass] {
		return nil, &UnreachableError{Purpose: p.Purpose.Name, Why: "in the product of the spec with the purpose"}
	}
	for _, l := range p.Locations {
		if used[l] && !p.Accept[l] && l != p.Fail {
			tc.Locations = append(tc.Locations, l)
		}
	}
	// The verdict locations are always declared (docs/reference.md#model-files), used or not.
	tc.Locations = append(tc.Locations, Pass, Fail, Inconc)
	return tc, nil
}

// decide returns what the test case keeps of the product transition t:
// t to Fail as it is; otherwise its Keep part (t's guard with the
// coreachability of its target, to Pass when the target accepts) when
// it may hold in reach(t.From), and for a receive its Inconc part (the
// rest of the guard, to Inconc) when that may hold.
func decide(d *decider, p *product.Product, a *coreach.Result, t *spec.Transition) ([]*spec.Transition, error) {
	if t.To == p.Fail {
		return []*spec.Transition{{From: t.From, Action: t.Action, Guard: t.Guard, To: Fail}}, nil
	}
	receive := p.Action(t.Action).Dir == spec.Output
	to, target := t.To, expr.True()
	if p.Accept[t.To] {
		to = Pass
	} else {
		target = a.CoreachOf(t.To)
	}
	pre := preImage(t, target)
	reach := a.ReachOf(t.From)
	keep := expr.AndOf(t.Guard, pre)
	var out []*spec.Transition
	ok, err := satisfiable(d, reach, keep)
	if err != nil {
		return nil, err
	}
	if ok {
		out = append(out, &spec.Transition{Name: t.Name, From: t.From, Action: t.Action, Guard: keep, Assign: t.Assign, To: to})
	}
	if receive && !expr.IsTrue(pre) {
		inc := expr.AndOf(t.Guard, expr.NotOf(pre))
		ok, err := satisfiable(d, reach, inc)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, &spec.Transition{Name: t.Name, From: t.From, Action: t.Action, Guard: inc, To: Inconc})
		}
	}
	return out, nil
}

// preImage returns pre(A)(c) = c[x := A_x] for the variables that t assigns.
func preImage(t *spec.Transition, c expr.Expr) expr.Expr {
	if len(t.Assign) == 0 {
		return c
	}
	sub := map[string]expr.Expr{}
	for _, as := range t.Assign {
		sub[as.Var] = as.Value
	}
	return expr.Substitute(c, sub, nil)
}

// satisfiable is false only when g is certainly unsatisfiable (a
// transition the solver cannot decide is kept). It asks first whether g
// is possible within reach, the question the readable guards ask again
// (then answered from the decider's cache), since a guard possible
// within reach is possible.
func satisfiable(d *decider, reach, g expr.Expr) (bool, error) {
	if ok, err := d.possible(reach, g); err != nil || ok {
		return ok, err
	}
	return d.possible(expr.True(), g)
}

// reachable keeps the transitions whose source can be reached from init
// in the graph of ts.
func reachable(init string, ts []*spec.Transition) []*spec.Transition {
	out := map[string][]*spec.Transition{}
	for _, t := range ts {
		out[t.From] = append(out[t.From], t)
	}
	seen := map[string]bool{init: true}
	stack := []string{init}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range out[l] {
			if !seen[t.To] {
				seen[t.To] = true
				stack = append(stack, t.To)
			}
		}
	}
	var r []*spec.Transition
	for _, t := range ts {
		if seen[t.From] {
			r = append(r, t)
		}
	}
	return r
}

// groupsOf splits ts into groups of the transitions leaving one location
// with one action, in the order of their first transitions.
func groupsOf(ts []*spec.Transition) [][]*spec.Transition {
	type key struct{ from, action string }
	index := map[key]int{}
	var groups [][]*spec.Transition
	for _, t := range ts {
		k := key{t.From, t.Action}
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], t)
	}
	return groups
}

// readableGroup simplifies the guards of a group (the transitions
// leaving one location with one action). Two forms are
// tried:
//
//   - relative to the location's reachability predicate reach(l): the
//     transitions that cannot fire in a reachable state are dropped and
//     each guard is simplified under reach(l) (conjuncts that reach(l)
//     entails disappear: the send of Figure 3 reads p == x + 2);
//   - exact: each guard simplified into an equivalent one.
//
// The relative form is taken only when the group stays deterministic
// everywhere (guards pairwise disjoint) and, for receives, complete
// everywhere (their disjunction is valid), so that the properties of a
// test case hold of the file itself and not only of its reachable
// states. Both forms have the same runs from the initial states.
func readableGroup(d *decider, m *spec.Model, g []*spec.Transition, a *coreach.Result) ([]*spec.Transition, error) {
	receive := m.Action(g[0].Action).Dir == spec.Output
	rel, err := relativeGroup(d, g, a.ReachOf(g[0].From))
	if err != nil {
		return nil, err
	}
	if rel != nil {
		ok, err := wellFormed(d, rel, receive)
		if err != nil {
			return nil, err
		}
		if ok {
			return rel, nil
		}
	}
	out := make([]*spec.Transition, 0, len(g))
	for _, t := range g {
		e, err := simplifyUnder(d, expr.True(), t.Guard)
		if err != nil {
			return nil, err
		}
		u := *t
		u.Guard = e
		out = append(out, &u)
	}
	return out, nil
}

// relativeGroup returns the group simplified under reach, or nil when
// reach is true (nothing to gain).
func relativeGroup(d *decider, g []*spec.Transition, reach expr.Expr) ([]*spec.Transition, error) {
	if expr.IsTrue(reach) {
		return nil, nil
	}
	var r []*spec.Transition
	for _, t := range g {
		if t.To == Fail {
			// A Fail guard must stay exactly the unspecified outputs,
			// in every state: soundness is a property of the file.
			e, err := simplifyUnder(d, expr.True(), t.Guard)
			if err != nil {
				return nil, err
			}
			u := *t
			u.Guard = e
			r = append(r, &u)
			continue
		}
		ok, err := d.possible(reach, t.Guard)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		// A second form, the simplification of reach ∧ guard, was tried
		// here and kept when shorter: it never won (0 of 654 groups over
		// the examples and the ring benchmark) and cost a third of the
		// selection's queries.
		best, err := simplifyUnder(d, reach, without(t.Guard, reach))
		if err != nil {
			return nil, err
		}
		u := *t
		u.Guard = best
		r = append(r, &u)
	}
	return r, nil
}

// wellFormed reports whether the guards of a group are pairwise
// disjoint and, for receives, cover every valuation.
func wellFormed(d *decider, g []*spec.Transition, receive bool) (bool, error) {
	for i := range g {
		for j := i + 1; j < len(g); j++ {
			ok, err := d.possible(g[i].Guard, g[j].Guard)
			if err != nil || ok {
				return false, err
			}
		}
	}
	if !receive {
		return true, nil
	}
	var gs []expr.Expr
	for _, t := range g {
		gs = append(gs, t.Guard)
	}
	ok, err := d.valid(expr.OrOf(gs...))
	if errors.Is(err, solver.ErrUnknown) {
		return false, nil // undecided: keep the exact form
	}
	return ok, err
}

// simplifyUnder returns g simplified under reach: the solver's
// simplification, the conjuncts that reach and the others entail
// dropped, parameters isolated. The result depends only on g and on the
// answers to entailment questions about g's relevant part of reach
// (relevant.go), so it is remembered by relevantKey: the guards of a
// long spec's stages, the same under contexts that differ in other
// variables, are simplified once.
func simplifyUnder(d *decider, reach, g expr.Expr) (expr.Expr, error) {
	var buf [256]byte
	key, memo := d.appendRelevantKey(buf[:0], reach, g)
	if memo {
		if r, ok := d.simplified.get(string(key)); ok {
			return r, nil
		}
	}
	r, err := simplify(d, reach, g)
	if err == nil && memo {
		d.simplified.put(string(key), r)
	}
	return r, err
}

// simplify is simplifyUnder without the memo.
func simplify(d *decider, reach, g expr.Expr) (expr.Expr, error) {
	ctx := d.ctx
	s, err := ctx.Simplify(g)
	if err != nil {
		s = g
	}
	s, err = dropImplied(d, reach, expr.NegationNormal(s))
	if err != nil {
		return nil, err
	}
	// The rewriting is exact; the solver confirms it all the same, and
	// the guard stays as it was if it does not.
	r := isolateParameters(s)
	if ok, err := ctx.Equivalent(r, s); err == nil && ok {
		return r, nil
	}
	return s, nil
}

// dropImplied removes each conjunct of g that the context and the
// remaining conjuncts entail. A conjunct that is word for word a
// conjunct of the context is entailed without asking the solver.
func dropImplied(d *decider, context, g expr.Expr) (expr.Expr, error) {
	cs := expr.Conjuncts(g)
	if expr.IsTrue(context) && len(cs) < 2 {
		return g, nil
	}
	given := expr.Conjuncts(context)
	for i := 0; i < len(cs); {
		if contains(given, cs[i]) {
			cs = append(cs[:i], cs[i+1:]...)
			continue
		}
		rest := append(append([]expr.Expr{}, cs[:i]...), cs[i+1:]...)
		ok, err := d.entails(context, expr.AndOf(rest...), cs[i])
		if errors.Is(err, solver.ErrUnknown) {
			ok, err = false, nil // undecided: keep the conjunct
		}
		if err != nil {
			return nil, err
		}
		if ok {
			cs = append(cs[:i], cs[i+1:]...)
			continue
		}
		i++
	}
	return expr.AndOf(cs...), nil
}

// without returns g without the conjuncts that are word for word
// conjuncts of context, without repeated conjuncts and without ground
// conjuncts that evaluate to true: the same predicate within context.
// The guards of one action then often agree from location to location
// (they differ mostly by the coreach of their targets, which the
// context repeats, and by the stage numbers it substitutes), so that
// the solver's memo simplifies each of them once.
func without(g, context expr.Expr) expr.Expr {
	given := expr.Conjuncts(context)
	var cs []expr.Expr
	for _, c := range expr.Conjuncts(g) {
		if !contains(given, c) && !contains(cs, c) && !groundTrue(c) {
			cs = append(cs, c)
		}
	}
	return expr.AndOf(cs...)
}

// groundTrue reports whether e reads no identifier and no function and
// evaluates to true.
func groundTrue(e expr.Expr) bool {
	if !isGround(e) {
		return false
	}
	v, err := expr.EvalBool(e, expr.Valuation{})
	return err == nil && v
}

// isGround reports whether e reads no identifier and no function.
func isGround(e expr.Expr) bool {
	ground := true
	expr.Inspect(e, func(x expr.Expr) {
		switch x.(type) {
		case *expr.Ident, *expr.Call, *expr.StrCall:
			ground = false
		}
	})
	return ground
}

// contains reports whether e is, structurally, one of es.
func contains(es []expr.Expr, e expr.Expr) bool {
	for _, x := range es {
		if expr.Equal(x, e) {
			return true
		}
	}
	return false
}
