package symex

import (
	"fmt"
	"maps"

	"github.com/stg-tool/stg/spec/expr"
)

// A shape is the part of a state that decides which valuations of its
// variables with non-literal values it denotes, written so that it does
// not depend on the names of its symbols:
//
//   - the variables whose value is a literal are set apart (lits): the
//     conjunct x = literal shares nothing with the rest, and restriction
//     by inclusion compares two states only where their literals agree;
//   - the path condition's ground comparisons are evaluated (expr.FoldTruth)
//     and the conjuncts that become true left out;
//   - the conjuncts of the path condition that share no symbol, directly
//     or through others, with a variable's value are left out (the state
//     is satisfiable, so such a group is too, whatever the variables:
//     leaving it out keeps the set of valuations);
//   - the symbols are renamed @1, @2, ... in the order they are met (the
//     variables in name order, then the conjuncts left), each name
//     carrying its type.
//
// Two shapes printed alike (key) denote the same set of valuations, so
// a question about that set (∃F. binding, inclusion in a predicate, a
// point of it) has one answer for both: restriction by inclusion asks it
// once (inclusionIndex's memos). Symbolic execution makes such states
// again and again: the same steps taken after different prefixes differ
// in their fresh symbols, in their counters, and in the conditions on
// symbols the state has forgotten.
type shape struct {
	st   *State               // the shape as a state (no literal variables)
	key  string               // st printed
	lits map[string]expr.Expr // the variables with literal values
}

// shapeOf returns the shape of st. The facts of the conjuncts of path
// conditions, which a node shares with its parent, are kept in facts.
func shapeOf(st *State, facts conjMemo) shape {
	lits := map[string]expr.Expr{}
	var names []string
	var cs []expr.Expr
	var fs []conjFacts
	for _, name := range sortedNames(st.Vars) {
		v := st.Vars[name]
		if isLiteral(v) {
			lits[name] = v
			continue
		}
		names = append(names, name)
		c := expr.Compare(expr.Eq, varIdent(name, v.Type()), v)
		cs, fs = append(cs, c), append(fs, factsOf(c))
	}
	for _, c := range expr.Conjuncts(st.PC) {
		for _, f := range facts.of(c) {
			cs, fs = append(cs, f.c), append(fs, f.conjFacts)
		}
	}
	rel := relevantOf(fs)
	r := renamer{to: map[string]*expr.Ident{}}
	out := &State{Vars: make(map[string]expr.Expr, len(names))}
	for _, name := range names {
		out.Vars[name] = r.rename(st.Vars[name])
	}
	var kept []expr.Expr
	for i := len(names); i < len(cs); i++ {
		if rel[i] {
			kept = append(kept, r.rename(cs[i]))
		}
	}
	out.PC = expr.AndOf(kept...)
	return shape{st: out, key: out.Describe(nil), lits: lits}
}

// conjMemo maps a conjunct of a path condition to its folded conjuncts
// (expr.FoldTruth; none when it folds to true) with their facts.
type conjMemo map[expr.Expr][]foldedConj

type foldedConj struct {
	c expr.Expr
	conjFacts
	call bool // c calls an external function
}

func (m conjMemo) of(c expr.Expr) []foldedConj {
	if f, ok := m[c]; ok {
		return f
	}
	var out []foldedConj
	for _, d := range expr.Conjuncts(expr.FoldTruth(c)) {
		if !expr.IsTrue(d) {
			out = append(out, foldedConj{d, factsOf(d), expr.Contains(d, isCall)})
		}
	}
	m[c] = out
	return out
}

// sameLiterals reports whether a and b set apart the same variables.
func sameLiterals(a, b map[string]expr.Expr) bool {
	return maps.EqualFunc(a, b, func(x, y expr.Expr) bool { return true })
}

// withLiterals returns q ∧ x = literal for the literal variables.
func withLiterals(q expr.Expr, lits map[string]expr.Expr) expr.Expr {
	cs := []expr.Expr{q}
	for _, name := range sortedNames(lits) {
		cs = append(cs, expr.Compare(expr.Eq, varIdent(name, lits[name].Type()), lits[name]))
	}
	return expr.AndOf(cs...)
}

// renamer renames symbols @1, @2, ... in the order it meets them.
type renamer struct{ to map[string]*expr.Ident }

func (r renamer) rename(e expr.Expr) expr.Expr {
	return expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
		if !IsSymbol(id) {
			return nil
		}
		n, ok := r.to[id.Name]
		if !ok {
			n = &expr.Ident{Name: fmt.Sprintf("@%d:%s", len(r.to)+1, id.T), Kind: id.Kind, T: id.T}
			r.to[id.Name] = n
		}
		return n
	})
}
