package play

import (
	"github.com/stg-tool/stg/spec/expr"
)

// boundaryHints returns the boundary values that the linear comparisons
// of cons put on id, as constraints "id == e": for id <= e the values e
// and e+1 on either side of the boundary, for id < e the values e-1 and
// e, for id == e and id != e the values e-1, e and e+1 (for a real id,
// e alone and e±1). Comparisons are atoms id op e (or e op id) with e not
// mentioning id; e may name variables and other parameters, which the
// solver then fixes along. Which hints stay satisfiable with the guard
// is for the solver to say: a guard x <= 5 keeps 5 and drops 6, while a
// path whose next step tests x > 5 keeps 6.
func boundaryHints(id *expr.Ident, cons []expr.Expr) []expr.Expr {
	if !id.T.IsNumeric() {
		return nil
	}
	var hs []expr.Expr
	seen := map[string]bool{}
	add := func(e expr.Expr, d int64) {
		if d != 0 {
			e = expr.Arith(expr.Add, e, offset(id.T, d))
		}
		h := expr.Compare(expr.Eq, id, e)
		if k := expr.Format(h); !seen[k] {
			seen[k] = true
			hs = append(hs, h)
		}
	}
	for _, c := range cons {
		expr.Inspect(c, func(n expr.Expr) {
			b, ok := n.(*expr.Binary)
			if !ok || !b.Op.IsComparison() {
				return
			}
			op, e := b.Op, b.Y
			switch {
			case isIdent(b.X, id) && !expr.Mentions(b.Y, id.Kind, id.Name):
			case isIdent(b.Y, id) && !expr.Mentions(b.X, id.Kind, id.Name):
				op, e = b.Op.Swap(), b.X
			default:
				return
			}
			if e.Type().Kind != id.T.Kind {
				return
			}
			for _, d := range boundaryOffsets(op) {
				add(e, d)
			}
		})
	}
	return hs
}

// boundaryOffsets returns, for a comparison id op e, the offsets from e
// of the values on either side of its boundary.
func boundaryOffsets(op expr.Op) []int64 {
	switch op {
	case expr.Le, expr.Gt:
		return []int64{0, 1}
	case expr.Lt, expr.Ge:
		return []int64{-1, 0}
	}
	return []int64{-1, 0, 1} // == and !=
}

func isIdent(e expr.Expr, id *expr.Ident) bool {
	i, ok := e.(*expr.Ident)
	return ok && i.Name == id.Name && i.Kind == id.Kind
}
