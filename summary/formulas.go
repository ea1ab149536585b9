package summary

import (
	"github.com/stg-tool/stg/spec/expr"
)

// Sum returns Sum(cl, rows) (Def. 5): the disjunction over the rows of
// (∧i ti = vi) ∧ x = v_{n+1}; false when there are no rows.
func Sum(cl *Call, rows []expr.TableRow) expr.Expr {
	var ds []expr.Expr
	for _, r := range rows {
		cs := argsEqual(cl, r)
		cs = append(cs, expr.Compare(expr.Eq, cl.X, r.Result.Expr()))
		ds = append(ds, expr.AndOf(cs...))
	}
	return expr.OrOf(ds...)
}

// Sums returns Sums(κ, Tab) (Def. 5): the conjunction of the summaries
// of the calls of κ.
func Sums(kappa []*Call, tab Tab) expr.Expr {
	cs := make([]expr.Expr, len(kappa))
	for i, cl := range kappa {
		cs[i] = Sum(cl, tab[cl.Func.Name])
	}
	return expr.AndOf(cs...)
}

// NoCorres1 returns NoCorres1(cl, rows) (Def. 6): the conjunction over
// the rows of ∨i ti ≠ vi, the inputs of cl are in no row; true when
// there are no rows.
func NoCorres1(cl *Call, rows []expr.TableRow) expr.Expr {
	cs := make([]expr.Expr, len(rows))
	for i, r := range rows {
		eqs := argsEqual(cl, r)
		ne := make([]expr.Expr, len(eqs))
		for j, eq := range eqs {
			b := eq.(*expr.Binary)
			ne[j] = expr.Compare(expr.Ne, b.X, b.Y)
		}
		cs[i] = expr.OrOf(ne...)
	}
	return expr.AndOf(cs...)
}

// NoCorres returns NoCorres(κ, Tab) (Def. 6): at least one call of κ
// has inputs its table does not have; false when κ is empty.
func NoCorres(kappa []*Call, tab Tab) expr.Expr {
	ds := make([]expr.Expr, len(kappa))
	for i, cl := range kappa {
		ds[i] = NoCorres1(cl, tab[cl.Func.Name])
	}
	return expr.OrOf(ds...)
}

// DepOf returns Dep_cl (Def. 7): the other calls of κ whose result
// variable occurs in an input term of cl.
func DepOf(cl *Call, kappa []*Call) []*Call {
	var deps []*Call
	for _, d := range kappa {
		if d == cl {
			continue
		}
		for _, a := range cl.Args {
			if expr.Mentions(a, d.X.Kind, d.X.Name) {
				deps = append(deps, d)
				break
			}
		}
	}
	return deps
}

// CorresRes returns CorresRes(cl, rows) (Def. 7): the result of cl is a
// result of one of the rows; false when there are none.
func CorresRes(cl *Call, rows []expr.TableRow) expr.Expr {
	ds := make([]expr.Expr, len(rows))
	for i, r := range rows {
		ds[i] = expr.Compare(expr.Eq, cl.X, r.Result.Expr())
	}
	return expr.OrOf(ds...)
}

// Dep returns Dep(κ, Tab) (Def. 7): every result that another call of
// κ takes as input is a result already in its table.
func Dep(kappa []*Call, tab Tab) expr.Expr {
	var cs []expr.Expr
	for _, cl := range kappa {
		for _, d := range DepOf(cl, kappa) {
			cs = append(cs, CorresRes(d, tab[d.Func.Name]))
		}
	}
	return expr.AndOf(cs...)
}

// argsEqual returns t1 = v1, ..., tn = vn for cl's inputs and a row.
func argsEqual(cl *Call, r expr.TableRow) []expr.Expr {
	cs := make([]expr.Expr, 0, len(cl.Args)+1)
	for i, a := range cl.Args {
		if i < len(r.Args) {
			cs = append(cs, expr.Compare(expr.Eq, a, r.Args[i].Expr()))
		}
	}
	return cs
}
