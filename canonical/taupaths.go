package canonical

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// MaxTauDepth bounds the length of the τ-paths Close unrolls: a cycle
// of internal transitions that changes variables is followed round as
// long as its guards (under what is known of the spec's states) allow, and
// refused when it is still feasible after this many steps.
const MaxTauDepth = 32

// tauPaths returns, for every location l, the τ-paths from l (the empty
// path first) whose guard is satisfiable under known, a predicate true
// in every reachable state of s (BuildKnown). A path returns to a location only when a transition since its
// last visit changed a variable: going round a cycle that changes
// nothing keeps the values and only conjoins more guards, so the shorter
// path covers it. A cycle that changes variables is unrolled while it is
// feasible; still feasible after MaxTauDepth steps, it is refused (the
// values it reaches are unbounded, and a test case with concrete
// variables cannot follow them).
func tauPaths(ctx *solver.Context, s *spec.Model, known expr.Expr) (map[string][]*tauPath, error) {
	out := map[string][]*tauPath{}
	assume := known
	if assume == nil {
		assume = expr.True()
	}
	count := 0
	for _, l := range s.Locations {
		var paths []*tauPath
		var walk func(p *tauPath) error
		walk = func(p *tauPath) error {
			if count++; count > MaxTauPaths {
				return tooManyPaths(s, l, p)
			}
			paths = append(paths, p)
			for _, t := range s.Outgoing(p.end) {
				if !isInternal(s, t) {
					continue
				}
				seg, again := sinceLastVisit(p, t)
				if again && !anyAssigns(seg) {
					continue
				}
				q, err := extend(ctx, s, p, t, assume)
				if err != nil {
					return err
				}
				if q == nil {
					continue
				}
				if len(q.steps) > MaxTauDepth {
					return unboundedCycle(l, assigningCycle(q.steps))
				}
				if err := walk(q); err != nil {
					return err
				}
			}
			return nil
		}
		start := &tauPath{guard: expr.True(), assumed: assume, subst: map[string]expr.Expr{}, end: l}
		if err := walk(start); err != nil {
			return nil, err
		}
		out[l] = paths
	}
	return out, nil
}

// sinceLastVisit returns the steps of p after its last visit of t.To,
// followed by t, and whether p visits t.To at all.
func sinceLastVisit(p *tauPath, t *spec.Transition) ([]*spec.Transition, bool) {
	for i := len(p.steps) - 1; i >= 0; i-- {
		if p.steps[i].To == t.To {
			return append(append([]*spec.Transition(nil), p.steps[i+1:]...), t), true
		}
	}
	if len(p.steps) == 0 && p.end == t.To || len(p.steps) > 0 && p.steps[0].From == t.To {
		return append(append([]*spec.Transition(nil), p.steps...), t), true
	}
	return nil, false
}

func anyAssigns(ts []*spec.Transition) bool {
	for _, t := range ts {
		if assigns(t) {
			return true
		}
	}
	return false
}

func tooManyPaths(s *spec.Model, l string, p *tauPath) error {
	pos := expr.Pos{File: s.File}
	if len(p.steps) > 0 {
		pos = p.steps[len(p.steps)-1].Pos
	}
	return &expr.Error{Pos: pos, Msg: fmt.Sprintf(
		"more than %d paths of internal transitions (here %s from %s): the τ-closure is too large to enumerate (make some of these transitions visible, or guard them apart)",
		MaxTauPaths, pathString(p), l)}
}

// assigningCycle returns the latest cycle of steps (a segment that
// starts and ends in the same location) that changes a variable; a path
// longer than the number of locations has one, since only such cycles
// are followed round.
func assigningCycle(steps []*spec.Transition) []*spec.Transition {
	for i := len(steps) - 1; i >= 0; i-- {
		for j := i; j >= 0; j-- {
			if steps[j].From == steps[i].To && anyAssigns(steps[j:i+1]) {
				return steps[j : i+1]
			}
		}
	}
	return steps
}

// unboundedCycle refuses the cycle seg, still feasible after MaxTauDepth
// steps from l, at its first transition that changes a variable.
func unboundedCycle(l string, seg []*spec.Transition) error {
	at := seg[0]
	for _, t := range seg {
		if assigns(t) {
			at = t
			break
		}
	}
	return &expr.Error{Pos: at.Pos, Msg: fmt.Sprintf(
		"transition %s changes variables on the cycle of internal transitions %s, which is still feasible after %d internal steps from %s: stg generate cannot follow the values it reaches (bound it by a guard, by range: on the variables it changes, or by an invariant:; or make a step of it visible)",
		at.Label(), pathString(&tauPath{steps: seg}), MaxTauDepth, l)}
}

