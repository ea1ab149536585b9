package abstraction

import (
	"math/big"
	"sort"
	"strings"
)

// Polyhedra returns the domain of convex closed polyhedra.
func Polyhedra() Domain { return polyDomain{} }

type polyDomain struct{}

func (polyDomain) Name() string             { return "polyhedra" }
func (polyDomain) Universe(sp *Space) Value { return universePoly(sp) }
func (polyDomain) Empty(sp *Space) Value    { return &poly{sp: sp, empty: true} }

// A poly is a closed convex polyhedron in double description: the cone
// {y in R^(n+1) : eqs·y = 0, ineqs·y >= 0} whose section at y[0] = 1 is
// the polyhedron, and the same cone as lines + nonnegative combinations
// of rays. Both sides are always minimal. ineqs contains the positivity
// constraint y[0] >= 0 only when it is a facet of the cone; it is never
// exported. Values are immutable.
type poly struct {
	sp          *Space
	empty       bool
	eqs, ineqs  []vec
	lines, rays []vec
	// pcons are the constraints of the primal side (primalCons) and
	// psat[j] says which of them rays[j] saturates, as dd.sat does; nil
	// until primalDD needs them. They are derived from the other
	// fields, which is why a value stays immutable for its users when
	// they are filled in.
	pcons []vec
	psat  []bitset
}

func universePoly(sp *Space) *poly {
	n := sp.Dim() + 1
	p := &poly{sp: sp, ineqs: []vec{unitVec(n, 0)}, rays: []vec{unitVec(n, 0)}}
	for i := 1; i < n; i++ {
		p.lines = append(p.lines, unitVec(n, i))
	}
	return p
}

func emptyPoly(sp *Space) *poly { return &poly{sp: sp, empty: true} }

// cast returns v as a polyhedron of the same space, panicking on a
// programming error (another domain's value, a different dimension).
func (p *poly) cast(v Value) *poly {
	q, ok := v.(*poly)
	if !ok {
		panic("abstraction: mixing values of different domains")
	}
	checkSameDim(p.sp, q.sp)
	return q
}

func (p *poly) dim() int { return p.sp.Dim() + 1 }

// primalDD returns p's pair with the constraints as the constraint side,
// the positivity constraint first (see dd.minimize).
//
// The saturation bitsets are computed once per value (or derived from
// the conversion that made it, see fromConstraints): a value met with
// many guards, such as a location's reach, pays its dot products once.
func (p *poly) primalDD(extra int) *dd {
	if p.pcons == nil {
		p.pcons = p.primalCons()
	}
	if p.psat == nil {
		p.psat = satMatrix(p.pcons, p.rays)
	}
	return newDDSat(p.dim(), p.eqs, p.pcons, p.lines, p.rays, p.psat, extra)
}

// primalCons returns the positivity constraint, then p's inequalities
// but positivity.
func (p *poly) primalCons() []vec {
	cons := make([]vec, 0, len(p.ineqs)+1)
	cons = append(cons, unitVec(p.dim(), 0))
	for _, c := range p.ineqs {
		if !c.isPositivity() {
			cons = append(cons, c)
		}
	}
	return cons
}

// satMatrix returns the bitsets of the constraints that each ray
// saturates (bit i of row j: cons[i]·rays[j] == 0).
func satMatrix(cons, rays []vec) []bitset {
	sat := make([]bitset, len(rays))
	var s, t big.Int
	w := (len(cons) + 63) >> 6
	all := make(bitset, w*len(rays)) // one allocation; rows are never grown in place
	for j, r := range rays {
		b := all[j*w : (j+1)*w : (j+1)*w]
		for i, c := range cons {
			if dotSign(c, r, &s, &t) == 0 {
				b.set(i)
			}
		}
		sat[j] = b
	}
	return sat
}

// primalSat returns the psat of the polyhedron whose inequalities ineqs
// were kept by d.minimize from d's constraints src: a constraint reduced
// modulo equalities that every ray satisfies saturates the same rays,
// so the bits are d's, reordered.
func primalSat(d *dd, ineqs []vec, src []int) []bitset {
	idx := make([]int, 0, len(ineqs))
	for k, c := range ineqs {
		if !c.isPositivity() {
			idx = append(idx, src[k])
		}
	}
	w := (len(idx) + 1 + 63) >> 6
	all := make(bitset, w*len(d.rays))
	sat := make([]bitset, len(d.rays))
	for j, r := range d.rays {
		b := all[j*w : (j+1)*w : (j+1)*w]
		if r.sign(0) == 0 {
			b.set(0)
		}
		for k, i := range idx {
			if d.sat[j].has(i) {
				b.set(k + 1)
			}
		}
		sat[j] = b
	}
	return sat
}

