package runner

import (
	"fmt"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// External functions (calls F(a, b) in guards and assignments) are
// evaluated by Options.Funcs, their reference implementation and tables
// (package extfunc). The strategy keeps the verdicts sound:
//
//   - A call whose arguments are known (the state is ground, or the
//     values have been observed or chosen) is evaluated exactly, before
//     the guard is judged or the assignment made: explanations are
//     dropped only on exact values.
//   - A call over values still unknown (a symbol of the initial state)
//     stays a call, which the solver treats as an uninterpreted function:
//     an over-approximation, so that a guard is Never or Always only
//     when it is whatever the function's values.
//   - Values to send are chosen first, by the solver with the calls
//     uninterpreted, and then checked exactly with the calls evaluated
//     (checked, allows): the tester sends only what the guard allows
//     with the function's real values; values the check refuses are
//     dropped and others tried.
//   - Planning steers the values toward the tables: the rows are facts
//     for the solver (F(row) == result), and the values of the first
//     send of a path to Pass are picked, when possible, so that the
//     path's calls are rows (the summaries Sum of the function-summaries
//     paper): the functions' values are then known, and the path is
//     likelier to be taken.
//   - A call that cannot be evaluated (no row, no implementation, a
//     crash or a timeout) ends the run with an error naming the call,
//     never with a verdict.

// env returns the environment of exact evaluation: vars and params, and
// the calls through Options.Funcs.
func (x *execution) env(vars, params map[string]expr.Value) expr.Env {
	v := expr.Valuation{Vars: vars, Params: params}
	if x.r.opts.Funcs == nil {
		return v
	}
	return x.r.opts.Funcs.Env(v)
}

// fold evaluates the calls of e whose arguments are constants.
func (x *execution) fold(e expr.Expr) (expr.Expr, error) {
	if x.r.opts.Funcs == nil {
		return e, nil
	}
	return extfunc.Fold(e, x.r.opts.Funcs)
}

// callsIn reports whether t's assignments call an external function.
func callsIn(t *spec.Transition) bool {
	for _, as := range t.Assign {
		if extfunc.HasCall(as.Value) {
			return true
		}
	}
	return false
}

// evaluated returns t with the assignments that call functions replaced
// by their values in vals and args (for State.FireValues, which
// evaluates without functions).
func (x *execution) evaluated(t *spec.Transition, vals, args map[string]expr.Value) (*spec.Transition, error) {
	if x.r.opts.Funcs == nil || !callsIn(t) {
		return t, nil
	}
	c := *t
	c.Assign = make([]spec.Assignment, len(t.Assign))
	env := x.env(vals, args)
	for i, as := range t.Assign {
		c.Assign[i] = as
		if !extfunc.HasCall(as.Value) {
			continue
		}
		v, err := expr.Eval(as.Value, env)
		if err != nil {
			return nil, fmt.Errorf("%s: assignment %s := %s: %v", as.Pos, as.Var, expr.Format(as.Value), err)
		}
		c.Assign[i].Value = v.Expr()
	}
	return &c, nil
}

// folded returns t with the assignments that call functions substituted
// in st (and params) and their ground calls evaluated (for State.Fire,
// which substitutes again: a no-op on the result).
func (x *execution) folded(st *symex.State, t *spec.Transition, params map[string]expr.Expr) (*spec.Transition, error) {
	if x.r.opts.Funcs == nil || !callsIn(t) {
		return t, nil
	}
	c := *t
	c.Assign = make([]spec.Assignment, len(t.Assign))
	for i, as := range t.Assign {
		c.Assign[i] = as
		if !extfunc.HasCall(as.Value) {
			continue
		}
		v, err := x.fold(st.Substitute(as.Value, params))
		if err != nil {
			return nil, fmt.Errorf("%s: assignment %s := %s: %v", as.Pos, as.Var, expr.Format(as.Value), err)
		}
		c.Assign[i].Value = v
	}
	return &c, nil
}

// constraint returns the conjunction of a planning step's constraints
// with its ground calls evaluated and the tables' facts about the others.
func (p *planner) constraint(cons []expr.Expr) (expr.Expr, error) {
	return extfunc.FoldCalls(p.x.r.opts.Funcs, expr.AndOf(cons...))
}

// hintPath asserts, in a pushed scope of the planner's solver, the first
// of the tables' hints for the calls of the path found that keeps it
// satisfiable (now and then none, for diversity); it reports whether it
// pushed a scope.
func (p *planner) hintPath() (bool, error) {
	funcs := p.x.r.opts.Funcs
	if funcs == nil || p.x.rng.IntN(8) == 0 {
		return false, nil
	}
	for _, h := range funcs.Hints(expr.AndOf(p.path...)) {
		if ok, err := assertSat(p.s, h); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}
