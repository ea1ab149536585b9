package canonical

import (
	"fmt"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Tester is can(Δ(S)): the suspended spec with its Fail transitions.
type Tester struct {
	*spec.Model
	// Fail is the name of the Fail location (Fail, unless the spec
	// already has a location of that name).
	Fail string
	// Approximations lists, for the user, where quiescence had to be
	// over-approximated (see Suspend).
	Approximations []string
	// Quiet maps the post-quiescence locations of a spec with internal
	// actions to their location (Closure.Quiet); nil without τ.
	Quiet map[string]string
	// Hidden names the unknowns of the closure (Closure.Hidden): a test
	// case built from the tester must pass CheckHidden.
	Hidden []string
}

// Suspend returns Δ(S): a copy of s with the output action delta and a
// delta self-loop in every location where quiescence is possible.
// A location whose delta guard is unsatisfiable (an output is always
// possible) gets no delta transition.
//
// When the solver cannot eliminate ∃π from an output's guard (a
// non-linear guard such as r * r == x), that output counts as never
// possible in the delta guard: quiescence is then allowed in more states
// than exactly, so the test case never fails a correct SUT on
// quiescence (soundness), at the price of not detecting a missing
// output there. The approximations made are returned as notes.
//
// A spec with internal actions is suspended on its τ-closure (Close):
// the result has no internal action, and quiescence looks through τ.
func Suspend(ctx *solver.Context, s *spec.Model) (*spec.Model, []string, error) {
	if err := checkSpec(s); err != nil {
		return nil, nil, err
	}
	if HasInternal(s) {
		c, err := Close(ctx, s)
		if err != nil {
			return nil, nil, err
		}
		return c.Model, c.Notes, nil
	}
	var notes []string
	d := s.Clone()
	d.Actions = append(d.Actions, &spec.Action{Name: spec.Delta, Dir: spec.Output})
	for _, l := range s.Locations {
		guard, ns, err := QuiescenceGuard(ctx, s, l)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, ns...)
		if expr.IsFalse(guard) {
			continue
		}
		d.Transitions = append(d.Transitions, &spec.Transition{From: l, Action: spec.Delta, Guard: guard, To: l})
	}
	return d, notes, nil
}

// notPossible returns ¬ ∨ ∃params. G over the transitions ts of l whose
// action counts; an action whose ∃ the solver cannot eliminate counts as
// never possible (quiescence over-approximated), with a note saying where.
func notPossible(ctx *solver.Context, s *spec.Model, l string, ts []*spec.Transition, counts func(*spec.Action) bool) (expr.Expr, []string) {
	var notes []string
	var possible []expr.Expr
	for _, t := range ts {
		a := s.Action(t.Action)
		if a == nil || !counts(a) {
			continue
		}
		g, err := exists(ctx, a, t.Guard)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: quiescence in %s is over-approximated: the solver cannot decide when %s is possible (%s)",
				t.Pos, l, t.Action, firstLine(err.Error())))
			continue
		}
		possible = append(possible, g)
	}
	return expr.NotOf(expr.OrOf(possible...)), notes
}

