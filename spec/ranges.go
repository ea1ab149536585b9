package spec

import (
	"fmt"

	"github.com/stg-tool/stg/spec/expr"
)

// Bounded integers. A range: [lo, hi] bounds an int variable (Variable.Range)
// or an int parameter of an action (Param.Range):
//
//	variables: {TryCounter: {type: int, range: [0, 2]}}
//	actions:   {Enter: {dir: input, params: {n: {type: int, range: [0, 9]}}}}
//
// On a variable, the range is the author's claim about every reachable
// state (Model.RangeConstraint), proved by stg check; analyses assume it
// only once proved. On a parameter, it is part of the parameter's type:
// the action carries values in [lo, hi] and no others. An input is
// specified for those values only, so a tester sends nothing else; an
// output outside the range is not an output the spec allows, so it is
// unspecified, as an ill-typed one is (Param.Admits): Fail.

// Admits returns nil when v is a value of p's range (always, for a
// parameter without one), and otherwise an error that says so.
func (p *Param) Admits(v expr.Value) error {
	if p.Range == nil || v.T.Kind != expr.Int || v.Int == nil {
		return nil
	}
	if v.Int.Cmp(p.Range.Lo) < 0 || v.Int.Cmp(p.Range.Hi) > 0 {
		return fmt.Errorf("%s is outside the range [%s, %s]", v.Int, p.Range.Lo, p.Range.Hi)
	}
	return nil
}

// String describes p as a signature shows it: "n: int", or with its
// range "n: int in [0, 9]".
func (p *Param) String() string {
	if p.Range == nil {
		return p.Name + ": " + p.Type.String()
	}
	return fmt.Sprintf("%s: %s in [%s, %s]", p.Name, p.Type, p.Range.Lo, p.Range.Hi)
}

// ParamRanges returns the conjunction of lo <= x && x <= hi over the
// parameters of a with a range, x being args[i] for a.Params[i] (the
// parameter itself, as a ParamIdent, when args is nil): what a value
// chosen for a must satisfy. True when no parameter has a range.
func (a *Action) ParamRanges(args []*expr.Ident) expr.Expr {
	var cs []expr.Expr
	for i, p := range a.Params {
		if p.Range == nil {
			continue
		}
		x := expr.ParamRef(p.Name, p.Type)
		if args != nil {
			if i >= len(args) {
				break
			}
			x = args[i]
		}
		cs = append(cs, rangeOf(x, p.Range))
	}
	return expr.AndOf(cs...)
}

// WithParamRanges returns m as the analyses read it: the guard of every
// transition conjoined with the ranges of its action's parameters
// (ParamRanges), so that a value out of range is no value of the action.
// For an input, the tester never sends one; for an output, it is no
// output the spec allows, and where only such values would satisfy an
// output's guard the spec is quiescent. A conjunct the guard has already
// (a test case written by stg) is not added again. It returns m itself
// when no parameter has a range, else a copy with copied transitions.
func (m *Model) WithParamRanges() *Model {
	var c *Model
	for i, t := range m.Transitions {
		a := m.Action(t.Action)
		if a == nil {
			continue
		}
		g := withConjuncts(t.Guard, expr.Conjuncts(a.ParamRanges(nil)))
		if g == t.Guard {
			continue
		}
		if c == nil {
			cp := *m
			cp.Transitions = append([]*Transition(nil), m.Transitions...)
			c = &cp
		}
		u := *t
		u.Guard = g
		c.Transitions[i] = &u
	}
	if c == nil {
		return m
	}
	return c
}

// withConjuncts returns g && each of cs that g does not have as a
// conjunct already (g itself when it has them all).
func withConjuncts(g expr.Expr, cs []expr.Expr) expr.Expr {
	if g == nil {
		g = expr.True()
	}
	have := map[string]bool{}
	for _, c := range expr.Conjuncts(g) {
		have[expr.Format(c)] = true
	}
	out := g
	for _, c := range cs {
		if !expr.IsTrue(c) && !have[expr.Format(c)] {
			out = expr.AndOf(out, c)
			have[expr.Format(c)] = true
		}
	}
	return out
}

// rangeOf returns lo <= x && x <= hi.
func rangeOf(x expr.Expr, r *expr.Range) expr.Expr {
	return expr.AndOf(expr.Compare(expr.Le, expr.BigIntConst(r.Lo), x), expr.Compare(expr.Le, x, expr.BigIntConst(r.Hi)))
}

// Assuming returns a copy of m as an analysis sees it once j is known
// to hold in every reachable state (a proved invariant: check.Proved):
// the initial condition is conjoined with j, and every transition's guard
// with j and with j after the transition (j with the assigned values
// substituted), which holds wherever the transition fires from a
// reachable state. The copy has m's reachable behaviour; an analysis
// finds the bounds of j in it even where its own abstraction would lose
// them. The transitions are copies; m is unchanged. With j true, it
// returns m.
func (m *Model) Assuming(j expr.Expr) *Model {
	if j == nil || expr.IsTrue(j) {
		return m
	}
	c := *m
	c.Initial.Condition = expr.AndOf(m.Initial.Condition, j)
	c.Transitions = make([]*Transition, len(m.Transitions))
	for i, t := range m.Transitions {
		post := map[string]expr.Expr{}
		for _, a := range t.Assign {
			post[a.Var] = a.Value
		}
		u := *t
		u.Guard = expr.AndOf(t.Guard, j, expr.Substitute(j, post, nil))
		c.Transitions[i] = &u
	}
	return &c
}
