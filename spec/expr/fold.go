package expr

// FoldTruth rewrites e with its ground comparisons evaluated (3 > 2 is
// true) and the connectives around the truth values simplified (true &&
// p is p, false || p is p, !true is false, ...): a guard such as
// cp > 2 || x > m, taken with cp known, leaves 3 > 2 || ... which says
// nothing. A comparison that does not evaluate (a call without an
// implementation) is kept. The result is equivalent to e.
func FoldTruth(e Expr) Expr {
	return Transform(e, func(n Expr) Expr {
		switch n := n.(type) {
		case *Binary:
			if n.Op.IsComparison() && !readsIdent(n) {
				if v, err := EvalBool(n, Valuation{}); err == nil {
					return BoolConst(v)
				}
			}
			if n.Op == And || n.Op == Or {
				return foldConnective(n)
			}
		case *Unary:
			if n.Op == Not && (IsTrue(n.X) || IsFalse(n.X)) {
				return BoolConst(IsFalse(n.X))
			}
		}
		return n
	})
}

// foldConnective simplifies x && y or x || y where a side is a literal.
func foldConnective(n *Binary) Expr {
	absorbing := n.Op == Or // true absorbs ||, false absorbs &&
	for _, s := range [2][2]Expr{{n.X, n.Y}, {n.Y, n.X}} {
		switch {
		case IsTrue(s[0]) && absorbing, IsFalse(s[0]) && !absorbing:
			return s[0]
		case IsTrue(s[0]), IsFalse(s[0]):
			return s[1]
		}
	}
	return n
}

func readsIdent(e Expr) bool {
	found := false
	Idents(e, func(*Ident) { found = true })
	return found
}