// QuiescenceGuard returns the condition, over the variables of s, under
// which location l is quiescent (Def. 4 of the AGATHA paper, the
// suspension of the STG paper): no output and no internal action can
// fire, ¬ ∨ ∃params. G over their transitions leaving l. It is false when
// an output is always possible. An output whose ∃ the solver cannot
// eliminate counts as never possible, which over-approximates quiescence
// (sound: a correct SUT is never failed on quiescence); notes say where.
func QuiescenceGuard(ctx *solver.Context, s *spec.Model, l string) (expr.Expr, []string, error) {
	quiet, notes := notPossible(ctx, s, l, s.Outgoing(l), func(a *spec.Action) bool {
		return a.Dir != spec.Input && a.Name != spec.Delta
	})
	guard, err := readable(ctx, quiet)
	if err != nil {
		return nil, nil, fmt.Errorf("suspension of location %s: %w", l, err)
	}
	return guard, notes, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// Canonical returns can(Δ(S)) for a suspended spec (the result of
// Suspend): every unspecified output or quiescence leads to Fail.
func Canonical(ctx *solver.Context, suspended *spec.Model) (*Tester, error) {
	c := suspended.Clone()
	fail := "Fail"
	for i := 0; c.HasLocation(fail); i++ {
		fail = fmt.Sprintf("Fail%d", i)
	}
	for _, l := range suspended.Locations {
		for _, a := range suspended.Actions {
			if a.Dir != spec.Output {
				continue
			}
			var guards []expr.Expr
			for _, t := range suspended.Outgoing(l) {
				if t.Action == a.Name {
					guards = append(guards, t.Guard)
				}
			}
			g, err := readable(ctx, expr.NotOf(expr.OrOf(guards...)))
			if err != nil {
				return nil, fmt.Errorf("Fail transition of %s in location %s: %w", a.Name, l, err)
			}
			if expr.IsFalse(g) {
				continue
			}
			c.Transitions = append(c.Transitions, &spec.Transition{From: l, Action: a.Name, Guard: g, To: fail})
		}
	}
	c.Locations = append(c.Locations, fail)
	return &Tester{Model: c, Fail: fail}, nil
}

// Build returns can(Δ(s)); for a spec with internal actions, can of its
// closure (Close), with the post-quiescence locations in Tester.Quiet.
func Build(ctx *solver.Context, s *spec.Model) (*Tester, error) {
	return BuildKnown(ctx, s, expr.True())
}

// BuildKnown is Build for a spec known to satisfy known in every
// reachable state (CloseKnown; known must be proved, as check.Proved
// proves a spec's invariant and ranges).
func BuildKnown(ctx *solver.Context, s *spec.Model, known expr.Expr) (*Tester, error) {
	if err := checkSpec(s); err != nil {
		return nil, err
	}
	d, err := suspend(ctx, s, known)
	if err != nil {
		return nil, err
	}
	c, err := Canonical(ctx, d.Model)
	if err != nil {
		return nil, err
	}
	c.Approximations = d.Notes
	c.Quiet = d.Quiet
	c.Hidden = d.Hidden
	return c, nil
}

// suspend is Suspend, as a Closure: with the post-quiescence locations
// and the unknowns of a closure.
func suspend(ctx *solver.Context, s *spec.Model, known expr.Expr) (*Closure, error) {
	if HasInternal(s) {
		return CloseKnown(ctx, s, known)
	}
	d, notes, err := Suspend(ctx, s)
	if err != nil {
		return nil, err
	}
	return &Closure{Model: d, Notes: notes}, nil
}

// checkSpec refuses what this construction does not handle.
func checkSpec(s *spec.Model) error {
	if s.Kind != spec.SpecKind {
		return fmt.Errorf("%s: a %s is not a spec", s.File, s.Kind)
	}
	return nil
}

// exists returns a quantifier-free equivalent of ∃ params(a). g.
func exists(ctx *solver.Context, a *spec.Action, g expr.Expr) (expr.Expr, error) {
	var ids []*expr.Ident
	for _, p := range a.Params {
		if expr.Mentions(g, expr.ParamIdent, p.Name) {
			ids = append(ids, &expr.Ident{Name: p.Name, Kind: expr.ParamIdent, T: p.Type})
		}
	}
	if len(ids) == 0 {
		return g, nil
	}
	return ctx.EliminateExists(ids, g)
}

// readable decides trivial guards (false, true) and pushes negations
// inward. Full simplification is left to the selection, which simplifies
// every guard of the test case once, at the end.
func readable(ctx *solver.Context, g expr.Expr) (expr.Expr, error) {
	possible, err := ctx.Possible(g)
	if err != nil {
		return nil, err
	}
	if !possible {
		return expr.False(), nil
	}
	if valid, err := ctx.Valid(g); err == nil && valid {
		return expr.True(), nil
	}
	return expr.NegationNormal(g), nil
}
