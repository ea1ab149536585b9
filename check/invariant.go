package check

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Invariant checks a spec's claims about its reachable states, its
// invariant: and the range: of its int variables (J below): the initial
// condition implies J, and every transition preserves J (from a state
// satisfying J, with any parameters in their ranges satisfying the guard, the state
// after the assignments satisfies J). Each violation is an error at the
// initial condition or at the transition, with a witness found by the
// solver: the values before (and the parameters), and the values after.
// This is the inductiveness the abstraction route relies on (the LTG
// behavioural models of Julliand, Masson and Tissot's paper on test
// purposes and predicate abstraction,
// Def. 4: init ⇒ I and every action preserves I). Queries the solver
// cannot decide are Undecided findings. Models of other kinds, and specs
// with neither an invariant nor a range, give nothing.
func Invariant(ctx *solver.Context, m *spec.Model) (Findings, error) {
	var f Findings
	if m.Kind != spec.SpecKind {
		return f, nil
	}
	j, what := claims(m)
	if j == nil {
		return f, nil
	}
	m = m.WithParamRanges() // the parameters carry values in their ranges
	pos := m.Initial.Pos
	if p := start(m.Initial.Condition); p.IsValid() {
		pos = p
	}
	val, ok, err := ctx.Model(expr.AndOf(m.Initial.Condition, expr.NotOf(j)))
	switch {
	case errors.Is(err, solver.ErrUnknown):
		f.Undecided = append(f.Undecided, &expr.Error{Pos: withFile(pos, m), Msg: fmt.Sprintf(
			"the solver cannot decide whether the initial condition implies the %s (%v)", what, err)})
	case err != nil:
		return f, err
	case ok:
		f.Errors = append(f.Errors, &expr.Error{Pos: withFile(pos, m), Msg: fmt.Sprintf(
			"the initial condition does not imply the %s, e.g. with %s", what, witness(m, &spec.Action{}, val))})
	}
	for _, t := range m.Transitions {
		if err := preserves(ctx, m, t, j, what, &f); err != nil {
			return f, err
		}
	}
	return f, nil
}

// Proved returns J, the invariant and the ranges of the spec m, when
// Invariant proves them (no violation, nothing undecided): then every
// reachable state satisfies J, and analyses may assume it as known
// bounds (spec.Model.Assuming). Otherwise, and for a model that claims
// nothing, it returns true: an unproved claim is never assumed.
func Proved(ctx *solver.Context, m *spec.Model) (expr.Expr, error) {
	j, _ := claims(m)
	if j == nil || m.Kind != spec.SpecKind {
		return expr.True(), nil
	}
	f, err := Invariant(ctx, m)
	if err != nil || len(f.Errors) > 0 || len(f.Undecided) > 0 {
		return expr.True(), err
	}
	return j, nil
}

// claims returns J, the invariant and the ranges of m, and how to name
// it; J is nil when m states neither.
func claims(m *spec.Model) (expr.Expr, string) {
	var parts []expr.Expr
	var names []string
	if m.Invariant != nil {
		parts = append(parts, m.Invariant)
		names = append(names, "invariant")
	}
	if r := m.RangeConstraint(); !expr.IsTrue(r) {
		parts = append(parts, r)
		names = append(names, "ranges")
	}
	switch len(parts) {
	case 0:
		return nil, ""
	case 1:
		return parts[0], names[0]
	}
	return expr.AndOf(parts...), "invariant and ranges"
}

// preserves adds to f a violation of J by the transition t.
func preserves(ctx *solver.Context, m *spec.Model, t *spec.Transition, j expr.Expr, what string, f *Findings) error {
	post := map[string]expr.Expr{}
	for _, v := range m.Variables {
		post[v.Name] = t.AssignedValue(v)
	}
	// The values after are read from fresh variables x' == f(x), so the
	// witness shows them.
	var eqs []expr.Expr
	primed := map[string]expr.Expr{}
	for _, v := range m.Variables {
		p := expr.VarRef(v.Name+"'", v.Type)
		primed[v.Name] = p
		eqs = append(eqs, expr.Compare(expr.Eq, p, post[v.Name]))
	}
	q := expr.AndOf(j, t.Guard, expr.AndOf(eqs...), expr.NotOf(expr.Substitute(j, primed, nil)))
	val, ok, err := ctx.Model(q)
	switch {
	case errors.Is(err, solver.ErrUnknown):
		f.Undecided = append(f.Undecided, &expr.Error{Pos: withFile(t.Pos, m), Msg: fmt.Sprintf(
			"the solver cannot decide whether transition %s preserves the %s (%v)", describe(t), what, err)})
		return nil
	case err != nil || !ok:
		return err
	}
	a := m.Action(t.Action)
	if a == nil {
		a = &spec.Action{}
	}
	after := expr.Valuation{Vars: map[string]expr.Value{}}
	for _, v := range m.Variables {
		if x, ok := val.Vars[v.Name+"'"]; ok {
			after.Vars[v.Name] = x
		}
	}
	f.Errors = append(f.Errors, &expr.Error{Pos: withFile(t.Pos, m), Msg: fmt.Sprintf(
		"transition %s does not preserve the %s: it leads from [%s] to [%s]",
		describe(t), what, witness(m, a, val), witness(m, &spec.Action{}, after))})
	return nil
}