// extend returns p followed by the τ-transition t, or nil when its guard
// is unsatisfiable. A parameter of t that its guard defines (p == e) is
// replaced by e; the others are renamed apart (p'1 for p in the first
// step) and quantified later. An undecided guard keeps the path
// (over-approximation: the closure then has more transitions, whose
// guards are decided or refused later).
func extend(ctx *solver.Context, s *spec.Model, p *tauPath, t *spec.Transition, assume expr.Expr) (*tauPath, error) {
	k := len(p.steps) + 1
	rename := map[string]expr.Expr{}
	taus := append([]*expr.Ident(nil), p.taus...)
	for _, prm := range s.Action(t.Action).Params {
		if e := defining(t.Guard, prm.Name); e != nil {
			// p == e in the guard: the value is a function of the
			// variables, and substitution suffices (no ∃).
			rename[prm.Name] = expr.Substitute(e, p.subst, nil)
			continue
		}
		id := &expr.Ident{Name: fmt.Sprintf("%s'%d", prm.Name, k), Kind: expr.ParamIdent, T: prm.Type}
		rename[prm.Name] = id
		taus = append(taus, id)
	}
	q := &tauPath{
		steps: append(append([]*spec.Transition(nil), p.steps...), t),
		guard: expr.AndOf(p.guard, expr.Substitute(t.Guard, p.subst, rename)),
		subst: map[string]expr.Expr{},
		taus:  taus,
		end:   t.To,
	}
	for _, v := range s.Variables {
		e := expr.Substitute(t.AssignedValue(v), p.subst, rename)
		if id, ok := e.(*expr.Ident); !ok || id.Kind != expr.VarIdent || id.Name != v.Name {
			q.subst[v.Name] = e
		}
	}
	q.assumed = expr.AndOf(p.assumed, expr.Substitute(assume, q.subst, nil))
	ok, err := ctx.Possible(expr.AndOf(q.assumed, q.guard))
	if errors.Is(err, solver.ErrUnknown) {
		return q, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: τ-path %s: %w", t.Pos, pathString(q), err)
	}
	if !ok {
		return nil, nil
	}
	return q, nil
}

// defining returns e when a conjunct of g is param == e or e == param,
// with e reading no parameter, or a boolean param (true) or !param
// (false): the guard then fixes the parameter's value as a function of
// the variables (as in a hidden output, whose guard gives its
// parameters' values).
func defining(g expr.Expr, param string) expr.Expr {
	readsParam := func(e expr.Expr) bool {
		found := false
		expr.Idents(e, func(id *expr.Ident) { found = found || id.Kind == expr.ParamIdent })
		return found
	}
	isParam := func(e expr.Expr) bool {
		id, ok := e.(*expr.Ident)
		return ok && id.Kind == expr.ParamIdent && id.Name == param
	}
	for _, c := range expr.Conjuncts(g) {
		switch {
		case isParam(c): // a boolean parameter that must hold
			return expr.True()
		case isNot(c) && isParam(c.(*expr.Unary).X):
			return expr.False()
		}
		b, ok := c.(*expr.Binary)
		if !ok || b.Op != expr.Eq {
			continue
		}
		switch {
		case isParam(b.X) && !readsParam(b.Y):
			return b.Y
		case isParam(b.Y) && !readsParam(b.X):
			return b.X
		}
	}
	return nil
}

// determinise makes the closed transitions of l deterministic where the
// τ-closure allows it, and refuses the spec elsewhere. Two transitions
// with the same action whose guards overlap are fine when they lead to
// the same location with the same effect wherever both hold: the later
// one is restricted to where no earlier one holds, then or-ed into an
// earlier one with the same target and assignments if there is one.
// Any other overlap is a choice the tester cannot resolve from what it
// observes.
func determinise(ctx *solver.Context, s *spec.Model, l string, ts []*spec.Transition, from map[*spec.Transition]origin) ([]*spec.Transition, error) {
	var out []*spec.Transition
	for _, t := range ts {
		g := t.Guard
		for _, u := range out {
			if u.Action != t.Action {
				continue
			}
			both := expr.AndOf(u.Guard, t.Guard)
			r, err := ctx.Sat(both)
			if err != nil {
				return nil, &expr.Error{Pos: from[t].pos(), Msg: fmt.Sprintf("τ-closure of %s: cannot decide whether %s and %s overlap on %s (%v)", l, from[u], from[t], t.Action, err)}
			}
			if r == solver.Unsat {
				continue
			}
			same, err := sameEffect(ctx, s, both, u, t)
			if err != nil {
				return nil, err
			}
			if !same {
				return nil, &expr.Error{Pos: from[t].pos(), Msg: fmt.Sprintf(
					"after internal actions from %s, %s and %s can both fire on %s with different effects: the tester cannot tell them apart (make their guards, or the guards of the internal transitions before them, disjoint)",
					l, from[u], from[t], t.Action)}
			}
			g = expr.AndOf(g, expr.NegationNormal(expr.NotOf(u.Guard)))
		}
		if ok, err := ctx.Possible(g); err != nil || !ok {
			if err != nil && !errors.Is(err, solver.ErrUnknown) {
				return nil, err
			}
			if err == nil {
				continue // wholly covered by earlier transitions
			}
		}
		t.Guard = g
		merged := false
		for _, u := range out {
			if u.Action == t.Action && u.To == t.To && equalAssign(u.Assign, t.Assign) {
				u.Guard = expr.OrOf(u.Guard, g)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, t)
		}
	}
	return out, nil
}

// sameEffect reports whether u and t lead to the same location with the
// same values wherever both hold.
func sameEffect(ctx *solver.Context, s *spec.Model, both expr.Expr, u, t *spec.Transition) (bool, error) {
	if u.To != t.To {
		return false, nil
	}
	var eq []expr.Expr
	for _, v := range s.Variables {
		eq = append(eq, expr.Compare(expr.Eq, assigned(u, v), assigned(t, v)))
	}
	ok, err := ctx.Valid(expr.ImpliesOf(both, expr.AndOf(eq...)))
	if errors.Is(err, solver.ErrUnknown) {
		return false, nil
	}
	return ok, err
}

func assigned(t *spec.Transition, v *spec.Variable) expr.Expr { return t.AssignedValue(v) }

func equalAssign(a, b []spec.Assignment) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Var != b[i].Var || !expr.Equal(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

func isNot(e expr.Expr) bool {
	u, ok := e.(*expr.Unary)
	return ok && u.Op == expr.Not
}
