package runner

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// ErrUndecided is the error (wrapped, with the position of the guard
// and the parameter) of a choice of values that nothing decides: every
// candidate refuted or left undecided, and the solver unknown. A run
// that meets it ends Inconc naming the guard, never Fail: the test case
// may allow values the tester could not find.
var ErrUndecided = play.ErrUndecided

// undecided returns ErrUndecided for the identifier id under cons,
// naming the first constraint on it.
func undecided(id *spec.Ident, cons []spec.Expr) error {
	for _, c := range cons {
		for _, cj := range spec.Conjuncts(c) {
			if spec.Mentions(cj, id.Kind, id.Name) {
				return fmt.Errorf("%s: %w for %s: %s", cj.Pos(), ErrUndecided, id.Name, spec.Format(cj))
			}
		}
	}
	return fmt.Errorf("%w for %s", ErrUndecided, id.Name)
}

// pick returns values, in a model of the assertions of s (satisfiable),
// for the identifiers ids, diversified by the run's random source: for
// each identifier in random order it asks, in turn, for a value equal to,
// at least or at most a random target, keeping the first hint that stays
// satisfiable. Now and then it asks first for a boundary value of the
// linear comparisons of cons (the constraints asserted: boundaryHints),
// and sometimes it gives no hint. Strings come after the other
// identifiers, from candidates checked by exact evaluation first
// (strings.go, pickString).
//
// Values are chosen by satisfiability alone, never read off a model where
// the assertions leave a choice: when a target lies outside what the
// constraints allow, the tester aims near the allowed value nearest to
// it (nearest), and a value no hint fixed is set to the allowed value
// nearest a random target (often the boundary of the guard, as the
// solver's own models tend to be). Z3's models depend on the history of
// its context (the terms made by earlier runs of the Runner), so values
// read off them would make a run depend on the runs before it; a
// satisfiability answer does not. The values are those of the
// equalities kept; a model is read only for a value they do not give
// (a real that no integer fits, a boundary over other unknowns). A
// solver that answers unknown where a value was expected gives
// ErrUndecided.
//
// pick serves planning: a string that nothing decides is left out of
// the values (the send is then checked, refused, and the tester sends
// at random: the path was an over-approximation, strabs.go);
// pickStrict reports it with ErrUndecided.
func (x *execution) pick(s *solver.Solver, ids []*spec.Ident, cons []spec.Expr) (map[string]spec.Value, error) {
	vals, err := x.pickValues(s, ids, cons, false)
	return vals, err
}

// pickStrict is pick reporting a string nothing decides (ErrUndecided).
func (x *execution) pickStrict(s *solver.Solver, ids []*spec.Ident, cons []spec.Expr) (map[string]spec.Value, error) {
	return x.pickValues(s, ids, cons, true)
}

func (x *execution) pickValues(s *solver.Solver, ids []*spec.Ident, cons []spec.Expr, strict bool) (map[string]spec.Value, error) {
	h := &hinter{x: x, s: s, pinned: map[string]bool{}, vals: map[string]spec.Value{}, cons: cons, left: map[string]bool{}, strict: strict}
	defer func() { s.Pop(h.pushed) }()
	order := x.rng.Perm(len(ids))
	for _, i := range order {
		if id := ids[i]; id.T != spec.StringType {
			if err := h.aim(id, cons); err != nil {
				return nil, err
			}
		}
	}
	for _, id := range ids {
		if err := h.pin(id); err != nil {
			return nil, err
		}
	}
	var strs []*spec.Ident
	for _, i := range order {
		if ids[i].T == spec.StringType {
			strs = append(strs, ids[i])
		}
	}
	if err := h.pickStrings(strs, strict); err != nil {
		return nil, err
	}
	return h.values(ids)
}

