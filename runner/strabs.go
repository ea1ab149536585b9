package runner

import (
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// Planning through string constraints.
//
// A path of twelve sends each carrying names checked by a regular
// expression costs Z3 4.8.12 tens of milliseconds a check when the
// strings of every step are asserted together, and planning makes
// thousands of checks. Where a transition's strings do not flow into
// the state, its string tests are independent of the rest of the path:
// each atom of its guard that mentions a string parameter (and nothing
// but the action's parameters and constants) can be replaced, at each
// step, by a fresh boolean, and the path constrained to the valuations
// of those booleans that some strings realise (computed once per
// transition). The abstraction is exact: a path is feasible with the
// booleans if and only if it is feasible with the strings. The values of
// the first send are then chosen with the atoms themselves (the link
// b@k == atom asserted in pickFirst), so the strings sent satisfy the
// valuation the path needs.

// maxStringAtoms bounds the atoms abstracted in a guard (2^n valuations
// are checked once per transition).
const maxStringAtoms = 6

// A stringAbs is the abstraction of the string atoms of one guard.
type stringAbs struct {
	atoms    []spec.Expr // boolean subformulas over string parameters and constants
	feasible [][]bool    // the valuations of atoms some strings realise
}

// stringAbsOf returns the abstraction of t's guard, computed once per
// Runner, or nil when it does not apply: no string parameter, strings
// that flow into the state (an assignment mentions one), an atom that
// mentions a variable, a call or a parameter that is not a string, too
// many atoms, or a valuation the solver cannot decide.
func (r *Runner) stringAbsOf(t *spec.Transition) (*stringAbs, error) {
	if a, ok := r.strAbs[t]; ok {
		return a, nil
	}
	a, err := r.makeStringAbs(t)
	if err != nil {
		return nil, err
	}
	if r.strAbs == nil {
		r.strAbs = map[*spec.Transition]*stringAbs{}
	}
	r.strAbs[t] = a
	return a, nil
}

func (r *Runner) makeStringAbs(t *spec.Transition) (*stringAbs, error) {
	act := r.tc.Action(t.Action)
	if act == nil || t.Guard == nil || !hasStringParam(act) {
		return nil, nil
	}
	for _, as := range t.Assign {
		if mentionsString(as.Value) {
			return nil, nil
		}
	}
	var atoms []spec.Expr
	if !collectAtoms(t.Guard, &atoms) || len(atoms) == 0 || len(atoms) > maxStringAtoms {
		return nil, nil
	}
	abs := &stringAbs{atoms: atoms}
	for v := 0; v < 1<<len(atoms); v++ {
		val := make([]bool, len(atoms))
		lits := make([]spec.Expr, len(atoms))
		for i, at := range atoms {
			val[i] = v&(1<<i) != 0
			lits[i] = at
			if !val[i] {
				lits[i] = spec.NotOf(at)
			}
		}
		res, err := r.z.Sat(spec.AndOf(lits...))
		if err != nil || res == solver.Unknown {
			return nil, nil // undecided: plan with the strings themselves
		}
		if res == solver.Sat {
			abs.feasible = append(abs.feasible, val)
		}
	}
	return abs, nil
}

// apply returns t's guard g with each atom replaced by the boolean
// b<i>@step, conjoined with the feasible valuations, and the link
// b<i>@step == atom<i> for choosing the step's values.
func (a *stringAbs) apply(g spec.Expr, step int) (spec.Expr, spec.Expr) {
	bs := make([]spec.Expr, len(a.atoms))
	links := make([]spec.Expr, len(a.atoms))
	for i, at := range a.atoms {
		bs[i] = &spec.Ident{Name: fmt.Sprintf("strtest%d@%d", i, step), Kind: spec.ParamIdent, T: spec.BoolType}
		links[i] = spec.Compare(spec.Eq, bs[i], at)
	}
	var vals []spec.Expr
	for _, val := range a.feasible {
		lits := make([]spec.Expr, len(val))
		for i, b := range val {
			lits[i] = bs[i]
			if !b {
				lits[i] = spec.NotOf(bs[i])
			}
		}
		vals = append(vals, spec.AndOf(lits...))
	}
	return spec.AndOf(a.replace(g, bs), spec.OrOf(vals...)), spec.AndOf(links...)
}

// replace returns g with the atoms replaced by bs.
func (a *stringAbs) replace(g spec.Expr, bs []spec.Expr) spec.Expr {
	for i, at := range a.atoms {
		if g == at {
			return bs[i]
		}
	}
	switch e := g.(type) {
	case *spec.Binary:
		if e.Op == spec.And || e.Op == spec.Or {
			return &spec.Binary{Op: e.Op, X: a.replace(e.X, bs), Y: a.replace(e.Y, bs), At: e.At}
		}
	case *spec.Unary:
		if e.Op == spec.Not {
			return &spec.Unary{Op: spec.Not, X: a.replace(e.X, bs), At: e.At}
		}
	}
	return g
}

// collectAtoms appends to atoms the maximal subformulas of the boolean
// structure of g (&&, ||, !) that mention a string; it reports false when
// one also mentions a variable, a call, or a parameter that is not a
// string.
func collectAtoms(g spec.Expr, atoms *[]spec.Expr) bool {
	switch e := g.(type) {
	case *spec.Binary:
		if e.Op == spec.And || e.Op == spec.Or {
			return collectAtoms(e.X, atoms) && collectAtoms(e.Y, atoms)
		}
	case *spec.Unary:
		if e.Op == spec.Not {
			return collectAtoms(e.X, atoms)
		}
	}
	if !mentionsString(g) {
		return true
	}
	ok := true
	spec.Inspect(g, func(n spec.Expr) {
		switch n := n.(type) {
		case *spec.Ident:
			if n.Kind != spec.ParamIdent || n.T.Kind != spec.Str {
				ok = false
			}
		case *spec.Call:
			ok = false
		}
	})
	if ok {
		*atoms = append(*atoms, g)
	}
	return ok
}

func hasStringParam(a *spec.Action) bool {
	for _, p := range a.Params {
		if p.Type.Kind == spec.Str {
			return true
		}
	}
	return false
}

// mentionsString reports whether e mentions a string parameter.
func mentionsString(e spec.Expr) bool {
	found := false
	spec.Inspect(e, func(n spec.Expr) {
		if id, ok := n.(*spec.Ident); ok && id.Kind == spec.ParamIdent && id.T.Kind == spec.Str {
			found = true
		}
	})
	return found
}
