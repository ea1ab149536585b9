package abstraction

import (
	"math/big"
	"math/bits"
)

// A vec is a homogeneous integer vector of length dim+1. Index 0 is the
// homogenising coordinate: a constraint vector v stands for
// v[0] + sum_i v[i+1]*x_i (>= 0 or == 0), a generator vector g with
// g[0] > 0 for the point g[1:]/g[0] (a vertex) and with g[0] == 0 for a
// direction (ray or line).
//
// Vectors are kept primitive (gcd of the entries 1) so that equal
// constraints are syntactically equal. A vec is never modified once it
// is stored in a value or shared between computations.
type vec []big.Int

func unitVec(n, i int) vec {
	v := make(vec, n)
	v[i].SetInt64(1)
	return v
}

func (v vec) isZero() bool {
	for i := range v {
		if v[i].Sign() != 0 {
			return false
		}
	}
	return true
}

// onlyConst reports whether every coordinate but the first is zero.
func (v vec) onlyConst() bool {
	for i := 1; i < len(v); i++ {
		if v[i].Sign() != 0 {
			return false
		}
	}
	return true
}

// isPositivity reports whether v is the positivity constraint 1 >= 0,
// which every homogenised polyhedron satisfies; it is not exported.
func (v vec) isPositivity() bool { return v[0].Sign() > 0 && v.onlyConst() }

func (v vec) neg() vec {
	w := make(vec, len(v))
	for i := range v {
		w[i].Neg(&v[i])
	}
	return w
}

// small reports whether x fits in 31 bits, so that a product of two such
// values and sums of many products fit in an int64. Most coefficients
// met in practice are small; the fast paths below avoid math/big's
// allocations for them, and fall back to it otherwise.
func small(x *big.Int) (int64, bool) {
	// Read the digits directly: IsInt64 and Int64 each walk them again,
	// and this test runs for every entry of every dot product.
	ds := x.Bits()
	switch {
	case len(ds) == 0:
		return 0, true
	case len(ds) > 1 || uint64(ds[0]) >= 1<<31:
		return 0, false
	}
	v := int64(ds[0])
	if x.Sign() < 0 {
		v = -v
	}
	return v, true
}

// normalize divides v, in place, by the gcd of its entries.
func (v vec) normalize() {
	var g uint64
	for i := range v {
		x, ok := small(&v[i])
		if !ok {
			v.normalizeBig()
			return
		}
		if x < 0 {
			x = -x
		}
		a, b := g, uint64(x)
		for b != 0 {
			a, b = b, a%b
		}
		g = a
	}
	if g > 1 {
		for i := range v {
			v[i].SetInt64(v[i].Int64() / int64(g))
		}
	}
}

func (v vec) normalizeBig() {
	var g big.Int
	for i := range v {
		if v[i].Sign() == 0 {
			continue
		}
		if g.Sign() == 0 {
			g.Abs(&v[i])
		} else {
			g.GCD(nil, nil, &g, &v[i])
		}
		if g.IsInt64() && g.Int64() == 1 {
			return
		}
	}
	if g.Sign() == 0 || (g.IsInt64() && g.Int64() == 1) {
		return
	}
	for i := range v {
		if v[i].Sign() != 0 {
			v[i].Quo(&v[i], &g)
		}
	}
}

// dot sets z to a·b; t is scratch space.
func dot(z *big.Int, a, b vec, t *big.Int) {
	var acc int64 // partial sum of small products, |acc| < len*2^62 is avoided by flushing
	z.SetInt64(0)
	for i := range a {
		if a[i].Sign() == 0 || b[i].Sign() == 0 {
			continue
		}
		x, ok1 := small(&a[i])
		y, ok2 := small(&b[i])
		if ok1 && ok2 {
			p := x * y // |p| < 2^62
			if (p > 0 && acc > 1<<62) || (p < 0 && acc < -1<<62) {
				t.SetInt64(acc)
				z.Add(z, t)
				acc = 0
			}
			acc += p
			continue
		}
		t.Mul(&a[i], &b[i])
		z.Add(z, t)
	}
	if acc != 0 {
		if z.Sign() == 0 {
			z.SetInt64(acc)
		} else {
			t.SetInt64(acc)
			z.Add(z, t)
		}
	}
}