// pickStrings fixes the values of the strings ids: all at once when
// exact evaluation finds values that hold (searchStrings), else one by
// one with the solver's help (pickString). Without strict, a string
// nothing decides is left out.
func (h *hinter) pickStrings(ids []*spec.Ident, strict bool) error {
	budget := maxJointCands
	if assign := map[string]spec.Value{}; len(ids) > 0 && h.searchStrings(ids, assign, &budget) {
		for _, id := range ids {
			h.keep(spec.Compare(spec.Eq, id, assign[id.Name].Expr()))
		}
		return nil
	}
	for _, id := range ids {
		err := h.pickString(id)
		if !strict && errors.Is(err, ErrUndecided) {
			h.left[id.Name] = true
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// values returns the values of ids: those the kept equalities fixed,
// the others read off a model of the assertions.
func (h *hinter) values(ids []*spec.Ident) (map[string]spec.Value, error) {
	vals := map[string]spec.Value{}
	var missing *spec.Ident
	for _, id := range ids {
		if v, ok := h.vals[id.Name]; ok {
			vals[id.Name] = v
		} else if !h.left[id.Name] {
			missing = id
		}
	}
	if missing == nil {
		return vals, nil
	}
	res, err := h.s.Check()
	if err != nil {
		return nil, err
	}
	if res != solver.Sat {
		return nil, undecided(missing, h.cons)
	}
	m, err := h.s.Model()
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := vals[id.Name]; ok || h.left[id.Name] {
			continue
		}
		if v, ok := lookup(m, id); ok {
			vals[id.Name] = v
		}
	}
	return vals, nil
}

// pickString fixes the value of the string id: the first candidate
// (stringCandidates) that exact evaluation does not refute and the
// solver finds satisfiable; an unknown answer moves on to the next
// candidate. Without one, a value the assertions force (pickStrict
// only: planning leaves the choice to the random send, which asks), else
// ErrUndecided.
func (h *hinter) pickString(id *spec.Ident) error {
	checks := 0
	for _, c := range h.x.stringCandidates(id, h.cons, h.vals) {
		v := spec.StringValue(c)
		eq := spec.Compare(spec.Eq, id, v.Expr())
		switch exactly(h.exactCons(), h.vals, id, v) {
		case refuted:
			continue
		case holds: // every constraint true: no check needed
			h.keep(eq)
			return nil
		}
		if checks++; checks > maxSolverCands {
			break
		}
		i, err := h.try([]spec.Expr{eq})
		if err != nil {
			return err
		}
		if i == 0 {
			return nil
		}
	}
	if !h.strict { // planning: the random send tries again
		return undecided(id, h.cons)
	}
	if _, ok, err := h.forced(id); err != nil || ok {
		return err
	}
	return undecided(id, h.cons)
}

// maxJointCands bounds the candidates searchStrings tries.
const maxJointCands = 96

// searchStrings looks, by exact evaluation alone, for values of the
// strings ids (in assign) with which every constraint they bear on
// holds: candidates of each in turn, those of the later ones made with
// the earlier ones known (first[0:1] == last[0:1] then gives last its
// first byte), a branch cut as soon as exact evaluation refutes it.
func (h *hinter) searchStrings(ids []*spec.Ident, assign map[string]spec.Value, budget *int) bool {
	cons := h.exactCons()
	if len(ids) == 0 {
		return exactlyAll(cons, h.vals, assign) == holds
	}
	known := make(map[string]spec.Value, len(h.vals)+len(assign))
	for k, v := range h.vals {
		known[k] = v
	}
	for k, v := range assign {
		known[k] = v
	}
	id := ids[0]
	for i, c := range h.x.stringCandidates(id, h.cons, known) {
		if *budget <= 0 || len(ids) > 1 && i >= 8 {
			break
		}
		*budget--
		assign[id.Name] = spec.StringValue(c)
		if exactlyAll(cons, h.vals, assign) != refuted && h.searchStrings(ids[1:], assign, budget) {
			return true
		}
		delete(assign, id.Name)
	}
	return false
}

// maxSolverCands bounds the candidates for one string that the solver
// is asked about (each check may take up to Options.SolverTimeout).
const maxSolverCands = 6

// An exactTruth is what exact evaluation tells of constraints.
type exactTruth int

const (
	open    exactTruth = iota // some constraint the candidate bears on has unknowns
	refuted                   // some constraint is false
	holds                     // every constraint the candidate bears on is true
)

// exactly evaluates cons with id = v and the values known: each
// conjunct whose identifiers all get values (from known, v, and the
// equalities x == e whose e gets a value: msg@2 == "Dear " + name@1).
//
// The values known were confirmed with the assertions (a satisfiable
// check, or this very test): a model of the assertions agrees with them
// and with what equalities propagate from them. When every conjunct
// that mentions an identifier valued only thanks to id = v is true,
// that model with those identifiers changed is a model still: the
// assertions stay satisfiable with id = v (holds), provided cons hold
// every assertion that mentions those identifiers (exactCons).
func exactly(cons []spec.Expr, known map[string]spec.Value, id *spec.Ident, v spec.Value) exactTruth {
	return exactlyAll(cons, known, map[string]spec.Value{id.Name: v})
}

// exactlyAll is exactly for several values at once (by name).
func exactlyAll(cons []spec.Expr, known, assign map[string]spec.Value) exactTruth {
	var conj []spec.Expr
	for _, c := range cons {
		conj = append(conj, spec.Conjuncts(c)...)
	}
	before := propagate(conj, known, nil)
	vals := propagate(conj, known, assign)
	truth := holds
	for _, c := range conj {
		w, ok := evalKnown(c, vals)
		switch {
		case ok && w.T == spec.BoolType && !w.Bool:
			return refuted
		case !ok && mentionsNew(c, vals, before):
			truth = open
		}
	}
	return truth
}

// propagate returns known, assign, and the values the equalities x == e
// of conj give x once e has a value, to a fixpoint.
func propagate(conj []spec.Expr, known, assign map[string]spec.Value) map[string]spec.Value {
	vals := make(map[string]spec.Value, len(known)+len(assign))
	for k, w := range known {
		vals[k] = w
	}
	for k, w := range assign {
		vals[k] = w
	}
	for changed := true; changed; {
		changed = false
		for _, c := range conj {
			b, ok := c.(*spec.Binary)
			if !ok || b.Op != spec.Eq {
				continue
			}
			for _, sides := range [][2]spec.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				u, ok := sides[0].(*spec.Ident)
				if !ok {
					continue
				}
				if _, has := vals[u.Name]; has {
					continue
				}
				if w, ok := evalKnown(sides[1], vals); ok {
					vals[u.Name], changed = w, true
				}
			}
		}
	}
	return vals
}

// mentionsNew reports whether c mentions an identifier valued in vals
// and not in before.
func mentionsNew(c spec.Expr, vals, before map[string]spec.Value) bool {
	found := false
	spec.Inspect(c, func(n spec.Expr) {
		if u, ok := n.(*spec.Ident); ok {
			_, now := vals[u.Name]
			_, then := before[u.Name]
			found = found || now && !then
		}
	})
	return found
}

// exactCons returns the constraints exact evaluation judges a candidate
// by: cons and the path condition of the state planned from (asserted
// too, and what it says of a symbol that an equality gives a value
// counts).
func (h *hinter) exactCons() []spec.Expr {
	if h.x.cur == nil || h.x.cur.PC == nil {
		return h.cons
	}
	return append([]spec.Expr{h.x.cur.PC}, h.cons...)
}

// keep asserts e, a hint known to keep the assertions satisfiable,
// without a check.
func (h *hinter) keep(e spec.Expr) {
	h.s.Push()
	if err := h.s.Assert(e); err != nil {
		h.s.Pop(1)
		return
	}
	h.pushed++
	if id, v, ok := eqValue(e); ok {
		h.vals[id.Name] = v
	}
}

// A hinter asserts the hints pick keeps, each in a scope of its own.
type hinter struct {
	x      *execution
	s      *solver.Solver
	pushed int                   // the scopes of the hints kept
	pinned map[string]bool       // identifiers whose value a kept equality fixed
	vals   map[string]spec.Value // the values kept equalities (or forced) give, by name
	cons   []spec.Expr           // the constraints asserted
	left   map[string]bool       // strings nothing decided (pick leaves them out)
	strict bool                  // pickStrict: a value the assertions force is looked for
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
		if id, v, ok := eqValue(e); ok {
			h.vals[id.Name] = v
		}
		return i, nil
	}
	return -1, nil
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
	if other || err != nil {
		return v, false, err
	}
	h.vals[id.Name] = v
	return v, true, nil
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

// eqValue returns id and v when e is the equality id == v of an
// identifier and a constant.
func eqValue(e spec.Expr) (*spec.Ident, spec.Value, bool) {
	b, ok := e.(*spec.Binary)
	if !ok || b.Op != spec.Eq {
		return nil, spec.Value{}, false
	}
	id, ok := b.X.(*spec.Ident)
	if !ok {
		return nil, spec.Value{}, false
	}
	v, ok := evalKnown(b.Y, nil)
	return id, v, ok
}
