package extfunc

import (
	"slices"

	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/summary"
)

// Calls returns the calls of e, innermost first, each occurrence once.
func Calls(e expr.Expr) []*expr.Call {
	var out []*expr.Call
	var walk func(expr.Expr)
	walk = func(e expr.Expr) {
		switch e := e.(type) {
		case *expr.Unary:
			walk(e.X)
		case *expr.Binary:
			walk(e.X)
			walk(e.Y)
		case *expr.Cond:
			walk(e.If)
			walk(e.Then)
			walk(e.Else)
		case *expr.Call:
			for _, a := range e.Args {
				walk(a)
			}
			out = append(out, e)
		}
	}
	walk(e)
	return out
}

// Facts returns the rows of the tables of the functions e calls as
// equalities F(v1..vn) == r: facts true of the functions as r evaluates
// them (a table row is answered first), which a solver that treats the
// calls as uninterpreted may assume. True when e calls nothing with a
// table.
func (r *Registry) Facts(e expr.Expr) expr.Expr {
	var facts []expr.Expr
	seen := map[string]bool{}
	for _, c := range Calls(e) {
		if seen[c.Func] {
			continue
		}
		seen[c.Func] = true
		for _, row := range r.rows(c.Func) {
			call := &expr.Call{Func: c.Func, Args: exprs(row.Args), T: c.T, Lens: c.Lens}
			facts = append(facts, expr.Compare(expr.Eq, call, row.Result.Expr()))
		}
	}
	return expr.AndOf(facts...)
}

// TableFacts returns the rows of the tables of every function r knows,
// by name, as equalities F(v1..vn) == r: ground facts true of the
// functions as r evaluates them, which a solver treating the calls as
// uninterpreted functions may assume everywhere (the STG route, package
// pipeline). True when no function has rows.
func (r *Registry) TableFacts() expr.Expr {
	var facts []expr.Expr
	for _, name := range r.names() {
		f, _ := r.Func(name)
		for _, row := range r.rows(name) {
			call := &expr.Call{Func: name, Args: exprs(row.Args), T: f.Result, Lens: f.ParamLens}
			facts = append(facts, expr.Compare(expr.Eq, call, row.Result.Expr()))
		}
	}
	return expr.AndOf(facts...)
}

// Sum returns Sum(cl, tab_p) of the function-summaries paper (Def. 5)
// for the call c: the disjunction, over the rows of its table, of "the
// arguments are the row's and the call's value is its result"; false
// for a function without rows.
func (r *Registry) Sum(c *expr.Call) expr.Expr {
	var alts []expr.Expr
	for _, row := range r.rows(c.Func) {
		eqs := make([]expr.Expr, 0, len(c.Args)+1)
		for i, a := range c.Args {
			eqs = append(eqs, expr.Compare(expr.Eq, a, row.Args[i].Expr()))
		}
		eqs = append(eqs, expr.Compare(expr.Eq, c, row.Result.Expr()))
		alts = append(alts, expr.AndOf(eqs...))
	}
	return expr.OrOf(alts...)
}

// Hints returns soft constraints that steer a solver toward inputs whose
// calls in e are rows of their tables, most specific first: Sums of all
// the calls of e over identifiers (Def. 5), then Sums of the innermost
// ones (whose arguments call nothing: the others are then evaluated once
// the arguments are known). None when e calls nothing over identifiers.
func (r *Registry) Hints(e expr.Expr) []expr.Expr {
	var all, inner []expr.Expr
	for _, c := range Calls(e) {
		if !hasIdent(c) {
			continue
		}
		sum := r.Sum(c)
		all = append(all, sum)
		if !slices.ContainsFunc(c.Args, HasCall) {
			inner = append(inner, sum)
		}
	}
	if len(all) == 0 {
		return nil
	}
	hs := []expr.Expr{expr.AndOf(all...)}
	if len(inner) > 0 && len(inner) < len(all) {
		hs = append(hs, expr.AndOf(inner...))
	}
	return hs
}

// rows returns the table of the function name as rows, in a stable
// order.
func (r *Registry) rows(name string) []expr.TableRow {
	r.mu.Lock()
	defer r.mu.Unlock()
	rows := make([]expr.TableRow, 0, len(r.tables[name]))
	for _, row := range r.order[name] {
		rows = append(rows, expr.TableRow{Args: row, Result: r.tables[name][key(row)]})
	}
	return rows
}

func exprs(vs []expr.Value) []expr.Expr {
	es := make([]expr.Expr, len(vs))
	for i, v := range vs {
		es[i] = v.Expr()
	}
	return es
}

// Tab returns a copy of the tables of r's functions, as SolveTab
// (package summary) takes them.
func (r *Registry) Tab() summary.Tab {
	tab := summary.Tab{}
	for _, name := range r.names() {
		tab[name] = r.rows(name)
	}
	return tab
}

// names returns the names of the functions r knows, sorted.
func (r *Registry) names() []string {
	r.mu.Lock()
	names := make([]string, 0, len(r.funcs))
	for name := range r.funcs {
		names = append(names, name)
	}
	r.mu.Unlock()
	slices.Sort(names)
	return names
}
