package symex

import (
	"github.com/stg-tool/stg/spec/expr"
)

// A satisfiable node's condition keeps only what its descendants'
// questions can depend on. Later steps add conjuncts over the symbols of
// the variables' values and over fresh parameter symbols only (guards
// see the state through its variables), so a group of conjuncts (linked
// by shared symbols) that shares no symbol with a variable's value is
// never linked again to anything new: a symbol the state has forgotten
// (the amount of an earlier withdrawal, once x is assigned again). As
// the node is satisfiable, the group is too, whatever is added later,
// and the descendants' conditions are satisfiable with it iff without
// it. Such groups are left out of the condition, and the ground
// comparisons of the rest are folded (expr.FoldTruth: a guard cp > 2 || x >
// m taken with cp known says nothing). A conjunct that calls an
// external function is kept with its group: the function is shared by
// the whole path. On a counter that loops for ever (examples/atm's
// withdrawals refused again and again), the condition stays as large as
// the variables' values need, instead of growing with the path, and so
// does the cost of checking each child.

// forgetChild is forget for a child of n in state st whose condition is
// red. When n's condition was itself left by forget, every symbol of n's
// variables is still a symbol of st's, and each new conjunct (folded)
// mentions a symbol of st's variables or none, nothing is forgotten:
// n's conjuncts stay linked to the same symbols, and so are the new
// ones. The cost is then that of the new conjuncts and the variables,
// not of the whole condition.
func (e *Executor) forgetChild(n *Node, red expr.Expr, st *State) expr.Expr {
	if e.folded == nil {
		e.folded = conjMemo{}
	}
	if !n.forgot {
		return e.forget(red, st)
	}
	added, ok := grownBy(red, n.cond())
	if !ok {
		return e.forget(red, st)
	}
	syms := map[string]bool{}
	for _, v := range st.Vars {
		expr.Idents(v, func(id *expr.Ident) {
			if IsSymbol(id) {
				syms[id.Name] = true
			}
		})
	}
	kept := true
	for name, v := range n.State.Vars {
		if st.Vars[name] != v {
			expr.Idents(v, func(id *expr.Ident) { kept = kept && (!IsSymbol(id) || syms[id.Name]) })
		}
	}
	if !kept {
		return e.forget(red, st)
	}
	out, same := []expr.Expr{n.cond()}, true
	for _, c := range added {
		folded := e.folded.of(c)
		same = same && len(folded) == 1 && folded[0].c == c
		for _, f := range folded {
			if !f.call && len(f.syms) > 0 && !touches(f.syms, syms) {
				return e.forget(red, st)
			}
			out = append(out, f.c)
		}
	}
	if same {
		return red
	}
	return expr.AndOf(out...)
}

// forget returns the condition of a satisfiable node in state st whose
// condition is red: its folded conjuncts linked to a variable's value
// or to a call. It returns red itself when nothing changes.
func (e *Executor) forget(red expr.Expr, st *State) expr.Expr {
	if e.folded == nil {
		e.folded = conjMemo{}
	}
	var fs []conjFacts
	for _, name := range sortedNames(st.Vars) {
		if v := st.Vars[name]; !isLiteral(v) {
			f := factsOf(v)
			f.hasVar = true
			fs = append(fs, f)
		}
	}
	nv := len(fs)
	var cs []expr.Expr
	same := true
	for _, c := range expr.Conjuncts(red) {
		folded := e.folded.of(c)
		if len(folded) != 1 || folded[0].c != c {
			same = false
		}
		for _, f := range folded {
			facts := f.conjFacts
			facts.hasVar = facts.hasVar || f.call
			cs, fs = append(cs, f.c), append(fs, facts)
		}
	}
	rel := relevantOf(fs)
	kept := make([]expr.Expr, 0, len(cs))
	for i, c := range cs {
		if rel[nv+i] {
			kept = append(kept, c)
		}
	}
	if same && len(kept) == len(cs) {
		return red
	}
	return expr.AndOf(kept...)
}
