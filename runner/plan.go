package runner

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// choice is a send the tester has decided on.
type choice struct {
	t       *spec.Transition
	args    map[string]spec.Value
	planned bool
}

// next decides what the tester does in the current state: send (a
// choice) or wait for the SUT (nil). See the package documentation.
func (x *execution) next() (*choice, error) {
	vs, err := x.views()
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	x.cur = vs[0]
	x.curVals, x.ground = x.cur.Values()
	sends := x.r.sends[x.cur.Loc]
	if len(sends) == 0 {
		return nil, nil
	}
	if x.r.opts.Depth > 0 && x.r.opts.Plan != Walk {
		c, wait, err := x.plan()
		if err != nil {
			return nil, err
		}
		if c != nil || wait {
			return c, nil
		}
	}
	return x.randomSend(sends)
}

// randomSend picks an enabled send transition at random and values for
// its parameters; nil when no send is enabled.
func (x *execution) randomSend(sends []*spec.Transition) (*choice, error) {
	consts := x.constants()
	for _, i := range x.rng.Perm(len(sends)) {
		t := sends[i]
		a := x.r.tc.Action(t.Action)
		params := map[string]spec.Expr{}
		var ids []*spec.Ident
		for _, p := range a.Params {
			id := &spec.Ident{Name: p.Name, Kind: spec.ParamIdent, T: p.Type}
			params[p.Name] = id
			ids = append(ids, id)
		}
		// A guard that calls functions on the parameters is solved
		// with the calls uninterpreted: the values are then checked
		// exactly, and refused ones replaced (see calls.go).
		tries := 1
		if extfunc.HasCall(t.Guard) {
			tries = callTries
		}
		for range tries {
			c, next, err := x.trySend(t, a, consts, params, ids)
			if err != nil || c != nil {
				return c, err
			}
			if !next {
				break
			}
		}
	}
	return nil, nil
}

// callTries bounds the attempts at values for a send whose guard calls
// external functions.
const callTries = 8

// trySend makes one attempt at values for t; again is false when
// another attempt is pointless (t is disabled).
func (x *execution) trySend(t *spec.Transition, a *spec.Action, consts, params map[string]spec.Expr, ids []*spec.Ident) (c *choice, again bool, err error) {
	// Most guards admit a random small value, or read no parameter:
	// exact evaluation then decides without the solver.
	if c, decided, err := x.guess(t, a); err != nil || c != nil {
		return c, false, err
	} else if decided {
		return nil, false, nil
	}
	g, err := x.fold(spec.Substitute(t.Guard, consts, params))
	if err != nil {
		return nil, false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
	}
	guard := spec.AndOf(x.cur.PC, g)
	if spec.IsFalse(guard) {
		return nil, false, nil
	}
	s := x.r.z.NewSolver()
	args, ok, err := x.solveAndPick(s, guard, ids)
	s.Close()
	if err != nil || !ok {
		return nil, false, err
	}
	c, err = x.checked(t, a, ids, args, false)
	return c, true, err
}

// guess tries t with random small parameter values (the hint "equal to a
// random target" of pick, checked by exact evaluation). decided is true
// when t, having no parameters, is disabled.
func (x *execution) guess(t *spec.Transition, a *spec.Action) (c *choice, decided bool, err error) {
	if !x.ground || len(a.Params) > 0 && x.rng.IntN(8) == 0 {
		return nil, false, nil // leave it to the solver: a boundary value
	}
	args := make(map[string]spec.Value, len(a.Params))
	for _, p := range a.Params {
		args[p.Name] = x.randomValue(p.Type)
	}
	ok, err := spec.EvalBool(t.Guard, x.env(x.curVals, args))
	if err != nil {
		// Say a division by zero for these values, or a call that
		// fails: ask the solver (allows reports the call's error).
		return nil, false, nil
	}
	if ok {
		return &choice{t: t, args: args}, true, nil
	}
	return nil, len(a.Params) == 0, nil
}

func (x *execution) solveAndPick(s *solver.Solver, guard spec.Expr, ids []*spec.Ident) (map[string]spec.Value, bool, error) {
	if err := s.Assert(guard); err != nil {
		return nil, false, err
	}
	res, err := s.Check()
	if err != nil || res != solver.Sat {
		return nil, false, err
	}
	vals, err := x.pick(s, ids, []spec.Expr{guard})
	return vals, err == nil, err
}

