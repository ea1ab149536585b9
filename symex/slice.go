package symex

import (
	"github.com/stg-tool/stg/spec/expr"
)

// sliced returns the part of pc a satisfiability check of a child needs
// when its parent's path condition parent is known satisfiable: the
// conjuncts new in pc and those linked to them through shared symbols
// (constraint independence). The others form groups over symbols of
// their own, which the parent's satisfiability already decides: pc is
// satisfiable iff the returned conjunction is. new is false when pc has
// no new conjunct.
func sliced(pc, parent expr.Expr) (q expr.Expr, hasNew bool) {
	old := map[expr.Expr]bool{}
	for _, c := range expr.Conjuncts(parent) {
		old[c] = true
	}
	cs := expr.Conjuncts(pc)
	var fresh []int
	for i, c := range cs {
		if !old[c] {
			fresh = append(fresh, i)
		}
	}
	if len(fresh) == 0 {
		return expr.True(), false
	}
	symsOf := make([][]string, len(cs))
	for i, c := range cs {
		expr.Idents(c, func(id *expr.Ident) {
			if IsSymbol(id) || id.Kind == expr.VarIdent {
				symsOf[i] = append(symsOf[i], id.Name)
			}
		})
	}
	reach := map[string]bool{}
	in := make([]bool, len(cs))
	for _, i := range fresh {
		in[i] = true
		for _, s := range symsOf[i] {
			reach[s] = true
		}
	}
	for grown := true; grown; {
		grown = false
		for i := range cs {
			if in[i] || !touches(symsOf[i], reach) {
				continue
			}
			in[i], grown = true, true
			for _, s := range symsOf[i] {
				reach[s] = true
			}
		}
	}
	var keep []expr.Expr
	for i, c := range cs {
		if in[i] {
			keep = append(keep, c)
		}
	}
	return expr.AndOf(keep...), true
}

func touches(names []string, set map[string]bool) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}
