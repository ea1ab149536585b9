package selection

import (
	"math/big"

	"github.com/stg-tool/stg/spec/expr"
)

// isolateParameters rewrites each linear comparison that mentions one
// parameter, with coefficient ±1, into the form "p op rest": a send
// guard x == p - 2 reads p == x + 2, which says what to send. The
// rewriting is exact algebra over the integers or rationals.
func isolateParameters(e expr.Expr) expr.Expr {
	switch e := e.(type) {
	case *expr.Unary:
		if e.Op == expr.Not {
			return expr.NotOf(isolateParameters(e.X))
		}
	case *expr.Binary:
		switch e.Op {
		case expr.And:
			return expr.AndOf(isolateParameters(e.X), isolateParameters(e.Y))
		case expr.Or:
			return expr.OrOf(isolateParameters(e.X), isolateParameters(e.Y))
		}
		if e.Op.IsComparison() && e.X.Type().IsNumeric() {
			if r := isolate(e); r != nil {
				return r
			}
		}
	}
	return e
}

// isolate returns x op y as "p op' rest", or nil when it does not have
// exactly one parameter, with coefficient ±1.
func isolate(e *expr.Binary) expr.Expr {
	l, ok := expr.LinearOf(expr.Arith(expr.Sub, e.X, e.Y)) // x - y op 0
	if !ok {
		return nil
	}
	p := -1
	for i, t := range l.Terms {
		if t.Ident.Kind != expr.ParamIdent {
			continue
		}
		if p >= 0 {
			return nil // two parameters: leave it
		}
		p = i
	}
	if p < 0 {
		return nil
	}
	// c·p + Σ others + k op 0 with c = ±1:
	// c = 1:  p op -(Σ others + k);  c = -1:  p op' Σ others + k.
	one := big.NewRat(1, 1)
	op, sign := e.Op, big.NewRat(-1, 1)
	switch c := l.Terms[p].Coeff; {
	case c.Cmp(one) == 0:
	case c.Cmp(new(big.Rat).Neg(one)) == 0:
		op, sign = op.Swap(), one
	default:
		return nil
	}
	rest := expr.Linear{Const: new(big.Rat).Mul(sign, l.Const)}
	for i, t := range l.Terms {
		if i != p {
			rest.Terms = append(rest.Terms, expr.Term{Ident: t.Ident, Coeff: new(big.Rat).Mul(sign, t.Coeff)})
		}
	}
	r, ok := rest.Expr(e.X.Type())
	if !ok {
		return nil
	}
	return expr.Compare(op, l.Terms[p].Ident, r)
}