// checked turns solver values for the parameters ids of t into a choice,
// after checking exactly that they satisfy t's guard (a safeguard: the
// tester must never send what the test case does not allow).
func (x *execution) checked(t *spec.Transition, a *spec.Action, ids []*spec.Ident, vals map[string]spec.Value, planned bool) (*choice, error) {
	args := map[string]spec.Value{}
	for i, p := range a.Params {
		v, ok := vals[ids[i].Name]
		if !ok {
			v = x.randomValue(p.Type)
		}
		args[p.Name] = v
	}
	ok, err := x.allows(t, args)
	if err != nil {
		return nil, err
	}
	if !ok {
		// The solver's reals or integer division disagree with exact
		// evaluation (only possible in a non-linear guard): skip.
		return nil, nil
	}
	return &choice{t: t, args: args, planned: planned}, nil
}

// allows reports whether t with the parameter values args may fire in
// the state the tester plans from (exactly, when that state is known).
func (x *execution) allows(t *spec.Transition, args map[string]spec.Value) (bool, error) {
	if x.ground {
		ok, err := spec.EvalBool(t.Guard, x.env(x.curVals, args))
		if err != nil {
			return false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
		}
		return ok, nil
	}
	params := make(map[string]spec.Expr, len(args))
	for k, v := range args {
		params[k] = v.Expr()
	}
	g, err := x.fold(x.cur.Substitute(t.Guard, params))
	if err != nil {
		return false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
	}
	truth, err := x.cur.Decide(x.r.z, g)
	if err != nil {
		return false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
	}
	return truth != symex.Never, nil
}

// constants maps the variables to their values in the state the tester
// plans from: constants, or expressions over symbols.
func (x *execution) constants() map[string]spec.Expr { return x.cur.Vars }

