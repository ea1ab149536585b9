package abstraction

import "math/big"

// constraintVecSmall is constraintVec in machine integers, for the
// common constraint whose coefficients and constant are integers of at
// most 31 bits (a guard's a + b - r <= 0): the same primitive vector,
// tightened the same way, built without math/big's arithmetic. It
// reports false, and the caller converts with math/big, for any other
// constraint (rational coefficients, larger integers, no term).
func constraintVecSmall(sp *Space, c Constraint, tighten bool) (v vec, truth int, ok bool) {
	n := sp.Dim()
	if len(c.Expr.terms) == 0 {
		return vec{}, 0, false
	}
	xs := make([]int64, n+1)
	if k := c.Expr.k; k != nil {
		x, ok := smallRat(k)
		if !ok {
			return vec{}, 0, false
		}
		xs[0] = -x
	}
	allInt := true
	for _, t := range c.Expr.terms {
		if t.dim >= n {
			panic("abstraction: constraint dimension out of range")
		}
		x, ok := smallRat(t.coef)
		if !ok {
			return vec{}, 0, false
		}
		xs[t.dim+1] = -x // v = -expr: expr <= 0 iff v >= 0
		allInt = allInt && sp.isInt(t.dim)
	}
	if tighten && allInt {
		if c.Op == Lt {
			xs[0]--
		}
		if truth := tightenSmall(xs, c.Op == Eq); truth != 0 {
			return vec{}, truth, true
		}
	}
	divideByGCD(xs)
	return vec{s: xs}, 0, true
}

// smallRat returns r when it is an integer of at most 31 bits.
func smallRat(r *big.Rat) (int64, bool) {
	if !r.IsInt() {
		return 0, false
	}
	return small(r.Num())
}

// tightenSmall is tightenVec on int64 entries over integer dimensions
// (|x| < 2^31 + 1): with g the gcd of the variables' coefficients, an
// equality whose constant g does not divide holds nowhere (-1), and
// otherwise every entry is divided by g, rounding the constant down.
// A vector without variable is decided (+1 or -1).
func tightenSmall(xs []int64, eq bool) int {
	var g uint64
	for _, x := range xs[1:] {
		g = gcd64(g, abs64(x))
	}
	if g == 0 {
		if s := xs[0]; s == 0 || (!eq && s > 0) {
			return 1
		}
		return -1
	}
	if g == 1 {
		return 0
	}
	d := int64(g)
	if eq && xs[0]%d != 0 {
		return -1
	}
	for i := range xs {
		q := xs[i] / d
		if xs[i]%d != 0 && xs[i] < 0 {
			q-- // floor, as big.Int.Div for a positive divisor
		}
		xs[i] = q
	}
	return 0
}

// divideByGCD divides xs, in place, by the gcd of its entries.
func divideByGCD(xs []int64) {
	var g uint64
	for _, x := range xs {
		g = gcd64(g, abs64(x))
	}
	if g > 1 {
		for i := range xs {
			xs[i] /= int64(g)
		}
	}
}

// dotSign returns the sign of a·b, in int64 when every entry fits in 31
// bits and the partial sums stay below 2^62, with dot (z and t being
// its scratch) otherwise: the saturation and entailment tests need only
// the sign, and a machine integer allocates nothing.
func dotSign(a, b vec, z, t *big.Int) int {
	var acc int64
	for i := 0; i < a.len(); i++ {
		x, ok1 := a.entry(i)
		y, ok2 := b.entry(i)
		p := x * y // |p| < 2^62
		if !ok1 || !ok2 || (p > 0 && acc > 1<<62) || (p < 0 && acc < -1<<62) {
			dot(z, a, b, t)
			return z.Sign()
		}
		acc += p
	}
	switch {
	case acc > 0:
		return 1
	case acc < 0:
		return -1
	}
	return 0
}
