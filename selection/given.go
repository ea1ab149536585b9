package selection

import "github.com/stg-tool/stg/spec/expr"

// The questions of the selection often repeat their context: Keep asks
// whether reach(l) ∧ G ∧ coreach(l') may hold and Inconc whether
// reach(l) ∧ G ∧ ¬coreach(l') may, where coreach(l') is, for a
// transition that assigns nothing, often reach(l) word for word (the
// slicing makes coreach within reach); the readable guards ask about
// reach(l) ∧ reach(l) and reach(l) ∧ ¬reach(l). The tree search would
// meet the context's conjuncts again and, for a negated conjunction,
// split it into one branch per conjunct, each ending in an empty
// polyhedron. given answers these from the words alone.

// given returns e, with the identifiers that context fixes to a
// number replaced by it and what then reads no identifier evaluated
// (the purpose's s == 199 at the stage where reach says s == 7), without its conjuncts that are, structurally,
// conjuncts of context (context ∧ e is then context ∧ the rest),
// repeated, or ground and true (the 37 == 37 of a substituted stage
// number, which would keep the question from its memo), and
// unsat when a conjunct of e is the negation of a conjunction whose
// every conjunct is one of context's (context entails what it denies).
// Both are exact: the question keeps its answer.
func (d *decider) given(context, e expr.Expr) (expr.Expr, verdict) {
	var have []expr.Expr
	if !expr.IsTrue(context) {
		c := d.conjunctsOf(context)
		have = c.es
		e = c.substitute(e)
	}
	var buf [8]expr.Expr
	var nbuf [4]expr.Expr
	cs := expr.AppendConjuncts(buf[:0], e)
	var kept []expr.Expr // while nothing is dropped, the kept are cs[:i]
	dropped := false
	for i, c := range cs {
		prev := kept
		if !dropped {
			prev = cs[:i]
		}
		if contains(have, c) || contains(prev, c) || groundTrue(c) {
			if !dropped {
				kept, dropped = append([]expr.Expr(nil), cs[:i]...), true
			}
			continue
		}
		if u, ok := c.(*expr.Unary); ok && u.Op == expr.Not && allIn(expr.AppendConjuncts(nbuf[:0], u.X), have) {
			return e, unsat
		}
		if dropped {
			kept = append(kept, c)
		}
	}
	if !dropped {
		return e, undecided
	}
	return expr.AndOf(kept...), undecided
}

// allIn reports whether every one of es is, structurally, one of have.
func allIn(es, have []expr.Expr) bool {
	for _, e := range es {
		if !contains(have, e) {
			return false
		}
	}
	return true
}

// pin records x when it is id == k or k == id for a numeric literal k.
func (c *conjuncts) pin(x expr.Expr) {
	b, ok := x.(*expr.Binary)
	if !ok || b.Op != expr.Eq {
		return
	}
	id, ok := b.X.(*expr.Ident)
	k := b.Y
	if !ok {
		id, ok = b.Y.(*expr.Ident)
		k = b.X
	}
	if !ok || !id.T.IsNumeric() {
		return
	}
	switch k.(type) {
	case *expr.IntLit, *expr.RealLit:
	default:
		return
	}
	i := 0
	if id.Kind != expr.VarIdent {
		i = 1
	}
	if c.pinned[i] == nil {
		c.pinned[i] = map[string]expr.Expr{}
	}
	if _, dup := c.pinned[i][id.Name]; !dup {
		c.pinned[i][id.Name] = k
	}
}

// substitute returns e with the pinned identifiers replaced by their
// numbers and its ground comparisons evaluated, e itself when it reads
// no pinned identifier. Within the context, the result is e.
func (c *conjuncts) substitute(e expr.Expr) expr.Expr {
	if c.pinned[0] == nil && c.pinned[1] == nil {
		return e
	}
	reads := false
	expr.Idents(e, func(id *expr.Ident) {
		i := 0
		if id.Kind != expr.VarIdent {
			i = 1
		}
		if _, ok := c.pinned[i][id.Name]; ok {
			reads = true
		}
	})
	if !reads {
		return e
	}
	return expr.FoldTruth(expr.Substitute(e, c.pinned[0], c.pinned[1]))
}