// pick returns values, in a model of the assertions of s (satisfiable),
// for the identifiers ids, diversified by the run's random source: for
// each identifier in random order it asks, in turn, for a value equal to,
// at least or at most a random target, keeping the first hint that stays
// satisfiable. Now and then it asks first for a boundary value of the
// linear comparisons of cons (the constraints asserted: boundaryHints).
// Sometimes it gives no hint, and the solver's own model, typically on
// the boundary of the guard, is taken.
func (x *execution) pick(s *solver.Solver, ids []*spec.Ident, cons []spec.Expr) (map[string]spec.Value, error) {
	pushed := 0
	defer func() {
		if pushed > 0 {
			s.Pop(pushed)
		}
	}()
	// try asserts the first satisfiable hint of hs and keeps it.
	try := func(hs []spec.Expr) (bool, error) {
		for _, h := range hs {
			s.Push()
			if err := s.Assert(h); err != nil {
				s.Pop(1)
				return false, err
			}
			res, err := s.Check()
			if err != nil {
				s.Pop(1)
				return false, err
			}
			if res == solver.Sat {
				pushed++
				return true, nil
			}
			s.Pop(1)
		}
		return false, nil
	}
	for _, i := range x.rng.Perm(len(ids)) {
		id := ids[i]
		if id.T == spec.StringType { // strings.go: readable, diverse strings
			if err := x.pickString(try, id); err != nil {
				return nil, err
			}
			continue
		}
		if x.rng.IntN(8) == 0 {
			continue
		}
		if bs := boundaryHints(id, cons); len(bs) > 0 && x.rng.IntN(3) == 0 {
			x.rng.Shuffle(len(bs), func(i, j int) { bs[i], bs[j] = bs[j], bs[i] })
			ok, err := try(bs)
			if err != nil {
				return nil, err
			}
			if ok {
				continue
			}
		}
		ok, err := try(x.hints(id, x.randomValue(id.T))[:1])
		if err != nil {
			return nil, err
		}
		if ok || !id.T.IsNumeric() {
			continue
		}
		// The target lies outside what the guard allows: aim near a
		// value it allows instead.
		if res, err := s.Check(); err != nil || res != solver.Sat {
			return nil, fmt.Errorf("solver: %v %v after a satisfiable check", res, err)
		}
		m, err := s.Model()
		if err != nil {
			return nil, err
		}
		if v, ok := lookup(m, id); ok {
			if _, err := try(x.hints(id, x.near(v))); err != nil {
				return nil, err
			}
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

func lookup(m spec.Valuation, id *spec.Ident) (spec.Value, bool) {
	if id.Kind == spec.ParamIdent {
		v, ok := m.Params[id.Name]
		return v, ok
	}
	v, ok := m.Vars[id.Name]
	return v, ok
}

// near returns a random number a small distance from v.
func (x *execution) near(v spec.Value) spec.Value {
	d := x.rng.Int64N(41) - 10
	switch v.T.Kind {
	case spec.Int:
		return spec.IntValue(new(big.Int).Add(v.Int, big.NewInt(d)))
	case spec.Real:
		return spec.RatValue(new(big.Rat).Add(v.Rat, big.NewRat(d, []int64{1, 2, 4}[x.rng.IntN(3)])))
	}
	return v
}

// hints returns soft targets for the value of id, most specific first:
// equal to target, then at least or at most target.
func (x *execution) hints(id *spec.Ident, v spec.Value) []spec.Expr {
	rng := x.rng
	target := v.Expr()
	switch id.T.Kind {
	case spec.Int, spec.Real:
		eq := spec.Compare(spec.Eq, id, target)
		ge := spec.Compare(spec.Ge, id, target)
		le := spec.Compare(spec.Le, id, target)
		if rng.IntN(2) == 0 {
			ge, le = le, ge
		}
		return []spec.Expr{eq, ge, le}
	case spec.Bool, spec.EnumKind:
		return []spec.Expr{spec.Compare(spec.Eq, id, target)}
	}
	return nil
}

// randomValue returns a random value of type t, of small magnitude:
// mostly within [-10, 20], sometimes within ±100, rarely within ±1000.
func (x *execution) randomValue(t spec.Type) spec.Value {
	rng := x.rng
	var n int64
	switch k := rng.IntN(20); {
	case k < 14:
		n = rng.Int64N(31) - 10
	case k < 19:
		n = rng.Int64N(201) - 100
	default:
		n = rng.Int64N(2001) - 1000
	}
	switch t.Kind {
	case spec.Int:
		return spec.IntValue(big.NewInt(n))
	case spec.Real:
		d := []int64{1, 1, 2, 4, 10}[rng.IntN(5)]
		return spec.RatValue(big.NewRat(n, d))
	case spec.Bool:
		return spec.BoolValue(rng.IntN(2) == 0)
	case spec.EnumKind:
		return spec.EnumValue(t.Enum, rng.IntN(len(t.Enum.Values)))
	}
	return spec.Zero(t)
}

// planner searches a path to Pass by bounded unrolling of the test case:
// step i renames every parameter p to p@i and every variable assigned at
// step i to x@i, and asserts the guard and the assignments; the variables'
// current values are constants. Iterative deepening from the control
// distance to Pass makes the first path found a shortest one, or with
// min > 0 a shortest one of at least min steps. The search makes at most
// budget solver checks.
type planner struct {
	x      *execution
	s      *solver.Solver
	budget int
	min    int // the fewest steps of a path to accept
	length int // the steps of the path found

	// on holds the states of the path being explored, for a stretched
	// path (min > 0), which does not come back to a state it was in: a
	// detour that changes nothing is no new behaviour.
	on map[string]bool

	// path holds the constraints asserted for the steps of the path
	// being explored, for the tables' hints (hintPath).
	path []spec.Expr

	// the path found: its first transition and, for a send, its values
	first     *spec.Transition
	firstIDs  []*spec.Ident
	firstVals map[string]spec.Value
}

// plan returns the first send of the path to Pass that the strategy
// follows (Options.Plan: a shortest one, or a stretched one), or wait when
// that path starts with a receive, or neither when there is no path
// within Options.Depth (or the budget).
func (x *execution) plan() (c *choice, wait bool, err error) {
	p, err := x.diverse()
	if err == nil && p == nil {
		p, err = x.find(0)
	}
	if err != nil || p == nil {
		return nil, false, err
	}
	a := x.r.tc.Action(p.first.Action)
	if a.Dir != spec.Send {
		return nil, true, nil
	}
	c, err = x.checked(p.first, a, p.firstIDs, p.firstVals, true)
	return c, false, err
}

// find searches a path to Pass from the current state of at least min
// steps (0: a shortest one) within Options.Depth; nil when there is none
// (or the budget ran out).
func (x *execution) find(min int) (*planner, error) {
	r := x.r
	key := x.cur.String()
	if r.noPath[key] {
		return nil, nil
	}
	d, ok := r.dist[x.cur.Loc]
	if !ok || max(d, min) > r.opts.Depth {
		return nil, nil
	}
	budget := r.opts.PlanBudget
	if min > 0 {
		budget = max(budget/4, 1) // a stretch is worth less than a path
	}
	p := &planner{x: x, s: r.z.NewSolver(), budget: budget, min: min}
	defer p.s.Close()
	if err := p.s.Assert(x.cur.PC); err != nil {
		return nil, err
	}
	found := false
	for bound := max(d, 1, min); bound <= r.opts.Depth && !found && p.budget > 0; bound++ {
		var err error
		found, err = p.search(x.cur.Loc, 0, bound, x.constants())
		if err != nil {
			return nil, err
		}
	}
	if !found {
		if p.budget > 0 && min == 0 {
			if len(r.noPath) >= 1<<14 {
				clear(r.noPath)
			}
			r.noPath[key] = true
		}
		return nil, nil
	}
	return p, nil
}

// search extends the path asserted in p.s, which ends in loc after depth
// steps, by at most bound-depth steps to a Pass location.
func (p *planner) search(loc string, depth, bound int, vars map[string]spec.Expr) (bool, error) {
	x := p.x
	tc := x.r.tc
	if tc.Verdict(loc) == "pass" {
		if depth == 0 || depth < p.min {
			return false, nil
		}
		p.length = depth
		if tc.Action(p.first.Action).Dir == spec.Send {
			// Choose the values of the first send now, with the
			// whole path asserted, steered toward the tables.
			hinted, err := p.hintPath()
			if err != nil {
				return false, err
			}
			vals, err := x.pick(p.s, p.firstIDs, p.path)
			if hinted {
				p.s.Pop(1)
			}
			if err != nil {
				return false, err
			}
			p.firstVals = vals
		}
		return true, nil
	}
	if depth >= bound {
		return false, nil
	}
	if p.min > 0 {
		k := stateKey(loc, vars)
		if p.on[k] {
			return false, nil
		}
		if p.on == nil {
			p.on = map[string]bool{}
		}
		p.on[k] = true
		defer delete(p.on, k)
	}
	var ts []*spec.Transition
	for _, t := range tc.Outgoing(loc) {
		d, ok := x.r.dist[t.To]
		if !ok || depth+1+d > bound || d == 0 && depth+1 < p.min {
			continue // too far from Pass, or at Pass too early
		}
		if p.min > 0 && (t.Action == spec.Delta && t.To == t.From || x.r.racy(t)) {
			continue // no new behaviour, or a send that may cross an output
		}
		ts = append(ts, t)
	}
	// Nearest targets first; ties in random order, for diversity. A
	// stretched path (min > 0) takes them in random order.
	x.rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
	if p.min == 0 {
		slices.SortStableFunc(ts, func(a, b *spec.Transition) int { return x.r.dist[a.To] - x.r.dist[b.To] })
	}
	step := depth + 1
	for _, t := range ts {
		if x.ctx.Err() != nil {
			p.budget = 0 // out of time: give up, and remember nothing
		}
		if p.budget <= 0 {
			return false, nil
		}
		p.budget--
		a := tc.Action(t.Action)
		params := map[string]spec.Expr{}
		var ids []*spec.Ident
		for _, pa := range a.Params {
			id := &spec.Ident{Name: fmt.Sprintf("%s@%d", pa.Name, step), Kind: spec.ParamIdent, T: pa.Type}
			params[pa.Name] = id
			ids = append(ids, id)
		}
		cons := []spec.Expr{spec.Substitute(t.Guard, vars, params)}
		next := vars
		if tc.Verdict(t.To) != "pass" && len(t.Assign) > 0 {
			next = make(map[string]spec.Expr, len(vars))
			for k, v := range vars {
				next[k] = v
			}
			for _, as := range t.Assign {
				v := tc.Variable(as.Var)
				fresh := &spec.Ident{Name: fmt.Sprintf("%s@%d", as.Var, step), Kind: spec.VarIdent, T: v.Type}
				cons = append(cons, spec.Compare(spec.Eq, fresh, spec.Substitute(as.Value, vars, params)))
				next[as.Var] = fresh
			}
		}
		f, err := p.constraint(cons)
		if err != nil {
			return false, err
		}
		if spec.IsFalse(f) {
			continue
		}
		p.s.Push()
		if err := p.s.Assert(f); err != nil {
			p.s.Pop(1)
			return false, err
		}
		res, err := p.s.Check()
		if err != nil {
			p.s.Pop(1)
			return false, err
		}
		if res == solver.Sat {
			if depth == 0 {
				p.first, p.firstIDs = t, ids
			}
			p.path = append(p.path, f)
			found, err := p.search(t.To, step, bound, next)
			p.path = p.path[:len(p.path)-1]
			if err != nil || found {
				p.s.Pop(1)
				return found, err
			}
		}
		p.s.Pop(1)
	}
	return false, nil
}
