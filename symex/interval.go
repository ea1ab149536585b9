package symex

import (
	"math/big"

	"github.com/stg-tool/stg/spec/expr"
)

// interval is a closed over-approximation [lo, hi] of a numeric value;
// a nil bound is infinite. Strict bounds are kept as closed ones (an
// over-approximation).
type interval struct{ lo, hi *big.Rat }

func (iv interval) contains(v expr.Value) bool {
	r := ratOf(v)
	if r == nil {
		return true
	}
	return (iv.lo == nil || iv.lo.Cmp(r) <= 0) && (iv.hi == nil || r.Cmp(iv.hi) <= 0)
}

func (iv interval) unbounded() bool { return iv.lo == nil && iv.hi == nil }

// ratOf returns a numeric value as a rational, nil for other types.
func ratOf(v expr.Value) *big.Rat {
	switch {
	case v.T.Kind == expr.Int && v.Int != nil:
		return new(big.Rat).SetInt(v.Int)
	case v.T.Kind == expr.Real && v.Rat != nil:
		return v.Rat
	}
	return nil
}

// intervals over-approximates the numeric variables of st: the bounds
// the conjuncts sym op constant of its path condition put on its
// symbols, carried through sums, differences, negation and products by
// constants. Unbounded variables are left out.
func intervals(st *State) map[string]interval {
	syms := map[string]interval{}
	for _, c := range expr.Conjuncts(st.PC) {
		boundSymbol(c, syms)
	}
	out := map[string]interval{}
	for name, v := range st.Vars {
		if !v.Type().IsNumeric() {
			continue
		}
		if iv := evalInterval(v, syms); !iv.unbounded() {
			out[name] = iv
		}
	}
	return out
}

// boundSymbol narrows syms by c when c is sym op constant or constant
// op sym.
func boundSymbol(c expr.Expr, syms map[string]interval) {
	b, ok := c.(*expr.Binary)
	if !ok || !b.Op.IsComparison() || b.Op == expr.Ne {
		return
	}
	op, x, y := b.Op, b.X, b.Y
	if _, isId := y.(*expr.Ident); isId {
		op, x, y = op.Swap(), y, x
	}
	id, isId := x.(*expr.Ident)
	if !isId || !IsSymbol(id) || !isLiteral(y) {
		return
	}
	k := literalRat(y)
	if k == nil {
		return
	}
	iv, seen := syms[id.Name]
	if !seen {
		iv = interval{}
	}
	if op == expr.Eq || op == expr.Ge || op == expr.Gt {
		if iv.lo == nil || iv.lo.Cmp(k) < 0 {
			iv.lo = k
		}
	}
	if op == expr.Eq || op == expr.Le || op == expr.Lt {
		if iv.hi == nil || iv.hi.Cmp(k) > 0 {
			iv.hi = k
		}
	}
	syms[id.Name] = iv
}

func literalRat(e expr.Expr) *big.Rat {
	v, err := expr.Eval(e, expr.Valuation{})
	if err != nil {
		return nil
	}
	return ratOf(v)
}

// evalInterval over-approximates the value of e given the symbols'
// intervals.
func evalInterval(e expr.Expr, syms map[string]interval) interval {
	switch e := e.(type) {
	case *expr.IntLit, *expr.RealLit:
		k := literalRat(e)
		return interval{k, k}
	case *expr.Ident:
		if IsSymbol(e) {
			return syms[e.Name]
		}
	case *expr.Unary:
		x := evalInterval(e.X, syms)
		switch e.Op {
		case expr.Neg:
			return interval{neg(x.hi), neg(x.lo)}
		case expr.ToReal:
			return x
		}
	case *expr.Binary:
		return binaryInterval(e, syms)
	}
	return interval{}
}

func binaryInterval(e *expr.Binary, syms map[string]interval) interval {
	x, y := evalInterval(e.X, syms), evalInterval(e.Y, syms)
	switch e.Op {
	case expr.Add:
		return interval{add(x.lo, y.lo), add(x.hi, y.hi)}
	case expr.Sub:
		return interval{add(x.lo, neg(y.hi)), add(x.hi, neg(y.lo))}
	case expr.Mul:
		if k := literalRat(e.Y); k != nil {
			return scale(x, k)
		}
		if k := literalRat(e.X); k != nil {
			return scale(y, k)
		}
	}
	return interval{}
}

func scale(x interval, k *big.Rat) interval {
	lo, hi := mul(x.lo, k), mul(x.hi, k)
	if k.Sign() < 0 {
		lo, hi = hi, lo
	}
	if k.Sign() == 0 {
		z := new(big.Rat)
		return interval{z, z}
	}
	return interval{lo, hi}
}

func neg(a *big.Rat) *big.Rat {
	if a == nil {
		return nil
	}
	return new(big.Rat).Neg(a)
}

func add(a, b *big.Rat) *big.Rat {
	if a == nil || b == nil {
		return nil
	}
	return new(big.Rat).Add(a, b)
}

func mul(a, k *big.Rat) *big.Rat {
	if a == nil {
		return nil
	}
	return new(big.Rat).Mul(a, k)
}
