package runner

import (
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// pick returns values, in a model of the assertions of s (satisfiable),
// for the identifiers ids, diversified by the run's random source: for
// each identifier in random order it asks, in turn, for a value equal to,
// at least or at most a random target, keeping the first hint that stays
// satisfiable. Now and then it asks first for a boundary value of the
// linear comparisons of cons (the constraints asserted: boundaryHints),
// and sometimes it gives no hint.
//
// Values are chosen by satisfiability alone, never read off a model where
// the assertions leave a choice: when a target lies outside what the
// constraints allow, the tester aims near the allowed value nearest to
// it (nearest), and a value no hint fixed is set to the allowed value
// nearest a random target (often the boundary of the guard, as the
// solver's own models tend to be). Z3's models depend on the history of
// its context (the terms made by earlier runs of the Runner), so values
// read off them would make a run depend on the runs before it; a
// satisfiability answer does not. (Strings, and reals that no integer
// fits, may still take the model's value.)
func (x *execution) pick(s *solver.Solver, ids []*spec.Ident, cons []spec.Expr) (map[string]spec.Value, error) {
	h := &hinter{x: x, s: s, pinned: map[string]bool{}}
	defer func() { s.Pop(h.pushed) }()
	for _, i := range x.rng.Perm(len(ids)) {
		id := ids[i]
		if id.T == spec.StringType { // strings.go: readable, diverse strings
			if err := x.pickString(h.tryAny, id); err != nil {
				return nil, err
			}
			continue
		}
		if err := h.aim(id, cons); err != nil {
			return nil, err
		}
	}
	for _, id := range ids {
		if err := h.pin(id); err != nil {
			return nil, err
		}
	}
	res, err := s.Check()
	if err != nil {
		return nil, err
	}
	if res != solver.Sat {
		return nil, fmt.Errorf("solver: %s after a satisfiable check", res)
	}
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	vals := map[string]spec.Value{}
	for _, id := range ids {
		if v, ok := lookup(m, id); ok {
			vals[id.Name] = v
		}
	}
	return vals, nil
}

// A hinter asserts the hints pick keeps, each in a scope of its own.
type hinter struct {
	x      *execution
	s      *solver.Solver
	pushed int             // the scopes of the hints kept
	pinned map[string]bool // identifiers whose value a kept equality fixed
}

// try asserts the first satisfiable hint of hs and keeps it; it returns
// its index, or -1 when none is satisfiable.
func (h *hinter) try(hs []spec.Expr) (int, error) {
	for i, e := range hs {
		h.s.Push()
		ok, err := h.check(e)
		if err != nil || !ok {
			h.s.Pop(1)
			if err != nil {
				return -1, err
			}
			continue
		}
		h.pushed++
		return i, nil
	}
	return -1, nil
}

// tryAny is try reporting only whether a hint was kept.
func (h *hinter) tryAny(hs []spec.Expr) (bool, error) {
	i, err := h.try(hs)
	return i >= 0, err
}

// check asserts e in the current scope and reports whether the
// assertions are satisfiable.
func (h *hinter) check(e spec.Expr) (bool, error) {
	if err := h.s.Assert(e); err != nil {
		return false, err
	}
	res, err := h.s.Check()
	return res == solver.Sat, err
}

// sat reports whether e is satisfiable with the assertions, leaving them
// as they were.
func (h *hinter) sat(e spec.Expr) (bool, error) {
	h.s.Push()
	defer h.s.Pop(1)
	return h.check(e)
}

// aim asserts the hints for one identifier (see pick).
func (h *hinter) aim(id *spec.Ident, cons []spec.Expr) error {
	x := h.x
	if x.rng.IntN(8) == 0 {
		return nil // no hint: pin chooses
	}
	if bs := boundaryHints(id, cons); len(bs) > 0 && x.rng.IntN(3) == 0 {
		x.rng.Shuffle(len(bs), func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
		if i, err := h.try(bs); err != nil || i >= 0 {
			h.pinned[id.Name] = i >= 0
			return err
		}
	}
	target := x.randomValue(id.T)
	if i, err := h.try(x.hints(id, target)[:1]); err != nil || i >= 0 {
		h.pinned[id.Name] = i >= 0
		return err
	}
	if !id.T.IsNumeric() {
		return nil
	}
	// The target lies outside what the guard allows: aim near the
	// allowed value nearest to it instead, unless the value is forced.
	if _, ok, err := h.forced(id); err != nil || ok {
		h.pinned[id.Name] = ok
		return err
	}
	v, ok, err := h.nearest(id, target)
	if err != nil || !ok {
		return err
	}
	i, err := h.try(x.hints(id, x.near(v)))
	h.pinned[id.Name] = i == 0
	return err
}

// pin fixes the value of id when no hint did: for a number, the allowed
// value nearest a random target; for a Boolean or an enumeration, the
// first allowed value in random order.
func (h *hinter) pin(id *spec.Ident) error {
	if h.pinned[id.Name] {
		return nil
	}
	x := h.x
	var cands []spec.Expr
	switch id.T.Kind {
	case spec.Int, spec.Real:
		if _, ok, err := h.forced(id); err != nil || ok {
			return err
		}
		v, ok, err := h.nearest(id, x.randomValue(id.T))
		if err != nil || !ok {
			return err
		}
		cands = []spec.Expr{spec.Compare(spec.Eq, id, v.Expr())}
	case spec.Bool:
		cands = []spec.Expr{spec.Compare(spec.Eq, id, spec.BoolConst(true)), spec.Compare(spec.Eq, id, spec.BoolConst(false))}
	case spec.EnumKind:
		for i := range id.T.Enum.Values {
			cands = append(cands, spec.Compare(spec.Eq, id, spec.EnumValue(id.T.Enum, i).Expr()))
		}
	default:
		return nil
	}
	x.rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	i, err := h.try(cands)
	h.pinned[id.Name] = i >= 0
	return err
}

// forced returns the value of id when the assertions allow no other
// (an equality with values already fixed, say): a model's value, but
// the only one, so no search is needed.
func (h *hinter) forced(id *spec.Ident) (spec.Value, bool, error) {
	res, err := h.s.Check()
	if err != nil || res != solver.Sat {
		return spec.Value{}, false, err
	}
	m, err := h.s.Model()
	if err != nil {
		return spec.Value{}, false, err
	}
	v, ok := lookup(m, id)
	if !ok {
		return spec.Value{}, false, nil
	}
	other, err := h.sat(spec.Compare(spec.Ne, id, v.Expr()))
	return v, !other && err == nil, err
}

// maxReach bounds how far from its target nearest looks: 2^40.
const maxReach = int64(1) << 40

// nearest returns the value at an integral distance from t nearest to t
// that the assertions allow for id, looking on both sides of t in random
// order; false when there is none within maxReach (for a real id, when
// no value at an integral distance from t is allowed). It gallops and
// then bisects on the distance: about 2 log2(distance) checks.
func (h *hinter) nearest(id *spec.Ident, t spec.Value) (spec.Value, bool, error) {
	dirs := []int64{1, -1}
	if h.x.rng.IntN(2) == 0 {
		dirs[0], dirs[1] = -1, 1
	}
	for _, dir := range dirs {
		at := func(d int64) spec.Expr { return spec.Arith(spec.Add, t.Expr(), offset(id.T, dir*d)) }
		within := func(d int64) spec.Expr { // a value between t and t+dir*d
			lo, hi := t.Expr(), at(d)
			if dir < 0 {
				lo, hi = hi, lo
			}
			return spec.AndOf(spec.Compare(spec.Ge, id, lo), spec.Compare(spec.Le, id, hi))
		}
		side := spec.Compare(spec.Ge, id, t.Expr())
		if dir < 0 {
			side = spec.Compare(spec.Le, id, t.Expr())
		}
		if ok, err := h.sat(side); err != nil || !ok {
			if err != nil {
				return spec.Value{}, false, err
			}
			continue
		}
		lo, hi := int64(-1), int64(0) // no value within lo; look up to hi
		for {
			ok, err := h.sat(within(hi))
			if err != nil {
				return spec.Value{}, false, err
			}
			if ok {
				break
			}
			if hi > maxReach {
				hi = -1
				break
			}
			lo, hi = hi, 2*hi+1
		}
		if hi < 0 {
			continue
		}
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			ok, err := h.sat(within(mid))
			if err != nil {
				return spec.Value{}, false, err
			}
			if ok {
				hi = mid
			} else {
				lo = mid
			}
		}
		v, err := spec.Eval(at(hi), spec.Valuation{})
		if err != nil {
			return spec.Value{}, false, err
		}
		return v, true, nil
	}
	return spec.Value{}, false, nil
}
