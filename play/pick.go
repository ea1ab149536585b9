package play

import (
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// A Picker chooses the values of the parameters of a stimulus in a model
// of the assertions of a solver (the guard of the stimulus, or a goal
// toward a target, asserted by the caller, satisfiable), the one picker
// of both routes. For each parameter in random order it asks first for
// the value Prefer gives it (a solution that realises a path toward the
// target: steering), then, diversified by the run's random source, now
// and then for a boundary value of the linear comparisons of the
// constraints asserted (boundaryHints), else for a value equal to a
// random target, else, when the target lies outside what the constraints
// allow, near the allowed value nearest to it (nearest); sometimes it
// gives no hint, and a value no hint fixed is set to the allowed value
// nearest a random target (often the boundary of the guard). Every hint
// is kept only when the assertions stay satisfiable with it, so the
// values are always in a model of them. Strings come after the other
// parameters (Picker.Strings).
//
// Values are chosen by satisfiability alone, never read off a model where
// the assertions leave a choice: Z3's models depend on the history of its
// context, so values read off them would make a run depend on the runs
// before it; a satisfiability answer does not. The values are those of
// the equalities kept; a model is read only for a value they do not give
// (a real that no integer fits, a boundary over other unknowns, a string
// without Picker.Strings). A solver that answers unknown where a value
// was expected gives ErrUndecided. So the values depend on the seed and
// on the assertions alone.
type Picker struct {
	// Rng is the run's random source.
	Rng *rand.Rand
	// Random returns a random target of a type; nil: RandomValue.
	Random func(expr.Type) expr.Value
	// Prefer gives values to ask for first, by the parameter's name;
	// a value the assertions do not allow is passed over.
	Prefer map[string]expr.Value
	// Strings, when not nil, fixes the values of the string parameters
	// (the STG route's candidates, checked by exact evaluation), after
	// the others; without it a string's value is read off a model.
	Strings func(c *Choice, ids []*expr.Ident) error
}

// Pick returns values, in a model of the assertions of s (satisfiable),
// for ids; cons are the constraints asserted (for the boundary values
// and to name the constraint of an undecided parameter). The hints are
// asserted in scopes of s, all popped before Pick returns.
func (p Picker) Pick(s *solver.Solver, ids []*expr.Ident, cons []expr.Expr) (map[string]expr.Value, error) {
	c := &Choice{p: p, s: s, pinned: map[string]bool{}, vals: map[string]expr.Value{}, cons: cons, left: map[string]bool{}}
	defer func() { s.Pop(c.pushed) }()
	order := p.Rng.Perm(len(ids))
	for _, i := range order {
		if id := ids[i]; id.T != expr.StringType {
			if err := c.aim(id); err != nil {
				return nil, err
			}
		}
	}
	for _, id := range ids {
		if err := c.pin(id); err != nil {
			return nil, err
		}
	}
	if p.Strings != nil {
		var strs []*expr.Ident
		for _, i := range order {
			if ids[i].T == expr.StringType {
				strs = append(strs, ids[i])
			}
		}
		if err := p.Strings(c, strs); err != nil {
			return nil, err
		}
	}
	return c.values(ids)
}

// A Choice is a Pick under way: the hints kept, each asserted in a scope
// of its own, and the values they fix. Picker.Strings extends it.
type Choice struct {
	p      Picker
	s      *solver.Solver
	pushed int                   // the scopes of the hints kept
	pinned map[string]bool       // identifiers whose value a kept equality fixed
	vals   map[string]expr.Value // the values kept equalities (or forced) give, by name
	cons   []expr.Expr           // the constraints asserted
	left   map[string]bool       // identifiers left out of the values
}

// Known returns the values fixed so far, by name; the caller must not
// change it.
func (c *Choice) Known() map[string]expr.Value { return c.vals }

// Cons returns the constraints asserted.
func (c *Choice) Cons() []expr.Expr { return c.cons }

// Leave leaves id out of the values Pick returns: nothing decided it.
func (c *Choice) Leave(id *expr.Ident) { c.left[id.Name] = true }

// Keep asserts e, a hint known to keep the assertions satisfiable,
// without a check.
func (c *Choice) Keep(e expr.Expr) {
	c.s.Push()
	if err := c.s.Assert(e); err != nil {
		c.s.Pop(1)
		return
	}
	c.pushed++
	if id, v, ok := eqValue(e); ok {
		c.vals[id.Name] = v
	}
}

// Try asserts the first satisfiable hint of hs and keeps it; it returns
// its index, or -1 when none is satisfiable.
func (c *Choice) Try(hs []expr.Expr) (int, error) {
	for i, e := range hs {
		c.s.Push()
		ok, err := c.check(e)
		if err != nil || !ok {
			c.s.Pop(1)
			if err != nil {
				return -1, err
			}
			continue
		}
		c.pushed++
		if id, v, ok := eqValue(e); ok {
			c.vals[id.Name] = v
		}
		return i, nil
	}
	return -1, nil
}

// check asserts e in the current scope and reports whether the
// assertions are satisfiable.
func (c *Choice) check(e expr.Expr) (bool, error) {
	if err := c.s.Assert(e); err != nil {
		return false, err
	}
	res, err := c.s.Check()
	return res == solver.Sat, err
}

// sat reports whether e is satisfiable with the assertions, leaving them
// as they were.
func (c *Choice) sat(e expr.Expr) (bool, error) {
	c.s.Push()
	defer c.s.Pop(1)
	return c.check(e)
}

// values returns the values of ids: those the kept equalities fixed,
// the others read off a model of the assertions.
func (c *Choice) values(ids []*expr.Ident) (map[string]expr.Value, error) {
	vals := map[string]expr.Value{}
	var missing *expr.Ident
	for _, id := range ids {
		if v, ok := c.vals[id.Name]; ok {
			vals[id.Name] = v
		} else if !c.left[id.Name] {
			missing = id
		}
	}
	if missing == nil {
		return vals, nil
	}
	res, err := c.s.Check()
	if err != nil {
		return nil, err
	}
	if res != solver.Sat {
		return nil, Undecided(missing, c.cons)
	}
	m, err := c.s.Model()
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, ok := vals[id.Name]; ok || c.left[id.Name] {
			continue
		}
		if v, ok := m.Lookup(id.Kind, id.Name); ok {
			vals[id.Name] = v
		}
	}
	return vals, nil
}

