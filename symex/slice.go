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

// grownBy returns the conjuncts that pc adds to parent when pc extends
// parent's chain of conjunctions (AndOf(parent, g1, g2, ...), as a step
// makes its child's path condition), in order, without walking parent:
// the cost is that of the new conjuncts. ok is false when pc does not
// extend parent.
func grownBy(pc, parent expr.Expr) (added []expr.Expr, ok bool) {
	if expr.IsTrue(pc) {
		return nil, true
	}
	if expr.IsTrue(parent) {
		return expr.Conjuncts(pc), true
	}
	var rights []expr.Expr
	for e := pc; e != parent; {
		b, isAnd := e.(*expr.Binary)
		if !isAnd || b.Op != expr.And {
			return nil, false
		}
		rights, e = append(rights, b.Y), b.X
	}
	for i := len(rights) - 1; i >= 0; i-- {
		added = append(added, expr.Conjuncts(rights[i])...)
	}
	return added, true
}

// addedTo returns the conjuncts of pc that are not parent's: those pc
// adds when it extends parent's chain (grownBy), else by comparison.
func addedTo(pc, parent expr.Expr) []expr.Expr {
	if added, ok := grownBy(pc, parent); ok {
		return added
	}
	return newConjuncts(pc, parent)
}

// foldChild is FoldGround(pc) for the path condition pc of a child
// whose parent's, already folded, is parent: only the new conjuncts
// are folded, and pc keeps parent's chain.
func foldChild(pc, parent expr.Expr) expr.Expr {
	added, ok := grownBy(pc, parent)
	if !ok || expr.IsTrue(parent) {
		return FoldGround(pc)
	}
	f := FoldGround(expr.AndOf(added...))
	if expr.IsFalse(f) {
		return f
	}
	return expr.AndOf(append([]expr.Expr{parent}, expr.Conjuncts(f)...)...)
}
