package symex

import (
	"fmt"
	"maps"
	"slices"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/summary"
)

// SolveStats are the figures of SolveTab over a tree built with
// function summaries.
type SolveStats struct {
	Calls    int `json:"solvetab_calls"` // states decided by SolveTab
	Attempts int `json:"attempts"`       // enrichment attempts (loop iterations)
	Execs    int `json:"execs"`          // executions of implementations
	Added    int `json:"rows_added"`     // rows the executions added
}

// initSummaries prepares the flattening and the global table when e uses
// function summaries.
func (e *Executor) initSummaries() error {
	if e.opts.Functions != Summaries {
		return nil
	}
	if e.opts.Summary.M < 0 {
		return fmt.Errorf("m = %d: the bound of SolveTab must not be negative", e.opts.Summary.M)
	}
	external := slices.ContainsFunc(e.m.Funcs, (*expr.Func).IsExternal)
	if !external {
		return nil // nothing to summarise: the tree is the uninterpreted one
	}
	if e.opts.Inclusion {
		// Inclusion compares path conditions; with summaries a state
		// is also its call records and the tables, which grow.
		return fmt.Errorf("%s: restriction by inclusion is not available with function summaries: bound the tree by its height, or leave the calls uninterpreted (--functions uninterpreted, the default with --inclusion)", e.m.File)
	}
	e.flat = summary.NewFlattener(e.m.Funcs)
	if e.opts.Tables != nil {
		e.tab = e.opts.Tables.Clone()
	} else {
		e.tab = summary.TabOf(e.m)
	}
	return nil
}

// Tab returns the global table of e (with Summaries): the initial tables
// and every row SolveTab has added so far. It is nil otherwise.
func (e *Executor) Tab() summary.Tab { return e.tab }

// SolveStats returns the figures of SolveTab so far.
func (e *Executor) SolveStats() SolveStats { return e.solve }

// fireFlat is Fire with the flattening χ (§4.3 of the function-summaries
// paper): the guard g (over st's symbols) and the assigned values have
// their calls replaced by fresh variables, whose records join κ, the
// guard's first, then the assignments' in the spec's order.
func (e *Executor) fireFlat(st *State, t *spec.Transition, params map[string]expr.Expr, g expr.Expr) (*State, error) {
	gbar, calls, err := e.flat.Flatten(g)
	if err != nil {
		return nil, fmt.Errorf("%s: guard: %v", t.Pos, err)
	}
	next := &State{Loc: t.To, Vars: st.Vars, PC: expr.AndOf(st.PC, gbar), Calls: st.Calls}
	if len(t.Assign) > 0 {
		next.Vars = maps.Clone(st.Vars)
		for _, as := range t.Assign {
			v, cs, err := e.flat.Flatten(st.Substitute(as.Value, params))
			if err != nil {
				return nil, fmt.Errorf("%s: assignment of %s: %v", as.Pos, as.Var, err)
			}
			next.Vars[as.Var] = fold(v)
			calls = append(calls, cs...)
		}
	}
	if len(calls) > 0 {
		next.Calls = append(slices.Clone(st.Calls), calls...)
	}
	return next, nil
}

// flattenPC flattens the calls left in st's path condition (a
// quiescence guard or an initial condition that calls a function).
func (e *Executor) flattenPC(st *State) error {
	pc, calls, err := e.flat.Flatten(st.PC)
	if err != nil {
		return err
	}
	if len(calls) > 0 {
		st.PC, st.Calls = pc, append(slices.Clone(st.Calls), calls...)
	}
	return nil
}

// flattenRoot flattens the initial state and decides it with SolveTab,
// returning its solution when it has calls.
func (e *Executor) flattenRoot(st *State) (*State, *expr.Valuation, error) {
	root := &State{Loc: st.Loc, Vars: maps.Clone(st.Vars), PC: st.PC}
	for name, v := range root.Vars {
		fv, cs, err := e.flat.Flatten(v)
		if err != nil {
			return nil, nil, err
		}
		root.Vars[name], root.Calls = fv, append(root.Calls, cs...)
	}
	if err := e.flattenPC(root); err != nil {
		return nil, nil, err
	}
	if len(root.Calls) == 0 {
		return st, nil, nil
	}
	res, err := e.solveTab(root)
	if err != nil {
		return nil, nil, fmt.Errorf("initial state: %v", err)
	}
	if !res.Found {
		return nil, nil, fmt.Errorf("the initial condition has no solution with the tables of the functions (m = %d)", e.opts.Summary.M)
	}
	return root, solOf(res), nil
}

// solOf returns the solution of a SolveTab result, nil when undecided.
func solOf(res summary.Result) *expr.Valuation {
	if !res.Found || res.Unknown {
		return nil
	}
	sol := res.Sol
	return &sol
}

// Solve runs SolveTab at n with e's options and global table, on n's
// path condition and call records conjoined with extra (nil: none):
// for on-line testing, extra binds the symbols of the steps already
// played to the values sent and observed, and the solution gives the
// values that lead on to n within the tables, learning rows through the
// implementations (up to m attempts) when it must. It needs function
// summaries.
func (e *Executor) Solve(n *Node, extra expr.Expr) (summary.Result, error) {
	if e.flat == nil {
		return summary.Result{}, fmt.Errorf("Solve needs function summaries")
	}
	st := n.State
	if extra != nil {
		st = &State{Loc: st.Loc, Vars: st.Vars, PC: expr.AndOf(st.PC, extra), Calls: st.Calls}
	}
	return e.solveTab(st)
}

// childSolveTab adds a child of n in state st when SolveTab(m, π, κ,
// Tab) finds a solution.
func (e *Executor) childSolveTab(n *Node, st *State, pos expr.Pos) (*Node, error) {
	res, err := e.solveTab(st)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", pos, err)
	}
	if !res.Found {
		return nil, nil
	}
	c := e.node(n, st)
	c.Unknown, c.Sol = res.Unknown, solOf(res)
	n.Children = append(n.Children, c)
	return c, nil
}

func (e *Executor) solveTab(st *State) (summary.Result, error) {
	res, err := summary.SolveTab(e.z, st.PC, st.Calls, e.tab, e.opts.Summary)
	e.solve.Calls++
	e.solve.Attempts += res.Attempts
	e.solve.Execs += res.Execs
	e.solve.Added += res.Added
	e.stats.Queries += 1 + 2*res.Attempts
	return res, err
}
