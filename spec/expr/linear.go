package expr

import "math/big"

// Term is c·x in a linear form.
type Term struct {
	Ident *Ident
	Coeff *big.Rat
}

// Linear is the affine form Σ Terms + Const.
type Linear struct {
	Terms []Term
	Const *big.Rat
}

// LinearOf returns e as an affine form: terms merged per identifier (kind
// and name), in order of first appearance, zero terms dropped. It
// reports false when e is not affine: a product of two non-constants, a
// Euclidean / or %, a division of reals by a non-constant, a call.
func LinearOf(e Expr) (Linear, bool) {
	l := Linear{Const: new(big.Rat)}
	if !l.collect(e, big.NewRat(1, 1)) {
		return Linear{}, false
	}
	terms := l.Terms[:0]
	for _, t := range l.Terms {
		if t.Coeff.Sign() != 0 {
			terms = append(terms, t)
		}
	}
	l.Terms = terms
	return l, true
}

// collect adds s·e to l.
func (l *Linear) collect(e Expr, s *big.Rat) bool {
	switch e := e.(type) {
	case *IntLit:
		l.Const.Add(l.Const, new(big.Rat).Mul(s, new(big.Rat).SetInt(e.Val)))
		return true
	case *RealLit:
		l.Const.Add(l.Const, new(big.Rat).Mul(s, e.Val))
		return true
	case *Ident:
		if e.T.Kind == Str {
			return false
		}
		for i := range l.Terms {
			t := &l.Terms[i]
			if t.Ident.Name == e.Name && t.Ident.Kind == e.Kind {
				t.Coeff = new(big.Rat).Add(t.Coeff, s)
				return true
			}
		}
		l.Terms = append(l.Terms, Term{Ident: e, Coeff: new(big.Rat).Set(s)})
		return true
	case *Unary:
		return e.Op == Neg && l.collect(e.X, new(big.Rat).Neg(s))
	case *Binary:
		switch e.Op {
		case Add:
			return l.collect(e.X, s) && l.collect(e.Y, s)
		case Sub:
			return l.collect(e.X, s) && l.collect(e.Y, new(big.Rat).Neg(s))
		case Mul:
			x, okx := LinearOf(e.X)
			y, oky := LinearOf(e.Y)
			if !okx || !oky {
				return false
			}
			if len(x.Terms) == 0 {
				return l.add(y, new(big.Rat).Mul(s, x.Const))
			}
			if len(y.Terms) == 0 {
				return l.add(x, new(big.Rat).Mul(s, y.Const))
			}
		case Div:
			// Euclidean division on int is not affine; on reals, division
			// by a non-zero constant is.
			y, ok := LinearOf(e.Y)
			if ok && e.Type().Kind == Real && len(y.Terms) == 0 && y.Const.Sign() != 0 {
				return l.collect(e.X, new(big.Rat).Quo(s, y.Const))
			}
		}
	}
	return false
}

// add adds s·m to l.
func (l *Linear) add(m Linear, s *big.Rat) bool {
	for _, t := range m.Terms {
		if !l.collect(t.Ident, new(big.Rat).Mul(s, t.Coeff)) {
			return false
		}
	}
	l.Const.Add(l.Const, new(big.Rat).Mul(s, m.Const))
	return true
}

// ConstValue returns the value of a constant: a literal, or a negated one.
func ConstValue(e Expr) (*big.Rat, bool) {
	switch e := e.(type) {
	case *IntLit:
		return new(big.Rat).SetInt(e.Val), true
	case *RealLit:
		return e.Val, true
	case *Unary:
		if e.Op == Neg {
			if c, ok := ConstValue(e.X); ok {
				return new(big.Rat).Neg(c), true
			}
		}
	}
	return nil, false
}

// Expr writes l as an expression of the numeric type t, the way a person
// would: the added terms first, then the subtracted ones, the constant
// last ("x + 2", "y - x - 1"), and "100 - level" rather than
// "-level + 100". It reports false when t is int and a coefficient or the
// constant is not an integer.
func (l Linear) Expr(t Type) (Expr, bool) {
	var r Expr
	var subtract []Expr
	for _, tm := range l.Terms {
		v, ok := termExpr(new(big.Rat).Abs(tm.Coeff), tm.Ident, t)
		if !ok {
			return nil, false
		}
		if tm.Coeff.Sign() > 0 {
			r = sum(r, v)
		} else {
			subtract = append(subtract, v)
		}
	}
	k := l.Const
	if k == nil {
		k = new(big.Rat)
	}
	if r == nil && len(subtract) > 0 && k.Sign() > 0 {
		c, ok := constOf(k, t)
		if !ok {
			return nil, false
		}
		r, k = c, new(big.Rat)
	}
	for _, v := range subtract {
		if r == nil {
			r = &Unary{Op: Neg, X: v}
		} else {
			r = Arith(Sub, r, v)
		}
	}
	if k.Sign() == 0 && r != nil {
		return r, true
	}
	c, ok := constOf(new(big.Rat).Abs(k), t)
	if !ok {
		return nil, false
	}
	switch {
	case r == nil:
		return constOf(k, t)
	case k.Sign() > 0:
		return Arith(Add, r, c), true
	default:
		return Arith(Sub, r, c), true
	}
}

func sum(acc, v Expr) Expr {
	if acc == nil {
		return v
	}
	return Arith(Add, acc, v)
}

// termExpr writes c·id for c > 0: id when c is 1.
func termExpr(c *big.Rat, id *Ident, t Type) (Expr, bool) {
	if c.Cmp(big.NewRat(1, 1)) == 0 {
		return id, true
	}
	k, ok := constOf(c, t)
	if !ok {
		return nil, false
	}
	return Arith(Mul, k, id), true
}

// constOf writes r as a constant of type t.
func constOf(r *big.Rat, t Type) (Expr, bool) {
	if t.Kind == Int {
		if !r.IsInt() {
			return nil, false
		}
		return BigIntConst(r.Num()), true
	}
	return RatConst(r), true
}