// dualDD returns p's pair with the generators as the constraint side.
func (p *poly) dualDD(extra int) *dd {
	return newDD(p.dim(), p.lines, p.rays, p.eqs, p.ineqs, extra)
}

// fromConstraints returns base ∩ {eqs, ineqs}, base being the universe if
// nil. The constraint vectors are taken as they are (no tightening).
func fromConstraints(sp *Space, base *poly, eqs, ineqs []vec) *poly {
	n := sp.Dim() + 1
	var d *dd
	if base == nil {
		d = universeDD(n, len(ineqs)+1)
		d.add(unitVec(n, 0), false)
	} else {
		d = base.primalDD(len(ineqs))
	}
	for _, e := range eqs {
		if d.add(e, true) && !d.hasPoint() {
			return emptyPoly(sp)
		}
	}
	for _, c := range ineqs {
		if d.add(c, false) && !d.hasPoint() {
			return emptyPoly(sp)
		}
	}
	eqs, ineqs, src := d.minimize()
	return &poly{sp: sp, eqs: eqs, ineqs: ineqs, lines: d.lines, rays: d.rays, psat: primalSat(d, ineqs, src)}
}

// fromGenerators returns the closed convex hull of base and the given
// generators (base may be nil). Zero vectors are ignored.
func fromGenerators(sp *Space, base *poly, lines, rays []vec) *poly {
	n := sp.Dim() + 1
	var d *dd
	if base == nil {
		hasPoint := false
		for _, r := range rays {
			hasPoint = hasPoint || r.sign(0) > 0
		}
		if !hasPoint {
			return emptyPoly(sp)
		}
		d = universeDD(n, len(rays))
	} else {
		d = base.dualDD(len(rays))
	}
	for _, l := range lines {
		if !l.isZero() {
			d.add(l, true)
		}
	}
	for _, r := range rays {
		if !r.isZero() {
			d.add(r, false)
		}
	}
	glines, grays, _ := d.minimize()
	// The constraint side (d's generators) is minimal; put it in the
	// canonical form: equalities in reduced echelon form, inequalities
	// reduced modulo them (which turns any representative of the
	// positivity facet into 1 >= 0 itself).
	var ech echelon
	for _, e := range d.lines {
		ech.add(e)
	}
	ineqs := make([]vec, len(d.rays))
	for i, c := range d.rays {
		ineqs[i] = ech.reduce(c)
	}
	return &poly{sp: sp, eqs: ech.rows, ineqs: ineqs, lines: glines, rays: grays}
}

// entails reports whether every point of p satisfies v (>= 0, or == 0 if eq).
func (p *poly) entails(v vec, eq bool) bool {
	if p.empty {
		return true
	}
	var s, t big.Int
	for _, l := range p.lines {
		if dotSign(v, l, &s, &t) != 0 {
			return false
		}
	}
	for _, r := range p.rays {
		if sg := dotSign(v, r, &s, &t); sg < 0 || (eq && sg != 0) {
			return false
		}
	}
	return true
}

// includes reports q ⊆ p: every generator of q satisfies every
// constraint of p.
func (p *poly) includes(q *poly) bool {
	if q.empty {
		return true
	}
	if p.empty {
		return false
	}
	for _, e := range p.eqs {
		if !q.entails(e, true) {
			return false
		}
	}
	for _, c := range p.ineqs {
		if !c.isPositivity() && !q.entails(c, false) {
			return false
		}
	}
	return true
}

func (p *poly) Space() *Space { return p.sp }
func (p *poly) IsEmpty() bool { return p.empty }

func (p *poly) IsUniverse() bool {
	if p.empty || len(p.eqs) > 0 {
		return false
	}
	for _, c := range p.ineqs {
		if !c.isPositivity() {
			return false
		}
	}
	return true
}

func (p *poly) Includes(o Value) bool { return p.includes(p.cast(o)) }

func (p *poly) Equal(o Value) bool {
	q := p.cast(o)
	if p.empty || q.empty {
		return p.empty == q.empty
	}
	// Minimal representations of equal polyhedra have equal sizes.
	if len(p.eqs) != len(q.eqs) || len(p.lines) != len(q.lines) || len(p.rays) != len(q.rays) {
		return false
	}
	return p.includes(q) && q.includes(p)
}

