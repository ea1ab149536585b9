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

// mulAcc returns acc + x*y for 31-bit x and y, or false when the sum
// might leave (-2^63, 2^63): the caller then computes with math/big.
func mulAcc(acc, x, y int64) (int64, bool) {
	p := x * y // |p| < 2^62
	if (p > 0 && acc > 1<<62) || (p < 0 && acc < -1<<62) {
		return 0, false
	}
	return acc + p, true
}

// dot64 returns a·b when every entry fits in 31 bits and the partial
// sums stay below 2^62 in absolute value, and false otherwise.
func dot64(a, b vec) (int64, bool) {
	if a.b != nil || b.b != nil {
		return 0, false
	}
	var acc int64
	for i, x := range a.s {
		y := b.s[i]
		if x == 0 || y == 0 {
			continue
		}
		if x <= -1<<31 || x >= 1<<31 || y <= -1<<31 || y >= 1<<31 {
			return 0, false
		}
		var ok bool
		if acc, ok = mulAcc(acc, x, y); !ok {
			return 0, false
		}
	}
	return acc, true
}

// combine64 is combine for 31-bit coefficients x and y (see
// combineSmall), with math/big only when an entry is larger.
func combine64(x int64, a vec, y int64, b vec) vec {
	if r, ok := combineInts(x, a, y, b); ok {
		return r
	}
	return combine(big.NewInt(x), a, big.NewInt(y), b)
}

// mulVecSmall is affine.mulVec in machine integers, or false.
func (m *affine) mulVecSmall(g vec) (vec, bool) {
	k, ok := small(&m.scale)
	if !ok || g.b != nil {
		return vec{}, false
	}
	xs := make([]int64, len(g.s))
	for r, row := range m.rows {
		if row.isNil() {
			if xs[r], ok = mulAcc(0, k, g.s[r]); !ok || g.s[r] <= -1<<31 || g.s[r] >= 1<<31 {
				return vec{}, false
			}
		} else if xs[r], ok = dot64(row, g); !ok {
			return vec{}, false
		}
	}
	divideByGCD(xs)
	return vec{s: xs}, true
}

// vecMulSmall is affine.vecMul in machine integers, or false.
func (m *affine) vecMulSmall(a vec) (vec, bool) {
	k, ok := small(&m.scale)
	if !ok || a.b != nil {
		return vec{}, false
	}
	for _, x := range a.s {
		if x <= -1<<31 || x >= 1<<31 {
			return vec{}, false
		}
	}
	xs := make([]int64, len(a.s))
	for r, row := range m.rows {
		if row.isNil() {
			xs[r] = k * a.s[r]
		}
	}
	for r, row := range m.rows {
		if row.isNil() || a.s[r] == 0 {
			continue
		}
		if row.b != nil {
			return vec{}, false
		}
		for c, y := range row.s {
			if y <= -1<<31 || y >= 1<<31 {
				return vec{}, false
			}
			if xs[c], ok = mulAcc(xs[c], a.s[r], y); !ok {
				return vec{}, false
			}
		}
	}
	divideByGCD(xs)
	return vec{s: xs}, true
}
