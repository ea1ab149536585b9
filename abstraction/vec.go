package abstraction

import (
	"math"
	"math/big"
	"math/bits"
)

// A vec is a homogeneous integer vector of length dim+1. Index 0 is the
// homogenising coordinate: a constraint vector v stands for
// v[0] + sum_i v[i+1]*x_i (>= 0 or == 0), a generator vector g with
// g[0] > 0 for the point g[1:]/g[0] (a vertex) and with g[0] == 0 for a
// direction (ray or line).
//
// The entries are machine integers in s when every one of them lies in
// (-2^63, 2^63) (s is then a pointer-free array: one allocation, never
// scanned by the garbage collector), and math/big integers in b
// otherwise (s is then nil). The form is canonical: a vector whose
// entries all fit is never held in b, so the form depends only on the
// values. Arithmetic takes the machine-integer path when its operands
// fit in 31 bits and math/big otherwise, so results are exact.
//
// Vectors are kept primitive (gcd of the entries 1) so that equal
// constraints are syntactically equal. A vec is never modified once it
// is stored in a value or shared between computations.
type vec struct {
	s []int64
	b *[]big.Int // a pointer, so that a vec takes 32 bytes, not 48
}

// fits reports whether x may be held in a vec's machine-integer form.
func fits(x *big.Int) bool { return x.IsInt64() && x.Int64() != math.MinInt64 }

// fromBig returns the vector of xs, in machine integers when they all
// fit; xs is kept (not copied) otherwise.
func fromBig(xs []big.Int) vec {
	for i := range xs {
		if !fits(&xs[i]) {
			return vec{b: &xs}
		}
	}
	s := make([]int64, len(xs))
	for i := range xs {
		s[i] = xs[i].Int64()
	}
	return vec{s: s}
}

// primitive divides xs by the gcd of its entries and returns their vec.
func primitive(xs []big.Int) vec {
	normalizeBig(xs)
	return fromBig(xs)
}

// fromInts returns the vector of a copy of xs (each |x| < 2^63).
func fromInts(xs []int64) vec {
	s := make([]int64, len(xs))
	copy(s, xs)
	return vec{s: s}
}

func unitVec(n, i int) vec {
	s := make([]int64, n)
	s[i] = 1
	return vec{s: s}
}

func (v vec) len() int {
	if v.b != nil {
		return len(*v.b)
	}
	return len(v.s)
}

// isNil reports whether v is the zero vec (no entries at all).
func (v vec) isNil() bool { return v.s == nil && v.b == nil }