func (p *poly) Meet(o Value) Value {
	q := p.cast(o)
	switch {
	case p.empty:
		return p
	case q.empty:
		return q
	case p.includes(q):
		return q
	case q.includes(p):
		return p
	}
	ineqs := make([]vec, 0, len(q.ineqs))
	for _, c := range q.ineqs {
		if !c.isPositivity() {
			ineqs = append(ineqs, c)
		}
	}
	return fromConstraints(p.sp, p, q.eqs, ineqs)
}

// MeetConstraints intersects p with cs. Constraints over integer
// dimensions only are tightened (see Lt and constraintVec); strict
// constraints over rational dimensions are closed. A constraint that
// every generator of p satisfies is skipped (a scan of the generators
// instead of a conversion): p is then its own meet with it.
func (p *poly) MeetConstraints(cs []Constraint) Value {
	if p.empty {
		return p
	}
	return p.meetConjunction(NewConjunction(p.sp, cs))
}

// meetConjunction is MeetConstraints with the constraints converted.
func (p *poly) meetConjunction(k *Conjunction) Value {
	if p.empty {
		return p
	}
	if k.none {
		return emptyPoly(p.sp)
	}
	var eqs, ineqs []vec
	for i, v := range k.vs {
		switch {
		case p.entails(v, k.eq[i]):
		case k.eq[i]:
			eqs = append(eqs, v)
		default:
			ineqs = append(ineqs, v)
		}
	}
	if len(eqs) == 0 && len(ineqs) == 0 {
		return p
	}
	return fromConstraints(p.sp, p, eqs, ineqs)
}

// A Conjunction is a list of constraints converted once for the
// polyhedra of a space (tightened as MeetConstraints does), for a guard
// met with many values.
type Conjunction struct {
	sp   *Space
	cs   []Constraint
	vs   []vec // the constraints neither true nor false, in order
	eq   []bool
	none bool // some constraint holds nowhere
}

// NewConjunction converts cs for the polyhedra of sp.
func NewConjunction(sp *Space, cs []Constraint) *Conjunction {
	k := &Conjunction{sp: sp, cs: cs}
	for _, c := range cs {
		v, eq, truth := constraintVec(sp, c, true)
		switch {
		case truth < 0:
			k.none = true
			return k
		case truth == 0:
			k.vs = append(k.vs, v)
			k.eq = append(k.eq, eq)
		}
	}
	return k
}

// MeetConjunction returns v.MeetConstraints of k's constraints; a
// polyhedron of k's space does not convert them again.
func MeetConjunction(v Value, k *Conjunction) Value {
	if p, ok := v.(*poly); ok && p.sp == k.sp {
		return p.meetConjunction(k)
	}
	return v.MeetConstraints(k.cs)
}

// Join returns the closed convex hull of p and o: the union of their
// generators, converted back to constraints.
func (p *poly) Join(o Value) Value {
	q := p.cast(o)
	switch {
	case p.empty:
		return q
	case q.empty:
		return p
	case p.includes(q):
		return p
	case q.includes(p):
		return q
	}
	if len(q.rays)+len(q.lines) > len(p.rays)+len(p.lines) {
		p, q = q, p // add the fewer generators
	}
	return fromGenerators(p.sp, p, q.lines, q.rays)
}

func (p *poly) join(q *poly) *poly { return p.Join(q).(*poly) }