// combine returns the primitive vector ca*a + cb*b.
func combine(ca *big.Int, a vec, cb *big.Int, b vec) vec {
	if r, ok := combineSmall(ca, a, cb, b); ok {
		return r
	}
	r := make(vec, len(a))
	var t big.Int
	for i := range r {
		r[i].Mul(ca, &a[i])
		t.Mul(cb, &b[i])
		r[i].Add(&r[i], &t)
	}
	r.normalize()
	return r
}

// combineSmall is combine in machine integers: it fails (and the caller
// computes with math/big) unless ca, cb and every entry of a and b fit
// in 31 bits, so that each entry ca*a[i] + cb*b[i] fits in an int64
// (|.| < 2^63). The gcd is taken on the int64 entries, and the result's
// digits are allocated at once (fromInts).
func combineSmall(ca *big.Int, a vec, cb *big.Int, b vec) (vec, bool) {
	x, ok1 := small(ca)
	y, ok2 := small(cb)
	if !ok1 || !ok2 {
		return nil, false
	}
	var buf [16]int64
	xs := buf[:0]
	var g uint64
	for i := range a {
		u, ok3 := small(&a[i])
		w, ok4 := small(&b[i])
		if !ok3 || !ok4 {
			return nil, false
		}
		s := x*u + y*w
		xs = append(xs, s)
		g = gcd64(g, abs64(s))
	}
	if g > 1 {
		for i := range xs {
			xs[i] /= int64(g)
		}
	}
	return fromInts(xs), true
}

func abs64(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}

func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// fromInts returns the vector of xs (each |x| < 2^63). On 64-bit
// platforms the nonzero entries share one array of digits, one
// allocation instead of one per entry; each entry's slice of it has
// capacity 1, so that no entry can grow into another's digit.
func fromInts(xs []int64) vec {
	v := make(vec, len(xs))
	if bits.UintSize < 64 {
		for i, x := range xs {
			v[i].SetInt64(x)
		}
		return v
	}
	words := make([]big.Word, len(xs))
	for i, x := range xs {
		if x == 0 {
			continue
		}
		words[i] = big.Word(abs64(x))
		v[i].SetBits(words[i : i+1 : i+1])
		if x < 0 {
			v[i].Neg(&v[i])
		}
	}
	return v
}

// A bitset is a fixed-size set of small integers.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)>>6) }

func (b bitset) set(i int)      { b[i>>6] |= 1 << uint(i&63) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<uint(i&63)) != 0 }

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// subsetOf reports b ⊆ c; both must have the same size.
func (b bitset) subsetOf(c bitset) bool {
	for i, w := range b {
		if w&^c[i] != 0 {
			return false
		}
	}
	return true
}

func (b bitset) equal(c bitset) bool {
	for i, w := range b {
		if w != c[i] {
			return false
		}
	}
	return true
}

func (b bitset) clone() bitset { return append(bitset(nil), b...) }

// An echelon is a set of linearly independent rows in reduced row echelon
// form: each row has a positive entry at its pivot column and every other
// row is zero there. Pivots are chosen among the coordinates 1..dim (never
// the homogenising one when possible) so that reducing a constraint
// modulo equalities yields the canonical representative with zeros at
// the pivot variables.
type echelon struct {
	rows []vec
	piv  []int
}

// reduce returns a positive multiple of v minus a combination of rows
// that is zero at every pivot column. It may return v itself.
func (e *echelon) reduce(v vec) vec {
	var f big.Int
	for k, r := range e.rows {
		p := e.piv[k]
		if v[p].Sign() == 0 {
			continue
		}
		f.Neg(&v[p])
		v = combine(&r[p], v, &f, r)
	}
	return v
}

// add adds v to the row space and reports whether it was independent.
func (e *echelon) add(v vec) bool {
	w := e.reduce(v)
	p := -1
	for i := len(w) - 1; i >= 0; i-- {
		if w[i].Sign() != 0 {
			p = i
			break
		}
	}
	if p < 0 {
		return false
	}
	if w[p].Sign() < 0 {
		w = w.neg()
	}
	var f big.Int
	for k, r := range e.rows {
		if r[p].Sign() != 0 {
			f.Neg(&r[p])
			e.rows[k] = combine(&w[p], r, &f, w)
		}
	}
	e.rows = append(e.rows, w)
	e.piv = append(e.piv, p)
	return true
}

