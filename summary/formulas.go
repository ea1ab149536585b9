package summary

import "github.com/stg-tool/stg/spec"

// Sum returns Sum(cl, rows) (Def. 5): the disjunction over the rows of
// (∧i ti = vi) ∧ x = v_{n+1}; false when there are no rows.
func Sum(cl *Call, rows []spec.TableRow) spec.Expr {
	var ds []spec.Expr
	for _, r := range rows {
		cs := argsEqual(cl, r)
		cs = append(cs, spec.Compare(spec.Eq, cl.X, r.Result.Expr()))
		ds = append(ds, spec.AndOf(cs...))
	}
	return spec.OrOf(ds...)
}

// Sums returns Sums(κ, Tab) (Def. 5): the conjunction of the summaries
// of the calls of κ.
func Sums(kappa []*Call, tab Tab) spec.Expr {
	cs := make([]spec.Expr, len(kappa))
	for i, cl := range kappa {
		cs[i] = Sum(cl, tab[cl.Func.Name])
	}
	return spec.AndOf(cs...)
}

// NoCorres1 returns NoCorres1(cl, rows) (Def. 6): the conjunction over
// the rows of ∨i ti ≠ vi, the inputs of cl are in no row; true when
// there are no rows.
func NoCorres1(cl *Call, rows []spec.TableRow) spec.Expr {
	cs := make([]spec.Expr, len(rows))
	for i, r := range rows {
		eqs := argsEqual(cl, r)
		ne := make([]spec.Expr, len(eqs))
		for j, eq := range eqs {
			b := eq.(*spec.Binary)
			ne[j] = spec.Compare(spec.Ne, b.X, b.Y)
		}
		cs[i] = spec.OrOf(ne...)
	}
	return spec.AndOf(cs...)
}

// NoCorres returns NoCorres(κ, Tab) (Def. 6): at least one call of κ
// has inputs its table does not have; false when κ is empty.
func NoCorres(kappa []*Call, tab Tab) spec.Expr {
	ds := make([]spec.Expr, len(kappa))
	for i, cl := range kappa {
		ds[i] = NoCorres1(cl, tab[cl.Func.Name])
	}
	return spec.OrOf(ds...)
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
			if spec.Mentions(a, d.X.Kind, d.X.Name) {
				deps = append(deps, d)
				break
			}
		}
	}
	return deps
}

// CorresRes returns CorresRes(cl, rows) (Def. 7): the result of cl is a
// result of one of the rows; false when there are none.
func CorresRes(cl *Call, rows []spec.TableRow) spec.Expr {
	ds := make([]spec.Expr, len(rows))
	for i, r := range rows {
		ds[i] = spec.Compare(spec.Eq, cl.X, r.Result.Expr())
	}
	return spec.OrOf(ds...)
}

// Dep returns Dep(κ, Tab) (Def. 7): every result that another call of
// κ takes as input is a result already in its table.
func Dep(kappa []*Call, tab Tab) spec.Expr {
	var cs []spec.Expr
	for _, cl := range kappa {
		for _, d := range DepOf(cl, kappa) {
			cs = append(cs, CorresRes(d, tab[d.Func.Name]))
		}
	}
	return spec.AndOf(cs...)
}

// argsEqual returns t1 = v1, ..., tn = vn for cl's inputs and a row.
func argsEqual(cl *Call, r spec.TableRow) []spec.Expr {
	cs := make([]spec.Expr, 0, len(cl.Args)+1)
	for i, a := range cl.Args {
		if i < len(r.Args) {
			cs = append(cs, spec.Compare(spec.Eq, a, r.Args[i].Expr()))
		}
	}
	return cs
}
