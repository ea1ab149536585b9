package canonical

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// tauCycles refuses a τ-transition that changes a variable and lies on a
// cycle of τ-transitions (the same strongly connected component of the
// τ-graph at both ends): the values it reaches are unbounded in number,
// and a test case with concrete variables cannot follow them. The error
// names the cycle.
func tauCycles(s *spec.Model) error {
	comp := tauSCC(s)
	var errs spec.ErrorList
	for _, t := range s.Transitions {
		if !isInternal(s, t) || !assigns(t) || comp[t.From] != comp[t.To] {
			continue
		}
		cycle := append([]*spec.Transition{t}, tauRoute(s, t.To, t.From, comp)...)
		errs.Add(t.Pos, "transition %s changes variables on the cycle of internal transitions %s: stg generate cannot follow values changed by a τ-cycle (bound the cycle by visible actions, or make a step of it visible)",
			t.Label(), pathString(&tauPath{steps: cycle}))
	}
	return errs.Err()
}

// tauSCC numbers the strongly connected components of the τ-graph of s
// (Tarjan's algorithm); two locations are on a common τ-cycle iff they
// have the same number.
func tauSCC(s *spec.Model) map[string]int {
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	comp := map[string]int{}
	var stack []string
	next, ncomp := 0, 0
	var visit func(l string)
	visit = func(l string) {
		index[l], low[l] = next, next
		next++
		stack = append(stack, l)
		onStack[l] = true
		for _, t := range s.Outgoing(l) {
			if !isInternal(s, t) {
				continue
			}
			if _, seen := index[t.To]; !seen {
				visit(t.To)
				low[l] = min(low[l], low[t.To])
			} else if onStack[t.To] {
				low[l] = min(low[l], index[t.To])
			}
		}
		if low[l] == index[l] {
			for {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[x] = false
				comp[x] = ncomp
				if x == l {
					break
				}
			}
			ncomp++
		}
	}
	for _, l := range s.Locations {
		if _, seen := index[l]; !seen {
			visit(l)
		}
	}
	return comp
}

// tauRoute returns a shortest τ-path from a to b inside their component
// (empty when a == b).
func tauRoute(s *spec.Model, a, b string, comp map[string]int) []*spec.Transition {
	prev := map[string]*spec.Transition{}
	seen := map[string]bool{a: true}
	queue := []string{a}
	for len(queue) > 0 && !seen[b] {
		l := queue[0]
		queue = queue[1:]
		for _, t := range s.Outgoing(l) {
			if isInternal(s, t) && comp[t.To] == comp[a] && !seen[t.To] {
				seen[t.To] = true
				prev[t.To] = t
				queue = append(queue, t.To)
			}
		}
	}
	var route []*spec.Transition
	for l := b; l != a && prev[l] != nil; l = prev[l].From {
		route = append([]*spec.Transition{prev[l]}, route...)
	}
	return route
}

// tauPaths returns, for every location l, the simple τ-paths from l
// (the empty path first) whose guard is satisfiable. Simple paths
// suffice: τ-cycles change no variable (tauCycles), so going round one
// only adds guards on the same values.
func tauPaths(ctx *solver.Context, s *spec.Model) (map[string][]*tauPath, error) {
	out := map[string][]*tauPath{}
	count := 0
	for _, l := range s.Locations {
		var paths []*tauPath
		onPath := map[string]bool{}
		var walk func(p *tauPath) error
		walk = func(p *tauPath) error {
			if count++; count > MaxTauPaths {
				pos := spec.Pos{File: s.File}
				if len(p.steps) > 0 {
					pos = p.steps[len(p.steps)-1].Pos
				}
				return &spec.Error{Pos: pos, Msg: fmt.Sprintf(
					"more than %d simple paths of internal transitions (here %s from %s): the τ-closure is too large to enumerate (make some of these transitions visible, or guard them apart)",
					MaxTauPaths, pathString(p), l)}
			}
			paths = append(paths, p)
			onPath[p.end] = true
			defer delete(onPath, p.end)
			for _, t := range s.Outgoing(p.end) {
				if !isInternal(s, t) || onPath[t.To] {
					continue
				}
				q, err := extend(ctx, s, p, t)
				if err != nil {
					return err
				}
				if q == nil {
					continue
				}
				if err := walk(q); err != nil {
					return err
				}
			}
			return nil
		}
		if err := walk(&tauPath{guard: spec.True(), subst: map[string]spec.Expr{}, end: l}); err != nil {
			return nil, err
		}
		out[l] = paths
	}
	return out, nil
}