// constraintVec converts c to a primitive homogeneous constraint vector
// over sp: the constraint holds iff v[0] + v[1:]·x >= 0 (== 0 if eq).
// truth is +1 if c holds everywhere, -1 if nowhere (v is then nil), 0
// otherwise. With tighten, constraints over integer dimensions only are
// tightened: strict ones become non-strict by adding 1, and
// a·x + b >= 0 with g = gcd(a) becomes a/g·x + floor(b/g) >= 0 (an
// equality with g not dividing b is unsatisfiable). Without tighten,
// strict constraints are simply closed.
func constraintVec(sp *Space, c Constraint, tighten bool) (v vec, eq bool, truth int) {
	eq = c.Op == Eq
	if len(c.Expr.terms) == 0 {
		// A constant constraint is decided exactly.
		k := c.Expr.ConstTerm().Sign()
		if (c.Op == Le && k <= 0) || (c.Op == Eq && k == 0) || (c.Op == Lt && k < 0) {
			return nil, eq, 1
		}
		return nil, eq, -1
	}
	if v, truth, ok := constraintVecSmall(sp, c, tighten); ok {
		return v, eq, truth
	}
	v, truth = constraintVecBig(sp, c, tighten)
	return v, eq, truth
}

// constraintVecBig is constraintVec in math/big, for a constraint with
// at least one term.
func constraintVecBig(sp *Space, c Constraint, tighten bool) (v vec, truth int) {
	n := sp.Dim()
	eq := c.Op == Eq
	den := new(big.Int).Set(c.Expr.ConstTerm().Denom())
	allInt := true
	for _, t := range c.Expr.terms {
		if t.dim >= n {
			panic("abstraction: constraint dimension out of range")
		}
		lcm(den, t.coef.Denom())
		if !sp.isInt(t.dim) {
			allInt = false
		}
	}
	v = make(vec, n+1)
	scaled := func(z *big.Int, r *big.Rat) {
		z.Quo(den, r.Denom())
		z.Mul(z, r.Num())
		z.Neg(z) // v = -den*expr: expr <= 0 iff v >= 0
	}
	if c.Expr.k != nil {
		scaled(&v[0], c.Expr.k)
	}
	for _, t := range c.Expr.terms {
		scaled(&v[t.dim+1], t.coef)
	}
	if c.Op == Lt && allInt && tighten {
		v[0].Sub(&v[0], big.NewInt(1))
	}
	if tighten && allInt {
		return tightenVec(sp, v, eq)
	}
	v.normalize()
	return v, 0
}

// tightenVec tightens the fresh constraint vector v (see constraintVec)
// if all its variables are integer dimensions, and decides it if it has
// no variable. v may be modified.
func tightenVec(sp *Space, v vec, eq bool) (vec, int) {
	if v.onlyConst() {
		if s := v[0].Sign(); s == 0 || (!eq && s > 0) {
			return nil, 1
		}
		return nil, -1
	}
	g := new(big.Int)
	for i := 1; i < len(v); i++ {
		if v[i].Sign() != 0 {
			if !sp.isInt(i - 1) {
				v.normalize()
				return v, 0
			}
			g.GCD(nil, nil, g, &v[i])
		}
	}
	if g.Cmp(big.NewInt(1)) > 0 {
		if eq {
			var m big.Int
			if m.Mod(&v[0], g).Sign() != 0 {
				return nil, -1
			}
		}
		for i := range v {
			v[i].Div(&v[i], g) // Euclidean division: floor for g > 0
		}
	}
	v.normalize()
	return v, 0
}

// vecConstraint converts a constraint vector back to a Constraint.
func vecConstraint(v vec, eq bool) Constraint {
	var e LinExpr
	for i := 1; i < len(v); i++ {
		if v[i].Sign() != 0 {
			e.terms = append(e.terms, term{i - 1, new(big.Rat).SetInt(new(big.Int).Neg(&v[i]))})
		}
	}
	if v[0].Sign() != 0 {
		e.k = new(big.Rat).SetInt(new(big.Int).Neg(&v[0]))
	}
	op := Le
	if eq {
		op = Eq
	}
	return Constraint{Expr: e, Op: op}
}