// Undecided returns ErrUndecided for the identifier id under the
// constraints cons, naming the first conjunct that mentions it.
func Undecided(id *expr.Ident, cons []expr.Expr) error {
	for _, c := range cons {
		for _, cj := range expr.Conjuncts(c) {
			if expr.Mentions(cj, id.Kind, id.Name) {
				return fmt.Errorf("%s: %w for %s: %s", cj.Pos(), ErrUndecided, id.Name, expr.Format(cj))
			}
		}
	}
	return fmt.Errorf("%w for %s", ErrUndecided, id.Name)
}

// random returns a random target of type t.
func (c *Choice) random(t expr.Type) expr.Value {
	if c.p.Random != nil {
		return c.p.Random(t)
	}
	return RandomValue(c.p.Rng, t)
}

// aim asserts the hints for one identifier (see Picker).
func (c *Choice) aim(id *expr.Ident) error {
	if v, ok := c.p.Prefer[id.Name]; ok && v.T == id.T {
		if i, err := c.Try([]expr.Expr{expr.Compare(expr.Eq, id, v.Expr())}); err != nil || i == 0 {
			c.pinned[id.Name] = i == 0
			return err
		}
	}
	rng := c.p.Rng
	if rng.IntN(8) == 0 {
		return nil // no hint: pin chooses
	}
	if bs := boundaryHints(id, c.cons); len(bs) > 0 && rng.IntN(3) == 0 {
		rng.Shuffle(len(bs), func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
		if i, err := c.Try(bs); err != nil || i >= 0 {
			c.pinned[id.Name] = i >= 0
			return err
		}
	}
	target := c.random(id.T)
	if i, err := c.Try(hints(rng, id, target)[:1]); err != nil || i >= 0 {
		c.pinned[id.Name] = i >= 0
		return err
	}
	if !id.T.IsNumeric() {
		return nil
	}
	// The target lies outside what the guard allows: aim near the
	// allowed value nearest to it instead, unless the value is forced.
	if _, ok, err := c.Forced(id); err != nil || ok {
		c.pinned[id.Name] = ok
		return err
	}
	v, ok, err := c.nearest(id, target)
	if err != nil || !ok {
		return err
	}
	i, err := c.Try(hints(rng, id, Near(rng, v)))
	c.pinned[id.Name] = i == 0
	return err
}

// pin fixes the value of id when no hint did: for a number, the allowed
// value nearest a random target; for a Boolean or an enumeration, the
// first allowed value in random order.
func (c *Choice) pin(id *expr.Ident) error {
	if c.pinned[id.Name] {
		return nil
	}
	var cands []expr.Expr
	switch id.T.Kind {
	case expr.Int, expr.Real:
		if _, ok, err := c.Forced(id); err != nil || ok {
			return err
		}
		v, ok, err := c.nearest(id, c.random(id.T))
		if err != nil || !ok {
			return err
		}
		cands = []expr.Expr{expr.Compare(expr.Eq, id, v.Expr())}
	case expr.Bool:
		cands = []expr.Expr{expr.Compare(expr.Eq, id, expr.BoolConst(true)), expr.Compare(expr.Eq, id, expr.BoolConst(false))}
	case expr.EnumKind:
		for i := range id.T.Enum.Values {
			cands = append(cands, expr.Compare(expr.Eq, id, expr.EnumValue(id.T.Enum, i).Expr()))
		}
	default:
		return nil
	}
	c.p.Rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	i, err := c.Try(cands)
	c.pinned[id.Name] = i >= 0
	return err
}

// Forced returns the value of id when the assertions allow no other
// (an equality with values already fixed, say): a model's value, but
// the only one, so no search is needed.
func (c *Choice) Forced(id *expr.Ident) (expr.Value, bool, error) {
	res, err := c.s.Check()
	if err != nil || res != solver.Sat {
		return expr.Value{}, false, err
	}
	m, err := c.s.Model()
	if err != nil {
		return expr.Value{}, false, err
	}
	v, ok := m.Lookup(id.Kind, id.Name)
	if !ok {
		return expr.Value{}, false, nil
	}
	other, err := c.sat(expr.Compare(expr.Ne, id, v.Expr()))
	if other || err != nil {
		return v, false, err
	}
	c.vals[id.Name] = v
	return v, true, nil
}

// hints returns soft targets for the value of id, most specific first:
// for a number, equal to v, then at least or at most v (in random
// order); for any other type, equal to v.
func hints(rng *rand.Rand, id *expr.Ident, v expr.Value) []expr.Expr {
	target := v.Expr()
	eq := expr.Compare(expr.Eq, id, target)
	if !id.T.IsNumeric() {
		return []expr.Expr{eq}
	}
	ge := expr.Compare(expr.Ge, id, target)
	le := expr.Compare(expr.Le, id, target)
	if rng.IntN(2) == 0 {
		ge, le = le, ge
	}
	return []expr.Expr{eq, ge, le}
}

// eqValue returns id and v when e is the equality id == v of an
// identifier and a constant.
func eqValue(e expr.Expr) (*expr.Ident, expr.Value, bool) {
	b, ok := e.(*expr.Binary)
	if !ok || b.Op != expr.Eq {
		return nil, expr.Value{}, false
	}
	id, ok := b.X.(*expr.Ident)
	if !ok {
		return nil, expr.Value{}, false
	}
	ground := true
	expr.Inspect(b.Y, func(n expr.Expr) {
		switch n.(type) {
		case *expr.Ident, *expr.Call:
			ground = false
		}
	})
	if !ground {
		return nil, expr.Value{}, false
	}
	v, err := expr.Eval(b.Y, expr.Valuation{})
	return id, v, err == nil
}

// offset returns the constant d of type t (int or real).
func offset(t expr.Type, d int64) expr.Expr {
	if t.Kind == expr.Real {
		return expr.RatConst(big.NewRat(d, 1))
	}
	return expr.IntConst(d)
}