// Widen is the standard widening of Halbwachs (1979), in the formulation
// that does not depend on the constraint representation of p (Bagnara et
// al., "Precise widening operators for convex polyhedra", 2003): with p
// the older iterate and q = p ⊔ newer, the result is given by
//   - the constraints of p satisfied by q;
//   - the constraints of q that saturate exactly the same generators of p
//     as some constraint of p (they can replace it in p's description);
//   - the thresholds satisfied by both p and q (widening "up to").
//
// Equalities are split into two inequalities first. The result contains
// q, and an increasing chain of widenings is eventually stable because
// the first two sets only shrink (Halbwachs' argument) and thresholds are
// finitely many.
func (p *poly) Widen(newer Value, thresholds []Constraint) Value {
	q := p.cast(newer)
	if p.empty {
		return q
	}
	if !q.includes(p) {
		q = p.join(q)
	}
	split := func(x *poly) []vec {
		r := make([]vec, 0, 2*len(x.eqs)+len(x.ineqs))
		for _, e := range x.eqs {
			r = append(r, e, e.neg())
		}
		for _, c := range x.ineqs {
			if !c.isPositivity() {
				r = append(r, c)
			}
		}
		return r
	}
	var s, t big.Int
	satOf := func(c vec) bitset {
		b := newBitset(len(p.rays))
		for j, r := range p.rays {
			if dotSign(c, r, &s, &t) == 0 {
				b.set(j)
			}
		}
		return b
	}
	c1 := split(p)
	sat1 := make([]bitset, len(c1))
	var keep []vec
	for i, c := range c1 {
		sat1[i] = satOf(c)
		if q.entails(c, false) {
			keep = append(keep, c)
		}
	}
	for _, c := range split(q) {
		sc := satOf(c)
		for _, s1 := range sat1 {
			if sc.equal(s1) {
				keep = append(keep, c)
				break
			}
		}
	}
	for _, th := range thresholds {
		v, eq, truth := constraintVec(p.sp, th, false)
		if truth != 0 {
			continue
		}
		vs := []vec{v}
		if eq {
			vs = append(vs, v.neg())
		}
		for _, v := range vs {
			if p.entails(v, false) && q.entails(v, false) {
				keep = append(keep, v)
			}
		}
	}
	return fromConstraints(p.sp, nil, nil, keep)
}

// Forget projects the given dimensions away (exactly: adding the unit
// lines to the generators), leaving them unconstrained.
func (p *poly) Forget(dims ...int) Value {
	if p.empty || len(dims) == 0 {
		return p
	}
	lines := make([]vec, 0, len(dims))
	for _, d := range dims {
		if d < 0 || d >= p.sp.Dim() {
			panic("abstraction: dimension out of range")
		}
		if !p.free(d) {
			lines = append(lines, unitVec(p.dim(), d+1))
		}
	}
	if len(lines) == 0 {
		return p
	}
	return fromGenerators(p.sp, p, lines, nil)
}

// An affine is a homogeneous (n+1)x(n+1) integer matrix equal to
// scale·I except in the rows that are non-nil: the matrix of a
// simultaneous assignment touches only the assigned rows.
type affine struct {
	scale big.Int
	rows  []vec
}

// mulVec returns the primitive vector m·g.
func (m *affine) mulVec(g vec) vec {
	if v, ok := m.mulVecSmall(g); ok {
		return v
	}
	v := make([]big.Int, g.len())
	var t big.Int
	for r, row := range m.rows {
		if row.isNil() {
			v[r].Mul(&m.scale, g.at(r, &t))
		} else {
			dot(&v[r], row, g, &t)
		}
	}
	return primitive(v)
}

// vecMul returns the primitive vector a·m.
func (m *affine) vecMul(a vec) vec {
	if v, ok := m.vecMulSmall(a); ok {
		return v
	}
	v := make([]big.Int, a.len())
	var t, x, y big.Int
	for r, row := range m.rows {
		if row.isNil() {
			v[r].Mul(&m.scale, a.at(r, &t))
		}
	}
	for r, row := range m.rows {
		if row.isNil() || a.sign(r) == 0 {
			continue
		}
		a.at(r, &x)
		for c := 0; c < row.len(); c++ {
			if row.sign(c) != 0 {
				t.Mul(&x, row.at(c, &y))
				v[c].Add(&v[c], &t)
			}
		}
	}
	return primitive(v)
}

// free reports whether dimension d is unconstrained in p: no constraint
// mentions it (the unit line of d is then in p's lineality space).
func (p *poly) free(d int) bool {
	for _, e := range p.eqs {
		if e.sign(d+1) != 0 {
			return false
		}
	}
	for _, c := range p.ineqs {
		if c.sign(d+1) != 0 {
			return false
		}
	}
	return true
}

// affineMatrix returns L·M, where M is the homogeneous matrix of the
// simultaneous assignment and L > 0 the lcm of its denominators.
func affineMatrix(sp *Space, assign map[int]LinExpr) *affine {
	n := sp.Dim() + 1
	m := &affine{rows: make([]vec, n)}
	m.scale.SetInt64(1)
	for d, e := range assign {
		if d < 0 || d >= sp.Dim() {
			panic("abstraction: assignment dimension out of range")
		}
		lcm(&m.scale, e.ConstTerm().Denom())
		for _, t := range e.terms {
			if t.dim >= sp.Dim() {
				panic("abstraction: expression dimension out of range")
			}
			lcm(&m.scale, t.coef.Denom())
		}
	}
	set := func(z *big.Int, r *big.Rat) {
		z.Quo(&m.scale, r.Denom())
		z.Mul(z, r.Num())
	}
	for d, e := range assign {
		row := make([]big.Int, n)
		if e.k != nil {
			set(&row[0], e.k)
		}
		for _, t := range e.terms {
			set(&row[t.dim+1], t.coef)
		}
		m.rows[d+1] = fromBig(row)
	}
	return m
}