// extend returns p followed by the τ-transition t, or nil when its guard
// is unsatisfiable. A parameter of t that its guard defines (p == e) is
// replaced by e; the others are renamed apart (p'1 for p in the first
// step) and quantified later. An undecided guard keeps the path
// (over-approximation: the closure then has more transitions, whose
// guards are decided or refused later).
func extend(ctx *solver.Context, s *spec.Model, p *tauPath, t *spec.Transition) (*tauPath, error) {
	k := len(p.steps) + 1
	rename := map[string]spec.Expr{}
	taus := append([]*spec.Ident(nil), p.taus...)
	for _, prm := range s.Action(t.Action).Params {
		if e := defining(t.Guard, prm.Name); e != nil {
			// p == e in the guard: the value is a function of the
			// variables, and substitution suffices (no ∃).
			rename[prm.Name] = spec.Substitute(e, p.subst, nil)
			continue
		}
		id := &spec.Ident{Name: fmt.Sprintf("%s'%d", prm.Name, k), Kind: spec.ParamIdent, T: prm.Type}
		rename[prm.Name] = id
		taus = append(taus, id)
	}
	q := &tauPath{
		steps: append(append([]*spec.Transition(nil), p.steps...), t),
		guard: spec.AndOf(p.guard, spec.Substitute(t.Guard, p.subst, rename)),
		subst: map[string]spec.Expr{},
		taus:  taus,
		end:   t.To,
	}
	for _, v := range s.Variables {
		e := spec.Substitute(t.AssignedValue(v), p.subst, rename)
		if id, ok := e.(*spec.Ident); !ok || id.Kind != spec.VarIdent || id.Name != v.Name {
			q.subst[v.Name] = e
		}
	}
	ok, err := ctx.Possible(q.guard)
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
func defining(g spec.Expr, param string) spec.Expr {
	readsParam := func(e spec.Expr) bool {
		found := false
		spec.Idents(e, func(id *spec.Ident) { found = found || id.Kind == spec.ParamIdent })
		return found
	}
	isParam := func(e spec.Expr) bool {
		id, ok := e.(*spec.Ident)
		return ok && id.Kind == spec.ParamIdent && id.Name == param
	}
	for _, c := range spec.Conjuncts(g) {
		switch {
		case isParam(c): // a boolean parameter that must hold
			return spec.True()
		case isNot(c) && isParam(c.(*spec.Unary).X):
			return spec.False()
		}
		b, ok := c.(*spec.Binary)
		if !ok || b.Op != spec.Eq {
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
			both := spec.AndOf(u.Guard, t.Guard)
			r, err := ctx.Sat(both)
			if err != nil {
				return nil, &spec.Error{Pos: from[t].pos(), Msg: fmt.Sprintf("τ-closure of %s: cannot decide whether %s and %s overlap on %s (%v)", l, from[u], from[t], t.Action, err)}
			}
			if r == solver.Unsat {
				continue
			}
			same, err := sameEffect(ctx, s, both, u, t)
			if err != nil {
				return nil, err
			}
			if !same {
				return nil, &spec.Error{Pos: from[t].pos(), Msg: fmt.Sprintf(
					"after internal actions from %s, %s and %s can both fire on %s with different effects: the tester cannot tell them apart (make their guards, or the guards of the internal transitions before them, disjoint)",
					l, from[u], from[t], t.Action)}
			}
			g = spec.AndOf(g, spec.NegationNormal(spec.NotOf(u.Guard)))
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
				u.Guard = spec.OrOf(u.Guard, g)
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
func sameEffect(ctx *solver.Context, s *spec.Model, both spec.Expr, u, t *spec.Transition) (bool, error) {
	if u.To != t.To {
		return false, nil
	}
	var eq []spec.Expr
	for _, v := range s.Variables {
		eq = append(eq, spec.Compare(spec.Eq, assigned(u, v), assigned(t, v)))
	}
	ok, err := ctx.Valid(spec.ImpliesOf(both, spec.AndOf(eq...)))
	if errors.Is(err, solver.ErrUnknown) {
		return false, nil
	}
	return ok, err
}

func assigned(t *spec.Transition, v *spec.Variable) spec.Expr { return t.AssignedValue(v) }

func equalAssign(a, b []spec.Assignment) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Var != b[i].Var || !spec.Equal(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

func isNot(e spec.Expr) bool {
	u, ok := e.(*spec.Unary)
	return ok && u.Op == spec.Not
}
