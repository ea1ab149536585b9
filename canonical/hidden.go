package canonical

import (
	"fmt"
	"strings"

	"github.com/stg-tool/stg/internal/graph"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// HiddenPrefix starts the names of the unknowns the τ-closure adds for
// the values of internal parameters that flow into variables
// (h_<param>_<n>), unless a name is already taken.
const HiddenPrefix = "h_"

// unknowns are the variables the τ-closure adds, one for every internal
// parameter whose value a closed transition assigns to a variable: the
// value the SUT chose and the tester cannot see. The test case leaves
// them out of its initial condition, so that the runner tracks them as
// symbols (as it does the initial values the SUT never revealed),
// constrained by the guard of the transition that reads them.
type unknowns struct {
	s     *spec.Model
	taken map[string]bool
	vars  []*spec.Variable
	n     int
}

func newUnknowns(s *spec.Model) *unknowns {
	u := &unknowns{s: s, taken: map[string]bool{}}
	for _, v := range s.Variables {
		u.taken[v.Name] = true
	}
	return u
}

// hide replaces, in the guard g and the assignments of the closed
// transition of the τ-path p followed by t, each τ-parameter that an
// assignment reads by a fresh unknown; the guard then constrains the
// unknown instead of quantifying the parameter. A parameter of a τ-step
// inside a loop is no different for the closure (every step of a path is
// named apart); the runner's soundness needs the closed transition to be
// taken at most once in a run, which the test case is checked for
// (CheckHidden).
func (u *unknowns) hide(p *tauPath, g expr.Expr, assign []spec.Assignment) (expr.Expr, []spec.Assignment) {
	rename := map[string]expr.Expr{}
	for _, a := range assign {
		for _, id := range p.taus {
			if rename[id.Name] == nil && expr.Mentions(a.Value, expr.ParamIdent, id.Name) {
				rename[id.Name] = u.fresh(id)
			}
		}
	}
	if len(rename) == 0 {
		return g, assign
	}
	out := make([]spec.Assignment, len(assign))
	for i, a := range assign {
		out[i] = spec.Assignment{Var: a.Var, Value: expr.Substitute(a.Value, nil, rename)}
	}
	return expr.Substitute(g, nil, rename), out
}

// fresh returns a new unknown for the τ-parameter id (named p'k).
func (u *unknowns) fresh(id *expr.Ident) expr.Expr {
	base, _, _ := strings.Cut(id.Name, "'")
	var name string
	for {
		u.n++
		name = fmt.Sprintf("%s%s_%d", HiddenPrefix, base, u.n)
		if !u.taken[name] {
			break
		}
	}
	u.taken[name] = true
	u.vars = append(u.vars, &spec.Variable{Name: name, Type: id.T})
	return expr.VarRef(name, id.T)
}

// declare adds to c the unknowns its transitions mention, and returns
// their names.
func (u *unknowns) declare(c *spec.Model) []string {
	var names []string
	for _, v := range u.vars {
		for _, t := range c.Transitions {
			if mentionsVar(t, v.Name) {
				c.Variables = append(c.Variables, v)
				names = append(names, v.Name)
				break
			}
		}
	}
	return names
}

// mentionsVar reports whether t's guard or assignments read the variable
// name.
func mentionsVar(t *spec.Transition, name string) bool {
	if t.Guard != nil && expr.Mentions(t.Guard, expr.VarIdent, name) {
		return true
	}
	for _, a := range t.Assign {
		if expr.Mentions(a.Value, expr.VarIdent, name) {
			return true
		}
	}
	return false
}

// eliminate returns ts with each guard that reads unknowns replaced by
// ∃ unknowns. G: a transition possible for some value the SUT may choose
// on its τ-steps, as the τ-parameters that no variable keeps are
// quantified. With it, no quiescence guard reads an unknown (noOutput is
// computed on these). When the solver cannot eliminate them, the guard
// is false, which over-approximates quiescence, and exact is false.
func (u *unknowns) eliminate(ctx *solver.Context, ts []*spec.Transition) (out []*spec.Transition, exact bool) {
	exact = true
	for _, t := range ts {
		var ids []*expr.Ident
		for _, v := range u.vars {
			if expr.Mentions(t.Guard, expr.VarIdent, v.Name) {
				ids = append(ids, &expr.Ident{Name: v.Name, Kind: expr.VarIdent, T: v.Type})
			}
		}
		if len(ids) == 0 {
			out = append(out, t)
			continue
		}
		g, err := ctx.EliminateExists(ids, t.Guard)
		if err != nil {
			g, exact = expr.False(), false
		}
		c := *t
		c.Guard = g
		out = append(out, &c)
	}
	return out, exact
}

// CheckHidden refuses a test case tc in which a transition that assigns
// the value of an unknown of hidden (Tester.Hidden) can be taken again
// after one that does (itself included): the unknown stands for the
// value the SUT chose on one τ-step, and a second pass through the τ-step
// may choose another, which one symbol cannot follow (judging both passes
// with one value could fail a conformant SUT). Other transitions may read
// the unknown anywhere: a send's guard only narrows the states the tester
// keeps track of (those left out make the run Inconc, never Fail), and
// the selection splits a receive's guard into Keep and its exact
// complement to Inconc. The error is the closure's refusal, saying that
// loops are not handled.
func CheckHidden(tc *spec.Model, hidden []string) error {
	for _, h := range hidden {
		var binders []*spec.Transition
		for _, t := range tc.Transitions {
			if assignsFrom(t, h) {
				binders = append(binders, t)
			}
		}
		for _, t := range binders {
			reach := graph.Reach([]string{t.To}, func(l string) []string {
				var next []string
				for _, o := range tc.Outgoing(l) {
					next = append(next, o.To)
				}
				return next
			})
			for _, r := range binders {
				if reach[r.From] {
					return fmt.Errorf(
						"transition %s assigns %s, the value of an internal parameter, which the tester cannot observe, and the test case can take it again (from %s) in a loop, where the SUT may choose another value: stg generate follows one unknown per internal step, not one per pass of a loop (make the action visible, assign from observed values only, or use a purpose that ends before the loop comes back)",
						t.Label(), h, r.From)
				}
			}
		}
	}
	return nil
}

// assignsFrom reports whether an assignment of t reads the variable name.
func assignsFrom(t *spec.Transition, name string) bool {
	for _, a := range t.Assign {
		if expr.Mentions(a.Value, expr.VarIdent, name) {
			return true
		}
	}
	return false
}

// FreeSends replaces, in tc, the guard G of each send whose location no
// transition assigning an unknown h of hidden can precede by ∃h. G: the
// selection's co-reachability conjuncts on a value the SUT has not
// chosen yet would make the tester's send cover only some of the states
// it tracks (the others lost: Inconc), where the value is any. A weaker
// send guard only lets the tester send where fewer runs lead to Pass;
// when the solver cannot eliminate h, the guard stays.
func FreeSends(ctx *solver.Context, tc *spec.Model, hidden []string) {
	for _, h := range hidden {
		var bound []string
		for _, t := range tc.Transitions {
			if assignsFrom(t, h) {
				bound = append(bound, t.To)
			}
		}
		after := graph.Reach(bound, func(l string) []string {
			var next []string
			for _, o := range tc.Outgoing(l) {
				next = append(next, o.To)
			}
			return next
		})
		for _, t := range tc.Transitions {
			a := tc.Action(t.Action)
			if a == nil || a.Dir != spec.Send || after[t.From] || t.Guard == nil || !expr.Mentions(t.Guard, expr.VarIdent, h) {
				continue
			}
			v := tc.Variable(h)
			if g, err := ctx.EliminateExists([]*expr.Ident{{Name: h, Kind: expr.VarIdent, T: v.Type}}, t.Guard); err == nil {
				t.Guard = g
			}
		}
	}
}
