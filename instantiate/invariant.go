package instantiate

import (
	"errors"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/canonical"
	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// A location invariant over-approximates the states of the spec that
// some execution from its initial condition reaches: per location l,
// reach(l), the analysis stg generate runs (package coreach, polyhedra)
// on the spec's canonical tester in product with a purpose that loops on
// every action (its Accept unreachable, so without slicing: reach alone). Every reachable state satisfies it, so a step
// whose source and target cannot both satisfy it is taken by no
// execution of any length: Complete settles such a transition at once
// instead of unrolling executions up to the bound (on a spec whose
// abstraction keeps states no execution reaches, such as a mode that
// only one location can have, each of those unrollings may run to the
// solver's time limit).

// locationInvariant returns ∧_l (@loc == l → reach(l)) over the
// variables of b, or true when the analysis is not available (an
// internal action, a refused claim, a variable the behaviour lacks):
// true is always sound.
func locationInvariant(ctx *solver.Context, b *predabs.Behaviour) expr.Expr {
	reach, err := specReach(ctx, b.Spec)
	if err != nil || reach == nil {
		return expr.True()
	}
	known := map[string]bool{}
	for _, v := range b.Vars {
		known[v.Name] = true
	}
	enums := enumValues(b.Spec)
	loc := b.Var(predabs.LocVar)
	var parts []expr.Expr
	for _, l := range b.Spec.Locations {
		r, ok := reach[l]
		if !ok || !onlyVars(r, known) {
			r = expr.True()
		}
		if e, ok := enums[l]; ok {
			r = expr.AndOf(r, e)
		}
		if loc == nil {
			return r
		}
		at := expr.Compare(expr.Eq, loc.Ref(), &expr.EnumLit{Enum: loc.Type.Enum, Index: loc.Type.Enum.Index(l)})
		parts = append(parts, expr.ImpliesOf(at, r))
	}
	return expr.AndOf(parts...)
}

// specReach runs the co-reachability analysis on the spec alone and
// returns reach per spec location.
func specReach(ctx *solver.Context, s *spec.Model) (map[string]expr.Expr, error) {
	if canonical.HasInternal(s) {
		return nil, errors.New("internal actions")
	}
	proved, err := check.Proved(ctx, s)
	if err != nil {
		return nil, err
	}
	can, err := canonical.BuildKnown(ctx, s, proved)
	if err != nil {
		return nil, err
	}
	// Every action loops on "all" (the completion rule); "never" is the
	// Accept that no run reaches, and the analysis runs without slicing
	// so that reach is not restricted to the (empty) coreach.
	all := &spec.Model{Kind: spec.PurposeKind, Name: s.Name + "-all", File: s.File,
		Initial: spec.Initial{Location: "all"}, Locations: []string{"all", "never"}, Accept: []string{"never"}}
	p, err := product.Build(ctx, can, all)
	if err != nil {
		return nil, err
	}
	if p, err = check.Known(ctx, s, p); err != nil {
		return nil, err
	}
	res, err := coreach.Analyze(p, abstraction.Polyhedra(), coreach.Options{Slicing: -1})
	if err != nil {
		return nil, err
	}
	reach := map[string]expr.Expr{}
	for _, l := range p.Locations {
		if o, ok := p.Origin[l]; ok && l != p.Fail {
			reach[o[0]] = res.ReachOf(l)
		}
	}
	return reach, nil
}

func onlyVars(e expr.Expr, known map[string]bool) bool {
	ok := true
	expr.Idents(e, func(id *expr.Ident) {
		if id.Kind != expr.VarIdent || !known[id.Name] {
			ok = false
		}
	})
	return ok
}

// impossible reports whether no step of t can be taken between two
// states that satisfy inv, the location invariant: then no execution of
// any length takes t. An undecided query answers false.
func (a *Animator) impossible(ctx *solver.Context, t *predabs.ProductTransition, inv expr.Expr) (bool, error) {
	if expr.IsTrue(inv) {
		return false, nil
	}
	for _, st := range t.Steps {
		f := a.b.Step(st.EGA, expr.AndOf(inv, t.From.Pred()), expr.AndOf(inv, t.To.Pred()), true)
		ok, err := ctx.Possible(f)
		if errors.Is(err, solver.ErrUnknown) {
			return false, nil
		}
		if err != nil || ok {
			return false, err
		}
	}
	return true, nil
}

// enumValues returns, per location, the constraint that each variable of
// an enumerated type holds one of the values it may have there (the
// polyhedra do not represent them): a forward fixpoint over the values
// the initial condition fixes (v == c; otherwise any) and the
// assignments (v := c gives c, v unchanged keeps v's values, anything
// else any value). Guards are ignored, which over-approximates.
func enumValues(s *spec.Model) map[string]expr.Expr {
	var vars []*spec.Variable
	for _, v := range s.Variables {
		if v.Type.Kind == expr.EnumKind {
			vars = append(vars, v)
		}
	}
	out := map[string]expr.Expr{}
	if len(vars) == 0 {
		return out
	}
	vals := map[string][]uint64{} // location -> per variable, a bit set of value indexes
	vals[s.Initial.Location] = initialEnumValues(s, vars)
	for changed := true; changed; {
		changed = false
		for _, t := range s.Transitions {
			src, ok := vals[t.From]
			if !ok {
				continue
			}
			dst := vals[t.To]
			if dst == nil {
				dst = make([]uint64, len(vars))
				vals[t.To] = dst
			}
			for i, v := range vars {
				next := assignedValues(t.AssignedValue(v), v, src[i])
				if dst[i]|next != dst[i] {
					dst[i] |= next
					changed = true
				}
			}
		}
	}
	for l, sets := range vals {
		var parts []expr.Expr
		for i, v := range vars {
			var alts []expr.Expr
			for k := range v.Type.Enum.Values {
				if sets[i]&(1<<k) != 0 {
					alts = append(alts, expr.Compare(expr.Eq, expr.VarRef(v.Name, v.Type), &expr.EnumLit{Enum: v.Type.Enum, Index: k}))
				}
			}
			parts = append(parts, expr.OrOf(alts...))
		}
		out[l] = expr.AndOf(parts...)
	}
	return out
}

func allValues(v *spec.Variable) uint64 {
	n := len(v.Type.Enum.Values)
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

func initialEnumValues(s *spec.Model, vars []*spec.Variable) []uint64 {
	sets := make([]uint64, len(vars))
	for i, v := range vars {
		sets[i] = allValues(v)
		for _, c := range expr.Conjuncts(s.Initial.Condition) {
			if k, ok := fixes(c, v.Name); ok {
				sets[i] = 1 << k
			}
		}
	}
	return sets
}

// fixes reports the value index k when c is v == k (or k == v).
func fixes(c expr.Expr, name string) (int, bool) {
	b, ok := c.(*expr.Binary)
	if !ok || b.Op != expr.Eq {
		return 0, false
	}
	x, y := b.X, b.Y
	if _, ok := x.(*expr.EnumLit); ok {
		x, y = y, x
	}
	id, ok1 := x.(*expr.Ident)
	lit, ok2 := y.(*expr.EnumLit)
	if !ok1 || !ok2 || id.Kind != expr.VarIdent || id.Name != name || lit.Index < 0 || lit.Index >= 64 {
		return 0, false
	}
	return lit.Index, true
}

func assignedValues(e expr.Expr, v *spec.Variable, src uint64) uint64 {
	switch e := e.(type) {
	case *expr.EnumLit:
		if e.Index >= 0 && e.Index < 64 {
			return 1 << e.Index
		}
	case *expr.Ident:
		if e.Kind == expr.VarIdent && e.Name == v.Name {
			return src
		}
	}
	return allValues(v)
}
