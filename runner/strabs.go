package runner

import (
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
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

// The abstraction also serves guards whose strings do flow into the
// state, or whose string tests mention variables (name := s, then
// regexp.MatchString(p, name) && msg == "Dear " + name two steps later):
// there Z3 4.8.12 answers in seconds or not at all, and planning would
// stall. Those atoms ("free" ones) become booleans with no constraint:
// the search then over-approximates the paths, which costs the tester
// only a path the SUT's outputs or the values refuse (it plans again, or
// sends at random), never a verdict, since verdicts are given by
// judging observations. The first send's values are still chosen under
// the link, exactly. An atom over the action's string parameters and
// constants alone ("exact" one) keeps the constraint of the valuations
// some strings realise, which holds in every case; when every atom is
// exact and no string flows into the state, the abstraction is exact.

// maxStringAtoms bounds the exact atoms of a guard (2^n valuations are
// checked once per transition); maxFreeAtoms bounds all of them.
const (
	maxStringAtoms = 6
	maxFreeAtoms   = 16
)

// A stringAbs is the abstraction of the string atoms of one guard.
type stringAbs struct {
	atoms    []expr.Expr // boolean subformulas over strings
	exact    []int       // the indexes of the exact atoms, in order
	feasible [][]bool    // the valuations of the exact atoms some strings realise
}

// stringAbsOf returns the abstraction of t's guard, computed once per
// Runner, or nil when it does not apply: no string in the guard, an
// atom that calls a function, too many atoms, or a valuation of the
// exact atoms that the solver cannot decide.
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
	if act == nil || t.Guard == nil || !mentionsAnyString(t.Guard) {
		return nil, nil
	}
	flows := false
	for _, as := range t.Assign {
		flows = flows || mentionsAnyString(as.Value)
	}
	var atoms []expr.Expr
	if !collectAtoms(t.Guard, &atoms) || len(atoms) == 0 || len(atoms) > maxFreeAtoms {
		return nil, nil
	}
	abs := &stringAbs{atoms: atoms}
	for i, at := range atoms {
		if !flows && paramsOnly(at) {
			abs.exact = append(abs.exact, i)
		}
	}
	if len(abs.exact) > maxStringAtoms {
		abs.exact = nil // all free: an over-approximation still
	}
	for v := 0; v < 1<<len(abs.exact); v++ {
		val := make([]bool, len(abs.exact))
		lits := make([]expr.Expr, len(abs.exact))
		for j, i := range abs.exact {
			val[j] = v&(1<<j) != 0
			lits[j] = atoms[i]
			if !val[j] {
				lits[j] = expr.NotOf(atoms[i])
			}
		}
		res, err := r.z.Sat(expr.AndOf(lits...))
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
// b<i>@step, conjoined with the feasible valuations of the exact atoms,
// and the link b<i>@step == atom<i> for choosing the step's values.
func (a *stringAbs) apply(g expr.Expr, step int) (expr.Expr, expr.Expr) {
	bs := make([]expr.Expr, len(a.atoms))
	links := make([]expr.Expr, len(a.atoms))
	for i, at := range a.atoms {
		bs[i] = &expr.Ident{Name: fmt.Sprintf("strtest%d@%d", i, step), Kind: expr.ParamIdent, T: expr.BoolType}
		links[i] = expr.Compare(expr.Eq, bs[i], at)
	}
	var vals []expr.Expr
	for _, val := range a.feasible {
		lits := make([]expr.Expr, len(val))
		for j, b := range val {
			lits[j] = bs[a.exact[j]]
			if !b {
				lits[j] = expr.NotOf(lits[j])
			}
		}
		vals = append(vals, expr.AndOf(lits...))
	}
	return expr.AndOf(a.replace(g, bs), expr.OrOf(vals...)), expr.AndOf(links...)
}

// replace returns g with the atoms replaced by bs.
func (a *stringAbs) replace(g expr.Expr, bs []expr.Expr) expr.Expr {
	for i, at := range a.atoms {
		if g == at {
			return bs[i]
		}
	}
	switch e := g.(type) {
	case *expr.Binary:
		if e.Op == expr.And || e.Op == expr.Or {
			return &expr.Binary{Op: e.Op, X: a.replace(e.X, bs), Y: a.replace(e.Y, bs), At: e.At}
		}
	case *expr.Unary:
		if e.Op == expr.Not {
			return &expr.Unary{Op: expr.Not, X: a.replace(e.X, bs), At: e.At}
		}
	}
	return g
}

// collectAtoms appends to atoms the maximal subformulas of the boolean
// structure of g (&&, ||, !) that mention a string; it reports false when
// one also calls a function.
func collectAtoms(g expr.Expr, atoms *[]expr.Expr) bool {
	switch e := g.(type) {
	case *expr.Binary:
		if e.Op == expr.And || e.Op == expr.Or {
			return collectAtoms(e.X, atoms) && collectAtoms(e.Y, atoms)
		}
	case *expr.Unary:
		if e.Op == expr.Not {
			return collectAtoms(e.X, atoms)
		}
	}
	if !mentionsAnyString(g) {
		return true
	}
	if hasCall(g) {
		return false
	}
	*atoms = append(*atoms, g)
	return true
}

// paramsOnly reports whether the atom mentions string parameters and
// constants only.
func paramsOnly(at expr.Expr) bool {
	ok := true
	expr.Inspect(at, func(n expr.Expr) {
		if id, isID := n.(*expr.Ident); isID && (id.Kind != expr.ParamIdent || id.T.Kind != expr.Str) {
			ok = false
		}
	})
	return ok
}

func hasStringParam(a *spec.Action) bool {
	for _, p := range a.Params {
		if p.Type.Kind == expr.Str {
			return true
		}
	}
	return false
}

// mentionsAnyString reports whether e mentions a string: an identifier
// or a constant.
func mentionsAnyString(e expr.Expr) bool {
	found := false
	expr.Inspect(e, func(n expr.Expr) {
		switch n := n.(type) {
		case *expr.Ident:
			found = found || n.T.Kind == expr.Str
		case *expr.StrLit:
			found = true
		}
	})
	return found
}
