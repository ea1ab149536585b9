package canonical

import (
	"fmt"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// MaxTauPaths bounds the number of τ-paths Close enumerates from all
// locations together; past it, Close refuses the spec rather than run
// for ever on a dense τ-graph.
const MaxTauPaths = 4096

// HasInternal reports whether some transition of s is labelled by an
// internal action.
func HasInternal(s *spec.Model) bool {
	for _, t := range s.Transitions {
		if a := s.Action(t.Action); a != nil && a.Dir == spec.Internal {
			return true
		}
	}
	return false
}

// tauPath is a τ-path t1…tk from a location (k ≥ 0) with its effect,
// expressed over the variables in the path's first state: the
// conjunction G1 ∧ G2[A1] ∧ … of its guards and the composed
// assignment A_k ∘ … ∘ A_1. The parameters of the internal actions are
// renamed apart (tau ids) and are existentially quantified by the user
// of the path.
type tauPath struct {
	steps []*spec.Transition
	guard expr.Expr
	// assumed is the spec's invariant and ranges in every state of the
	// path (claims of its author, true in reachable states): used to
	// prune infeasible paths, never written into a guard.
	assumed expr.Expr
	subst   map[string]expr.Expr // variable -> value after the path
	taus    []*expr.Ident        // renamed parameters of the τ steps
	end     string
}

// Closure is Δ(S) for a spec S with internal actions: a spec without
// them, on the τ-closure, whose delta transitions already account for
// quiescence through τ. See the package documentation (The τ-closure)
// for the construction, its exactness and what it refuses.
type Closure struct {
	*spec.Model
	// Quiet maps each post-quiescence location to the location it
	// belongs to: after delta in l, the tester is in Quiet⁻¹(l), where
	// the SUT is known to be in a state with no τ*·output continuation.
	Quiet map[string]string
	// Notes say where quiescence had to be over-approximated.
	Notes []string
	// Hidden names the variables the closure added for the values of
	// internal parameters that flow into variables (unknowns, left out of
	// the initial condition; see CheckHidden).
	Hidden []string
}

// Close returns the closure of s, assuming nothing of its states beyond
// what its guards say.
func Close(ctx *solver.Context, s *spec.Model) (*Closure, error) {
	return CloseKnown(ctx, s, expr.True())
}

// CloseKnown is Close for a spec known to satisfy known in every
// reachable state: τ-paths that would leave known are left out. known
// must be proved (the invariant and ranges check.Proved establishes, or
// true): a τ-path cut by a claim that does not hold is behaviour of the
// spec after which the tester would fail a conformant SUT.
func CloseKnown(ctx *solver.Context, s *spec.Model, known expr.Expr) (*Closure, error) {
	paths, err := tauPaths(ctx, s, known)
	if err != nil {
		return nil, err
	}
	c := s.Clone()
	c.Actions = nil
	for _, a := range s.Actions {
		if a.Dir != spec.Internal {
			c.Actions = append(c.Actions, a)
		}
	}
	c.Actions = append(c.Actions, &spec.Action{Name: spec.Delta, Dir: spec.Output})
	c.Transitions = nil
	res := &Closure{Model: c, Quiet: map[string]string{}}
	closed := map[string][]*spec.Transition{}
	u := newUnknowns(s)
	for _, l := range s.Locations {
		ts, err := closedDeterministic(ctx, s, l, l, paths[l], nil, u)
		if err != nil {
			return nil, err
		}
		closed[l] = ts
	}
	noCont := map[string]expr.Expr{}
	approx := map[string]bool{}
	for _, l := range s.Locations {
		outs, exact := u.eliminate(ctx, closed[l]) // an output for some hidden value
		g, ns := noOutput(ctx, s, l, outs)
		noCont[l], approx[l] = g, len(ns) > 0 || !exact
		res.Notes = append(res.Notes, ns...)
	}
	for _, l := range s.Locations {
		c.Transitions = append(c.Transitions, closed[l]...)
		g, ns, err := tauDelta(ctx, s, l, paths[l], noCont)
		if err != nil {
			return nil, err
		}
		res.Notes = append(res.Notes, ns...)
		if expr.IsFalse(g) {
			continue
		}
		if err := res.addDelta(ctx, s, l, g, paths[l], noCont, approx, u); err != nil {
			return nil, err
		}
	}
	res.Hidden = u.declare(c)
	return res, nil
}

// addDelta adds the delta transitions of l, whose guard is g. Without
// τ-paths from l, delta is a self-loop (exact). Otherwise delta leads to
// a post-quiescence location lδ with the values of l: there no output
// is possible (every output is Fail), delta loops, and the inputs are
// those of the quiet states of l's closure, reached through τ-paths π
// with ∃τ. G_π ∧ NoOut(end(π))[A_π]. Where NoOut was over-approximated
// (the solver could not eliminate an output's parameters), the quiet
// states are not known exactly and delta stays a self-loop on l: its
// inputs are l's, all specified (sound, less precise).
func (res *Closure) addDelta(ctx *solver.Context, s *spec.Model, l string, g expr.Expr, paths []*tauPath, noCont map[string]expr.Expr, approx map[string]bool, u *unknowns) error {
	c := res.Model
	exact := len(paths) > 1
	for _, p := range paths {
		exact = exact && !approx[p.end]
	}
	if !exact {
		c.Transitions = append(c.Transitions, &spec.Transition{From: l, Action: spec.Delta, Guard: g, To: l})
		return nil
	}
	q := "quiet(" + l + ")"
	for i := 0; c.HasLocation(q); i++ {
		q = fmt.Sprintf("quiet%d(%s)", i, l)
	}
	ins, err := closedDeterministic(ctx, s, l, q, paths, noCont, u)
	if err != nil {
		return err
	}
	c.Locations = append(c.Locations, q)
	res.Quiet[q] = l
	c.Transitions = append(c.Transitions,
		&spec.Transition{From: l, Action: spec.Delta, Guard: g, To: q},
		&spec.Transition{From: q, Action: spec.Delta, Guard: g, To: q})
	c.Transitions = append(c.Transitions, ins...)
	return nil
}

// closedDeterministic returns the closed transitions of l, named as
// leaving from, made deterministic (determinise). With quiet set, only
// the inputs of the quiet states (quiet[end] holds after the path).
func closedDeterministic(ctx *solver.Context, s *spec.Model, l, from string, paths []*tauPath, quiet map[string]expr.Expr, u *unknowns) ([]*spec.Transition, error) {
	ts, origins, err := closedTransitions(ctx, s, from, paths, quiet, u)
	if err != nil {
		return nil, err
	}
	return determinise(ctx, s, l, ts, origins)
}

// closedTransitions returns, for every τ-path π (from some location) and
// every visible transition t leaving π's end, the transition
// l -a-> t.To with guard ∃τ-params. G_π ∧ G_t[A_π] and assignment
// A_t ∘ A_π. Unsatisfiable ones are dropped. With quiet set, only inputs
// count, and the guard also requires quiet[end(π)][A_π]. A τ-parameter
// that flows into a variable becomes an unknown of u (hidden).
func closedTransitions(ctx *solver.Context, s *spec.Model, l string, paths []*tauPath, quiet map[string]expr.Expr, u *unknowns) ([]*spec.Transition, map[*spec.Transition]origin, error) {
	var out []*spec.Transition
	from := map[*spec.Transition]origin{}
	for _, p := range paths {
		for _, t := range s.Outgoing(p.end) {
			a := s.Action(t.Action)
			if a == nil || a.Dir == spec.Internal || quiet != nil && a.Dir != spec.Input {
				continue
			}
			nt, err := closedOne(ctx, s, l, p, t, quiet, u)
			if err != nil {
				return nil, nil, err
			}
			if nt != nil {
				out = append(out, nt)
				from[nt] = origin{p, t}
			}
		}
	}
	return out, from, nil
}

// closedOne is the closed transition of the τ-path p followed by the
// visible transition t, from l, or nil when its guard is unsatisfiable.
func closedOne(ctx *solver.Context, s *spec.Model, l string, p *tauPath, t *spec.Transition, quiet map[string]expr.Expr, u *unknowns) (*spec.Transition, error) {
	g := expr.AndOf(p.guard, expr.Substitute(t.Guard, p.subst, nil))
	if quiet != nil {
		g = expr.AndOf(g, expr.Substitute(quiet[p.end], p.subst, nil))
	}
	var assign []spec.Assignment
	for _, v := range s.Variables {
		e := expr.Substitute(t.AssignedValue(v), p.subst, nil)
		if id, ok := e.(*expr.Ident); ok && id.Kind == expr.VarIdent && id.Name == v.Name {
			continue
		}
		assign = append(assign, spec.Assignment{Var: v.Name, Value: e})
	}
	g, assign = u.hide(p, g, assign)
	var err error
	if len(p.steps) > 0 {
		if g, err = eliminate(ctx, p.taus, g); err != nil {
			return nil, &expr.Error{Pos: p.steps[0].Pos, Msg: fmt.Sprintf(
				"τ-path %s then %s: cannot eliminate the parameters of the internal actions (%s)",
				pathString(p), t.Label(), firstLine(err.Error()))}
		}
	}
	g, err = readable(ctx, g)
	if err != nil {
		return nil, fmt.Errorf("τ-closure of %s on %s: %w", l, t.Label(), err)
	}
	if expr.IsFalse(g) {
		return nil, nil
	}
	return &spec.Transition{Name: t.Name, From: l, Action: t.Action, Guard: g, To: t.To, Pos: t.Pos, Assign: assign}, nil
}

// origin is where a closed transition comes from: a τ-path and the
// visible transition after it.
type origin struct {
	path    *tauPath
	visible *spec.Transition
}

// pos is the position of the first step of o.
func (o origin) pos() expr.Pos {
	if len(o.path.steps) > 0 {
		return o.path.steps[0].Pos
	}
	return o.visible.Pos
}

func (o origin) String() string {
	v := fmt.Sprintf("transition %s (line %d)", o.visible.Label(), o.visible.Pos.Line)
	if len(o.path.steps) == 0 {
		return v
	}
	return "τ-path " + pathString(o.path) + " then " + v
}

// eliminate returns a quantifier-free equivalent of ∃ids. g for the ids g
// mentions.
func eliminate(ctx *solver.Context, ids []*expr.Ident, g expr.Expr) (expr.Expr, error) {
	var used []*expr.Ident
	for _, id := range ids {
		if expr.Mentions(g, expr.ParamIdent, id.Name) {
			used = append(used, id)
		}
	}
	if len(used) == 0 {
		return g, nil
	}
	return ctx.EliminateExists(used, g)
}

// noOutput returns the condition under which no τ*·output continuation
// exists from l: the negation of ∃params. G over the closed output
// transitions of l (notPossible, as in QuiescenceGuard).
func noOutput(ctx *solver.Context, s *spec.Model, l string, closed []*spec.Transition) (expr.Expr, []string) {
	return notPossible(ctx, s, l, closed, func(a *spec.Action) bool { return a.Dir == spec.Output })
}

// tauDelta returns the guard of delta in l: some τ-path π from l leads
// to a state with no τ*·output continuation,
// ∨_π ∃τ-params. G_π ∧ noCont(end(π))[A_π] (Def. 5 of the component
// paper). When the solver cannot eliminate the τ parameters, the path's
// disjunct is true (quiescence over-approximated) and a note says so.
func tauDelta(ctx *solver.Context, s *spec.Model, l string, paths []*tauPath, noCont map[string]expr.Expr) (expr.Expr, []string, error) {
	var notes []string
	var ds []expr.Expr
	for _, p := range paths {
		g := expr.AndOf(p.guard, expr.Substitute(noCont[p.end], p.subst, nil))
		if e, err := eliminate(ctx, p.taus, g); err == nil {
			g = e
		} else {
			notes = append(notes, fmt.Sprintf("%s: quiescence in %s is over-approximated: the solver cannot eliminate the parameters of τ-path %s (%s)",
				p.steps[0].Pos, l, pathString(p), firstLine(err.Error())))
			g = expr.True()
		}
		ds = append(ds, g)
	}
	g, err := readable(ctx, expr.OrOf(ds...))
	if err != nil {
		return nil, nil, fmt.Errorf("quiescence through τ in %s: %w", l, err)
	}
	return g, notes, nil
}

// pathString names the steps of a τ-path: "t1; t2" or "(none)".
func pathString(p *tauPath) string {
	if len(p.steps) == 0 {
		return "(empty)"
	}
	var b strings.Builder
	for i, t := range p.steps {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(t.Label())
	}
	return "[" + b.String() + "]"
}

// isInternal reports whether t is labelled by an internal action of s.
func isInternal(s *spec.Model, t *spec.Transition) bool {
	a := s.Action(t.Action)
	return a != nil && a.Dir == spec.Internal
}

// assigns reports whether t changes a variable (x := x does not).
func assigns(t *spec.Transition) bool {
	for _, a := range t.Assign {
		if id, ok := a.Value.(*expr.Ident); !ok || id.Kind != expr.VarIdent || id.Name != a.Var {
			return true
		}
	}
	return false
}