func (v vec) sign(i int) int {
	if v.b != nil {
		return (*v.b)[i].Sign()
	}
	switch x := v.s[i]; {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// at sets z to entry i and returns z.
func (v vec) at(i int, z *big.Int) *big.Int {
	if v.b != nil {
		return z.Set(&(*v.b)[i])
	}
	return z.SetInt64(v.s[i])
}

// entry returns entry i when it fits in 31 bits (see small).
func (v vec) entry(i int) (int64, bool) {
	if v.b != nil {
		return small(&(*v.b)[i])
	}
	x := v.s[i]
	return x, x > -1<<31 && x < 1<<31
}

// bigs returns the entries in math/big: v's own when it has that form
// (not to be modified), a fresh slice otherwise.
func (v vec) bigs() []big.Int {
	if v.b != nil {
		return *v.b
	}
	b := make([]big.Int, len(v.s))
	for i, x := range v.s {
		b[i].SetInt64(x)
	}
	return b
}

func (v vec) isZero() bool {
	for i := 0; i < v.len(); i++ {
		if v.sign(i) != 0 {
			return false
		}
	}
	return true
}

// onlyConst reports whether every coordinate but the first is zero.
func (v vec) onlyConst() bool {
	for i := 1; i < v.len(); i++ {
		if v.sign(i) != 0 {
			return false
		}
	}
	return true
}

// isPositivity reports whether v is the positivity constraint 1 >= 0,
// which every homogenised polyhedron satisfies; it is not exported.
func (v vec) isPositivity() bool { return v.sign(0) > 0 && v.onlyConst() }

func (v vec) neg() vec {
	if v.b == nil {
		s := make([]int64, len(v.s))
		for i, x := range v.s {
			s[i] = -x
		}
		return vec{s: s}
	}
	w := make([]big.Int, len(*v.b))
	for i := range *v.b {
		w[i].Neg(&(*v.b)[i])
	}
	return fromBig(w)
}

// small reports whether x fits in 31 bits, so that a product of two such
// values and sums of many products fit in an int64. Most coefficients
// met in practice are small; the fast paths below avoid math/big's
// allocations for them, and fall back to it otherwise.
func small(x *big.Int) (int64, bool) {
	if !x.IsInt64() {
		return 0, false
	}
	v := x.Int64()
	return v, v > -1<<31 && v < 1<<31
}

// normalizeBig divides xs, in place, by the gcd of its entries.
func normalizeBig(xs []big.Int) {
	var g big.Int
	for i := range xs {
		if xs[i].Sign() == 0 {
			continue
		}
		if g.Sign() == 0 {
			g.Abs(&xs[i])
		} else {
			g.GCD(nil, nil, &g, &xs[i])
		}
		if g.IsInt64() && g.Int64() == 1 {
			return
		}
	}
	if g.Sign() == 0 || (g.IsInt64() && g.Int64() == 1) {
		return
	}
	for i := range xs {
		if xs[i].Sign() != 0 {
			xs[i].Quo(&xs[i], &g)
		}
	}
}

// dot sets z to a·b; t is scratch space.
func dot(z *big.Int, a, b vec, t *big.Int) {
	var acc int64 // partial sum of small products, flushed before |acc| passes 2^62
	var u big.Int
	z.SetInt64(0)
	for i := 0; i < a.len(); i++ {
		if a.sign(i) == 0 || b.sign(i) == 0 {
			continue
		}
		x, ok1 := a.entry(i)
		y, ok2 := b.entry(i)
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
		t.Mul(a.at(i, t), b.at(i, &u))
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
	r := make([]big.Int, a.len())
	var t, u big.Int
	for i := range r {
		r[i].Mul(ca, a.at(i, &u))
		t.Mul(cb, b.at(i, &u))
		r[i].Add(&r[i], &t)
	}
	return primitive(r)
}

// combineSmall is combine in machine integers: it fails (and the caller
// computes with math/big) unless ca, cb and every entry of a and b fit
// in 31 bits, so that each entry ca*a[i] + cb*b[i] fits in an int64
// (|.| < 2^63). The gcd is taken on the int64 entries.
func combineSmall(ca *big.Int, a vec, cb *big.Int, b vec) (vec, bool) {
	x, ok1 := small(ca)
	y, ok2 := small(cb)
	if !ok1 || !ok2 {
		return vec{}, false
	}
	return combineInts(x, a, y, b)
}

// combineInts is combineSmall given the coefficients in 31 bits.
func combineInts(x int64, a vec, y int64, b vec) (vec, bool) {
	if a.b != nil || b.b != nil {
		return vec{}, false
	}
	xs := make([]int64, len(a.s))
	var g uint64
	for i, u := range a.s {
		w := b.s[i]
		if u <= -1<<31 || u >= 1<<31 || w <= -1<<31 || w >= 1<<31 {
			return vec{}, false
		}
		s := x*u + y*w
		xs[i] = s
		g = gcd64(g, abs64(s))
	}
	if g > 1 {
		for i := range xs {
			xs[i] /= int64(g)
		}
	}
	return vec{s: xs}, true
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
	var f, c big.Int
	for k, r := range e.rows {
		p := e.piv[k]
		if v.sign(p) == 0 {
			continue
		}
		x, ok1 := r.entry(p)
		y, ok2 := v.entry(p)
		if ok1 && ok2 {
			v = combine64(x, v, -y, r)
			continue
		}
		v.at(p, &f)
		f.Neg(&f)
		v = combine(r.at(p, &c), v, &f, r)
	}
	return v
}

// add adds v to the row space and reports whether it was independent.
func (e *echelon) add(v vec) bool {
	w := e.reduce(v)
	p := -1
	for i := w.len() - 1; i >= 0; i-- {
		if w.sign(i) != 0 {
			p = i
			break
		}
	}
	if p < 0 {
		return false
	}
	if w.sign(p) < 0 {
		w = w.neg()
	}
	var f, c big.Int // the pivot is positive: reduce the others to zero there
	for k, r := range e.rows {
		if r.sign(p) == 0 {
			continue
		}
		x, ok1 := w.entry(p)
		y, ok2 := r.entry(p)
		if ok1 && ok2 {
			e.rows[k] = combine64(x, r, -y, w)
		} else {
			r.at(p, &f)
			f.Neg(&f)
			e.rows[k] = combine(w.at(p, &c), r, &f, w)
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
			return vec{}, eq, 1
		}
		return vec{}, eq, -1
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
	xs := make([]big.Int, n+1)
	scaled := func(z *big.Int, r *big.Rat) {
		z.Quo(den, r.Denom())
		z.Mul(z, r.Num())
		z.Neg(z) // v = -den*expr: expr <= 0 iff v >= 0
	}
	if c.Expr.k != nil {
		scaled(&xs[0], c.Expr.k)
	}
	for _, t := range c.Expr.terms {
		scaled(&xs[t.dim+1], t.coef)
	}
	if c.Op == Lt && allInt && tighten {
		xs[0].Sub(&xs[0], big.NewInt(1))
	}
	if tighten && allInt {
		return tightenBig(sp, xs, eq)
	}
	return primitive(xs), 0
}

// tightenVec tightens the constraint vector v (see constraintVec) if all
// its variables are integer dimensions, and decides it if it has no
// variable. v is not modified.
func tightenVec(sp *Space, v vec, eq bool) (vec, int) {
	if v.b != nil {
		return tightenBig(sp, append([]big.Int(nil), *v.b...), eq)
	}
	if v.onlyConst() {
		return vec{}, constTruth(v.sign(0), eq)
	}
	for i := 1; i < len(v.s); i++ {
		if v.s[i] != 0 && !sp.isInt(i-1) {
			xs := fromInts(v.s)
			divideByGCD(xs.s)
			return xs, 0
		}
	}
	xs := fromInts(v.s)
	if truth := tightenSmall(xs.s, eq); truth != 0 {
		return vec{}, truth
	}
	divideByGCD(xs.s)
	return xs, 0
}

// constTruth decides the constraint s >= 0 (s == 0 if eq) for the sign
// s of a constant.
func constTruth(s int, eq bool) int {
	if s == 0 || (!eq && s > 0) {
		return 1
	}
	return -1
}

// tightenBig is tightenVec on the entries v, which it may modify.
func tightenBig(sp *Space, v []big.Int, eq bool) (vec, int) {
	if fromBig(v).onlyConst() {
		return vec{}, constTruth(v[0].Sign(), eq)
	}
	g := new(big.Int)
	for i := 1; i < len(v); i++ {
		if v[i].Sign() != 0 {
			if !sp.isInt(i - 1) {
				return primitive(v), 0
			}
			g.GCD(nil, nil, g, &v[i])
		}
	}
	if g.Cmp(big.NewInt(1)) > 0 {
		if eq {
			var m big.Int
			if m.Mod(&v[0], g).Sign() != 0 {
				return vec{}, -1
			}
		}
		for i := range v {
			v[i].Div(&v[i], g) // Euclidean division: floor for g > 0
		}
	}
	return primitive(v), 0
}

// vecConstraint converts a constraint vector back to a Constraint.
func vecConstraint(v vec, eq bool) Constraint {
	var e LinExpr
	negRat := func(i int) *big.Rat {
		if v.b == nil {
			return new(big.Rat).SetInt64(-v.s[i])
		}
		x := v.at(i, new(big.Int))
		return new(big.Rat).SetInt(x.Neg(x))
	}
	for i := 1; i < v.len(); i++ {
		if v.sign(i) != 0 {
			e.terms = append(e.terms, term{i - 1, negRat(i)})
		}
	}
	if v.sign(0) != 0 {
		e.k = negRat(0)
	}
	op := Le
	if eq {
		op = Eq
	}
	return Constraint{Expr: e, Op: op}
}
