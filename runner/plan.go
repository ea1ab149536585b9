package runner

import (
	"math/rand/v2"
	"slices"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// planner searches a path to Pass by bounded unrolling of the test case:
// step i renames every parameter p to p@i and every variable assigned at
// step i to x@i (or to its value, when the assignment is ground), and
// asserts the guard and the assignments; the variables' current values
// are constants. Iterative deepening from the control distance to Pass
// makes the first path found a shortest one, or with min > 0 a shortest
// one of at least min steps. The search makes at most budget solver
// checks, in a scope of the run's solver (execution.solver).
type planner struct {
	x      *execution
	s      *solver.Solver
	budget int
	min    int // the fewest steps of a path to accept
	length int // the steps of the path found

	// on holds the states of the path being explored: a path does not
	// come back to a state it was in, since a detour that changes
	// nothing is neither shorter nor new behaviour.
	on map[string]bool

	// path and trans hold the constraints asserted for the steps of the
	// path being explored (for the tables' hints, hintPath) and their
	// transitions.
	path  []expr.Expr
	trans []*spec.Transition

	// the path found: its transitions, its first transition and, for a
	// send, its values
	steps     []*spec.Transition
	first     *spec.Transition
	firstIDs  []*expr.Ident
	firstLink expr.Expr // the string tests of the first step (strabs.go), or nil
	firstVals map[string]expr.Value
}

// A route is the path to Pass a run follows: the transitions planned
// from the state the run was in after its first at steps.
type route struct {
	steps []*spec.Transition
	at    int
}

// plan returns the next send of the path to Pass that the strategy
// follows (Options.Plan: a shortest one, or a stretched one), or wait when
// that path goes on with a receive, or neither when there is no path
// within Options.Depth (or the budget).
//
// The path is searched once and then followed (follow) while the run
// keeps to it: only when the SUT's outputs lead elsewhere, or the rest of
// the path no longer holds from the state reached, does the tester search
// again.
func (x *execution) plan() (c *choice, wait bool, err error) {
	if c, wait, ok, err := x.follow(); err != nil || ok {
		return c, wait, err
	}
	x.route = nil
	p, err := x.diverse()
	if err == nil && p == nil {
		p, err = x.find(0)
	}
	if err != nil || p == nil {
		return nil, false, err
	}
	x.route = &route{steps: p.steps, at: len(x.taken)}
	return x.take(p)
}

// take returns the first step of the path p found: a send with the values
// chosen, or wait for a receive.
func (x *execution) take(p *planner) (c *choice, wait bool, err error) {
	a := x.r.tc.Action(p.first.Action)
	if a.Dir != spec.Send {
		return nil, true, nil
	}
	c, err = x.checked(p.first, a, p.firstIDs, p.firstVals, true)
	return c, false, err
}

// follow takes the next step of the run's route when the run has kept to
// it: the steps taken since it was planned are its first ones, and the
// rest of it is still a path to Pass from the state reached (asserted
// anew: the SUT's outputs may have put the variables elsewhere than the
// planning's model). ok is false when the run left the route, or when the
// Diverse strategy has room for its stretch now: the tester plans again.
func (x *execution) follow() (c *choice, wait, ok bool, err error) {
	rt := x.route
	if rt == nil {
		return nil, false, false, nil
	}
	k := len(x.taken) - rt.at
	if k <= 0 || k >= len(rt.steps) || rt.steps[k].From != x.cur.Loc || x.stretchDue(len(rt.steps)-k) {
		return nil, false, false, nil
	}
	for i, t := range rt.steps[:k] {
		if x.taken[rt.at+i] != t.Label() {
			return nil, false, false, nil
		}
	}
	if x.r.tc.Action(rt.steps[k].Action).Dir != spec.Send {
		return nil, true, true, nil
	}
	p, err := x.resume(rt.steps[k:])
	if err != nil || p == nil {
		return nil, false, false, err
	}
	c, _, err = x.take(p)
	return c, false, true, err
}

// resume asserts the path ts from the current state and, when it still
// holds (satisfiable), picks the values of its first send as find does.
func (x *execution) resume(ts []*spec.Transition) (*planner, error) {
	p := &planner{x: x, s: x.solver()}
	base := p.s.Scopes()
	p.s.Push()
	defer p.s.PopTo(base)
	if err := p.s.Assert(x.cur.PC); err != nil {
		return nil, err
	}
	vars := x.constants()
	for i, t := range ts {
		u, err := p.unroll(t, i+1, vars)
		if err != nil || expr.IsFalse(u.f) {
			return nil, err
		}
		if err := p.s.Assert(u.f); err != nil {
			return nil, err
		}
		if i == 0 {
			p.first, p.firstIDs, p.firstLink = t, u.ids, u.link
		}
		p.path = append(p.path, u.f)
		vars = u.next
	}
	if res, err := p.s.Check(); err != nil || res != solver.Sat {
		return nil, err
	}
	p.steps = ts
	return p, p.pickFirst()
}

// find searches a path to Pass from the current state of at least min
// steps (0: a shortest one) within Options.Depth; nil when there is none
// (or the budget ran out).
//
// The search draws from a random stream of its own, seeded by one draw
// from the run's: a search that the Runner's memo of states without a
// path (noPath, filled by earlier runs) skips draws as much from the
// run's stream as one that runs, so that a run depends on its seed alone.
func (x *execution) find(min int) (*planner, error) {
	r := x.r
	own := rand.New(rand.NewPCG(x.rng.Uint64(), 0x706c616e))
	key := x.cur.String()
	if r.noPath[key] {
		return nil, nil
	}
	defer func(run *rand.Rand) { x.rng = run }(x.rng)
	x.rng = own
	d, ok := r.dist[x.cur.Loc]
	if !ok || max(d, min) > r.opts.Depth {
		return nil, nil
	}
	budget := r.opts.PlanBudget
	if min > 0 {
		budget = max(budget/4, 1) // a stretch is worth less than a path
	}
	p := &planner{x: x, s: x.solver(), budget: budget, min: min}
	base := p.s.Scopes()
	p.s.Push()
	defer p.s.PopTo(base)
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

// pickFirst chooses the values of the path's first send (when it starts
// with a send), with the whole path asserted, steered toward the tables.
func (p *planner) pickFirst() error {
	x := p.x
	if x.r.tc.Action(p.first.Action).Dir != spec.Send {
		return nil
	}
	hinted, err := p.hintPath()
	if err != nil {
		return err
	}
	cons := p.path
	if p.firstLink != nil { // the strings of the first send themselves (strabs.go)
		p.s.Push()
		defer p.s.Pop(1)
		if err := p.s.Assert(p.firstLink); err != nil {
			return err
		}
		cons = append(slices.Clone(cons), p.firstLink)
	}
	vals, err := x.pick(p.s, p.firstIDs, cons)
	if hinted {
		p.s.Pop(1)
	}
	p.firstVals = vals
	return err
}

// search extends the path asserted in p.s, which ends in loc after depth
// steps, by at most bound-depth steps to a Pass location.
func (p *planner) search(loc string, depth, bound int, vars map[string]expr.Expr) (bool, error) {
	x := p.x
	tc := x.r.tc
	if tc.Verdict(loc) == "pass" {
		if depth == 0 || depth < p.min {
			return false, nil
		}
		p.length = depth
		p.steps = slices.Clone(p.trans)
		if err := p.pickFirst(); err != nil {
			return false, err
		}
		return true, nil
	}
	if depth >= bound {
		return false, nil
	}
	k := stateKey(loc, vars)
	if p.on[k] {
		return false, nil
	}
	if p.on == nil {
		p.on = map[string]bool{}
	}
	p.on[k] = true
	defer delete(p.on, k)
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
		if x.ctx != nil && x.ctx.Err() != nil {
			p.budget = 0 // out of time: give up, and remember nothing
		}
		if p.budget <= 0 {
			return false, nil
		}
		u, err := p.unroll(t, step, vars)
		if err != nil {
			return false, err
		}
		f := u.f
		if expr.IsFalse(f) {
			continue // decided on known values: no check
		}
		p.s.Push()
		res, err := p.extend(f, depth > 0)
		if err != nil {
			p.s.Pop(1)
			return false, err
		}
		if res == solver.Sat {
			if depth == 0 {
				p.first, p.firstIDs, p.firstLink = t, u.ids, u.link
			}
			p.path, p.trans = append(p.path, f), append(p.trans, t)
			found, err := p.search(t.To, step, bound, u.next)
			p.path, p.trans = p.path[:len(p.path)-1], p.trans[:len(p.trans)-1]
			if err != nil || found {
				p.s.Pop(1)
				return found, err
			}
		}
		p.s.Pop(1)
	}
	return false, nil
}

// extend asserts f, the constraint of the next step of the path, and
// checks the path, spending the budget; a step that adds nothing (f is
// true) after a path already checked (checked) needs no check.
func (p *planner) extend(f expr.Expr, checked bool) (solver.Result, error) {
	if b, ok := f.(*expr.BoolLit); ok && b.Val && checked {
		return solver.Sat, nil
	}
	if err := p.s.Assert(f); err != nil {
		return solver.Unknown, err
	}
	p.budget--
	return p.s.Check()
}

// A stepping is a transition unrolled at a step of a path: the
// constraint of the step, the renamed parameters, and the variables after
// it.
type stepping struct {
	f    expr.Expr
	ids  []*expr.Ident
	next map[string]expr.Expr
	link expr.Expr // with the string tests abstracted (strabs.go): their link, else nil
}

// unroll renames the parameters of t to p@step and the variables it
// assigns to x@step, from the variables vars (constants or expressions
// over earlier steps), and returns the constraint of the step: t's guard
// and its assignments. An assignment whose value is ground gives the
// variable that value, and a ground conjunct of the constraint is
// decided at once (symex.FoldGround): the state stays comparable
// (stateKey) and a guard on known values costs no check.
func (p *planner) unroll(t *spec.Transition, step int, vars map[string]expr.Expr) (stepping, error) {
	guard, link := t.Guard, expr.Expr(nil)
	abs, err := p.x.r.stringAbsOf(t)
	if err != nil {
		return stepping{}, err
	}
	u := unrollStep(p.x.r.tc, t, step, vars)
	if abs != nil {
		guard, link = abs.apply(t.Guard, step)
		link = expr.Substitute(link, vars, u.params)
	}
	f, err := p.constraint(append([]expr.Expr{expr.Substitute(guard, vars, u.params)}, u.assigns...))
	if err != nil {
		return stepping{}, err
	}
	return stepping{f: symex.FoldGround(f), ids: u.ids, next: u.next, link: link}, nil
}

// groundValue returns the value of e as a literal when e mentions no
// identifier and calls no function, and evaluates (no division by zero).
func groundValue(e expr.Expr) (expr.Expr, bool) {
	ground := true
	expr.Inspect(e, func(n expr.Expr) {
		switch n.(type) {
		case *expr.Ident, *expr.Call:
			ground = false
		}
	})
	if !ground {
		return nil, false
	}
	v, err := expr.Eval(e, expr.Valuation{})
	if err != nil {
		return nil, false
	}
	return v.Expr(), true
}