// Image computes the image by the simultaneous assignment: exact, by
// mapping the generators. No integer tightening is applied.
func (p *poly) Image(assign map[int]LinExpr) Value {
	if p.empty || len(assign) == 0 {
		return p
	}
	m := affineMatrix(p.sp, assign)
	if inv, ok := inverseMatrix(m); ok {
		return p.transform(inv, m)
	}
	if q, ok := p.imageByProjection(assign); ok {
		return q
	}
	apply := func(gs []vec) []vec {
		out := make([]vec, len(gs))
		for k, g := range gs {
			out[k] = m.mulVec(g)
		}
		return out
	}
	return fromGenerators(p.sp, nil, apply(p.lines), apply(p.rays))
}

// imageByProjection handles assignments whose right-hand sides do not
// mention any assigned dimension (x := 0, x := y + 1, ...): the image is
// then the projection of the assigned dimensions intersected with
// x_d = e_d, two incremental conversions instead of a full one.
func (p *poly) imageByProjection(assign map[int]LinExpr) (*poly, bool) {
	dims := make([]int, 0, len(assign))
	for d, e := range assign {
		for _, t := range e.terms {
			if _, ok := assign[t.dim]; ok {
				return nil, false
			}
		}
		dims = append(dims, d)
	}
	sort.Ints(dims) // deterministic
	q := p.Forget(dims...).(*poly)
	eqs := make([]vec, 0, len(dims))
	for _, d := range dims {
		v, _, truth := constraintVec(p.sp, Constraint{Var(d).Sub(assign[d]), Eq}, false)
		if truth == 0 {
			eqs = append(eqs, v)
		}
	}
	return fromConstraints(p.sp, q, eqs, nil), true
}

// Preimage computes {v | assign(v) ∈ p} by substituting the assignment
// into p's constraints; substituted constraints over integer dimensions
// only are tightened.
func (p *poly) Preimage(assign map[int]LinExpr) Value {
	if p.empty || len(assign) == 0 {
		return p
	}
	m := affineMatrix(p.sp, assign)
	if inv, ok := inverseMatrix(m); ok {
		if q := p.transform(m, inv); !q.tightenable() {
			return q
		}
	}
	subst := m.vecMul
	var eqs, ineqs []vec
	for _, e := range p.eqs {
		v, truth := tightenVec(p.sp, subst(e), true)
		if truth < 0 {
			return emptyPoly(p.sp)
		} else if truth == 0 {
			eqs = append(eqs, v)
		}
	}
	for _, c := range p.ineqs {
		if c.isPositivity() {
			continue
		}
		v, truth := tightenVec(p.sp, subst(c), false)
		if truth < 0 {
			return emptyPoly(p.sp)
		} else if truth == 0 {
			ineqs = append(ineqs, v)
		}
	}
	return fromConstraints(p.sp, nil, eqs, ineqs)
}

func (p *poly) Constraints() []Constraint {
	if p.empty {
		return []Constraint{falseConstraint()}
	}
	cs := make([]Constraint, 0, len(p.eqs)+len(p.ineqs))
	for _, e := range p.eqs {
		cs = append(cs, vecConstraint(e, true))
	}
	for _, c := range p.ineqs {
		if !c.isPositivity() {
			cs = append(cs, vecConstraint(c, false))
		}
	}
	return cs
}

func (p *poly) String() string { return formatConstraints(p.sp, p.Constraints(), p.empty) }

func falseConstraint() Constraint {
	return Constraint{Expr: Const(big.NewRat(1, 1)), Op: Le}
}

// formatConstraints renders a constraint list as "{c1, c2}", or "false"
// for an empty value and "true" for a universe.
func formatConstraints(sp *Space, cs []Constraint, empty bool) string {
	if empty {
		return "false"
	}
	if len(cs) == 0 {
		return "true"
	}
	var b strings.Builder
	b.WriteString("{")
	for i, c := range cs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c.String(sp))
	}
	b.WriteString("}")
	return b.String()
}
