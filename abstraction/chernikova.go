package abstraction

import "math/big"

// A dd is a double description pair under construction: a cone given both
// by constraints (equalities eqs, inequalities cons: a·y = 0, a·y >= 0)
// and by generators (lines and rays), kept consistent by Chernikova's
// algorithm as constraints are added one at a time.
//
// The algorithm is self-dual: with the roles swapped (generators as
// "constraints" of the polar cone, constraints as its "generators") the
// same code converts generators to constraints, which is how convex
// hulls, projections and images are computed.
//
// sat[j] has bit i set iff cons[i]·rays[j] == 0. Lines saturate every
// constraint and equalities every generator, so neither needs bits. The
// generator side is kept minimal (no redundant ray, independent lines);
// the constraint side may accumulate redundancy until minimize.
type dd struct {
	n     int // homogeneous dimension: space dimension + 1
	eqs   []vec
	cons  []vec
	lines []vec
	rays  []vec
	sat   []bitset
	nbits int // capacity of the sat bitsets
	t     big.Int
	prods []big.Int // scratch of add: their digits are reused
	p64   []int64   // scratch of add: the products a·rays[j] when all fit
	pbig  bool      // the products are in prods, not p64
}

// newDD returns the pair (eqs, cons | lines, rays), which must describe
// the same cone with a minimal generator side. extra is the number of
// inequalities that may still be added. The argument slices are not
// modified.
func newDD(n int, eqs, cons, lines, rays []vec, extra int) *dd {
	d := copyDD(n, eqs, cons, lines, rays, extra)
	var s big.Int
	w := (d.nbits + 63) >> 6
	all := make(bitset, w*len(rays)) // one allocation; each row has a single owner
	for j, r := range rays {
		b := all[j*w : (j+1)*w : (j+1)*w]
		for i, c := range cons {
			if dotSign(c, r, &s, &d.t) == 0 {
				b.set(i)
			}
		}
		d.sat[j] = b
	}
	return d
}

// newDDSat is newDD given the saturation bitsets of rays by cons (sat[j]
// bit i as in dd.sat), which are copied: no dot product is computed.
func newDDSat(n int, eqs, cons, lines, rays []vec, sat []bitset, extra int) *dd {
	d := copyDD(n, eqs, cons, lines, rays, extra)
	w := (d.nbits + 63) >> 6
	all := make(bitset, w*len(rays)) // one allocation; each row has a single owner
	for j := range rays {
		b := all[j*w : (j+1)*w : (j+1)*w]
		copy(b, sat[j])
		d.sat[j] = b
	}
	return d
}

// copyDD returns a pair holding copies of the slices, its saturation
// bitsets still to fill (one row per ray). The copies share one backing
// array, each capped at its length so that an append reallocates it
// rather than writing into the next; the constraints, which add appends
// to most, come last with room for the extra ones.
func copyDD(n int, eqs, cons, lines, rays []vec, extra int) *dd {
	all := make([]vec, 0, len(eqs)+len(lines)+len(rays)+len(cons)+extra)
	part := func(xs []vec) []vec {
		k := len(all)
		all = append(all, xs...)
		return all[k:len(all):len(all)]
	}
	d := &dd{n: n, nbits: len(cons) + extra, sat: make([]bitset, len(rays))}
	d.eqs, d.lines, d.rays = part(eqs), part(lines), part(rays)
	k := len(all)
	d.cons = append(all, cons...)[k:]
	return d
}

// products returns k big integers of scratch, reused from call to call
// of add so that their digits are allocated once.
func (d *dd) products(k int) []big.Int {
	if cap(d.prods) < k {
		d.prods = make([]big.Int, k, 2*k)
	}
	d.prods = d.prods[:k]
	return d.prods
}

// universeDD returns the pair for the whole space R^n: no constraint,
// the unit vectors as lines.
func universeDD(n, extra int) *dd {
	lines := make([]vec, n)
	for i := range lines {
		lines[i] = unitVec(n, i)
	}
	return newDD(n, nil, nil, lines, nil, extra)
}

// add intersects the cone with a·y >= 0 (a·y == 0 if eq). It reports
// whether the constraint was kept (it is dropped when already implied).
func (d *dd) add(a vec, eq bool) bool {
	m := len(d.cons) // bit index of a, if it is an inequality
	if !eq && m >= d.nbits {
		d.grow()
	}

	if len(d.lines) > 0 && d.crossLine(a, eq, m) {
		return true
	}

	// All lines lie in the hyperplane: split the rays by side.
	nr := len(d.rays)
	d.dots(a, d.rays)
	var pos, neg []int
	nzero := 0
	for j := range d.rays {
		switch d.prodSign(j) {
		case 1:
			pos = append(pos, j)
		case -1:
			neg = append(neg, j)
		default:
			nzero++
		}
	}
	if len(neg) == 0 && (!eq || len(pos) == 0) {
		return false // implied
	}

	rays := make([]vec, 0, nzero+len(pos)+len(pos)*len(neg)/2+1)
	sat := make([]bitset, 0, cap(rays))
	for j, r := range d.rays {
		switch s := d.prodSign(j); {
		case s == 0:
			b := d.sat[j] // each bitset has a single owner
			if !eq {
				b.set(m)
			}
			rays = append(rays, r)
			sat = append(sat, b)
		case s > 0 && !eq:
			rays = append(rays, r)
			sat = append(sat, d.sat[j])
		}
	}

	// Combine adjacent pairs across the hyperplane. Two extreme rays are
	// adjacent iff no other ray saturates all the constraints both
	// saturate (the combinatorial test); the count bound is a cheap
	// necessary condition: a 2-face of a pointed cone of dimension A
	// needs A-2 independent saturated inequalities.
	need := d.n - len(d.lines) - len(d.eqs) - 2
	common := newBitset(d.nbits)
	var slab bitset
	var f big.Int
	for _, p := range pos {
		sp := d.sat[p]
		for _, q := range neg {
			sq := d.sat[q]
			for w := range common {
				common[w] = sp[w] & sq[w]
			}
			if common.count() < need {
				continue
			}
			adjacent := true
			for r := 0; r < nr; r++ {
				if r != p && r != q && common.subsetOf(d.sat[r]) {
					adjacent = false
					break
				}
			}
			if !adjacent {
				continue
			}
			rays = append(rays, d.mix(q, d.rays[p], p, d.rays[q], &f))
			if len(slab) < len(common) { // carve the new rows from one array
				slab = make(bitset, len(common)*(len(neg)+1))
			}
			b := slab[:len(common):len(common)]
			slab = slab[len(common):]
			copy(b, common)
			if !eq {
				b.set(m)
			}
			sat = append(sat, b)
		}
	}
	d.rays, d.sat = rays, sat
	if eq {
		d.eqs = append(d.eqs, a)
	} else {
		d.cons = append(d.cons, a)
	}
	return true
}

// crossLine is the step of add when a line may cross the hyperplane
// a·y = 0: the line becomes a ray (or vanishes for an equality) and
// every other generator is projected along it onto the hyperplane, no
// combinatorial work being needed. It reports false, doing nothing,
// when every line lies in the hyperplane.
func (d *dd) crossLine(a vec, eq bool, m int) bool {
	d.dots(a, d.lines)
	k := -1
	for i := range d.lines {
		if d.prodSign(i) != 0 {
			k = i
			break
		}
	}
	if k < 0 {
		return false
	}
	lk, sk := d.lines[k], d.prod(k, new(big.Int))
	if sk.Sign() < 0 {
		lk = lk.neg()
		sk.Neg(sk)
	}
	var f big.Int
	nl := make([]vec, 0, len(d.lines)-1)
	for i, l := range d.lines {
		if i != k && d.prodSign(i) != 0 {
			l = combine(sk, l, d.prod(i, &f).Neg(&f), lk)
		}
		if i != k {
			nl = append(nl, l)
		}
	}
	d.lines = nl
	for j, r := range d.rays {
		if x, ok := dot64(a, r); ok {
			f.SetInt64(-x)
		} else {
			dot(&f, a, r, &d.t)
			f.Neg(&f)
		}
		if f.Sign() != 0 {
			d.rays[j] = combine(sk, r, &f, lk)
		}
		if !eq {
			d.sat[j].set(m)
		}
	}
	if eq {
		d.eqs = append(d.eqs, a)
		return true
	}
	b := newBitset(d.nbits)
	for i := 0; i < m; i++ {
		b.set(i)
	}
	d.rays = append(d.rays, lk)
	d.sat = append(d.sat, b)
	d.cons = append(d.cons, a)
	return true
}

// dots computes the products a·gs[j], in machine integers (p64) when
// they all fit and in math/big (prods) otherwise.
func (d *dd) dots(a vec, gs []vec) {
	d.p64, d.pbig = d.p64[:0], false
	for _, g := range gs {
		x, ok := dot64(a, g)
		if !ok {
			d.pbig = true
			prods := d.products(len(gs))
			for j, g := range gs {
				dot(&prods[j], a, g, &d.t)
			}
			return
		}
		d.p64 = append(d.p64, x)
	}
}

// prod sets z to the product j of dots and returns z.
func (d *dd) prod(j int, z *big.Int) *big.Int {
	if d.pbig {
		return z.Set(&d.prods[j])
	}
	return z.SetInt64(d.p64[j])
}

// prodSign returns the sign of the product j of dots.
func (d *dd) prodSign(j int) int {
	if d.pbig {
		return d.prods[j].Sign()
	}
	switch x := d.p64[j]; {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// mix returns the primitive vector -prod[q]*u + prod[p]*v of the
// products of dots; f is scratch.
func (d *dd) mix(q int, u vec, p int, v vec, f *big.Int) vec {
	if d.pbig {
		f.Neg(&d.prods[q])
		return combine(f, u, &d.prods[p], v)
	}
	x, y := -d.p64[q], d.p64[p]
	if x > -1<<31 && x < 1<<31 && y > -1<<31 && y < 1<<31 {
		return combine64(x, u, y, v)
	}
	return combine(big.NewInt(x), u, big.NewInt(y), v)
}

// grow doubles the capacity of the saturation bitsets.
func (d *dd) grow() {
	d.nbits = 2*d.nbits + 64
	for j, b := range d.sat {
		nb := newBitset(d.nbits)
		copy(nb, b)
		d.sat[j] = nb
	}
}

// hasPoint reports whether some ray has a positive homogenising
// coordinate, i.e. whether the polyhedron (the section at y[0] = 1) is
// nonempty. Meaningful on the primal side only.
func (d *dd) hasPoint() bool {
	for _, r := range d.rays {
		if r.sign(0) > 0 {
			return true
		}
	}
	return false
}

// minimize returns a minimal constraint side: independent equalities in
// reduced echelon form and irredundant inequalities reduced modulo them.
// An inequality saturated by every ray is an implicit equality; among
// the others, one is redundant iff the set of rays it saturates is
// included in that of another (ties keep the first, which is why the
// positivity constraint is always placed first). This relies on the
// generator side being minimal, which Chernikova's algorithm guarantees.
//
// src[k] is the index in d.cons of the inequality ineqs[k].
func (d *dd) minimize() (eqs, ineqs []vec, src []int) {
	nr := len(d.rays)
	var ech echelon
	for _, e := range d.eqs {
		ech.add(e)
	}
	cols := make([]bitset, len(d.cons))
	w := (nr + 63) >> 6
	words := make(bitset, w*len(d.cons)) // one allocation for the columns
	for i := range d.cons {
		b := words[i*w : (i+1)*w : (i+1)*w]
		for j := range d.rays {
			if d.sat[j].has(i) {
				b.set(j)
			}
		}
		cols[i] = b
	}
	cand := make([]int, 0, len(d.cons))
	ineqs = make([]vec, 0, len(d.cons))
	src = make([]int, 0, len(d.cons))
	for i := range d.cons {
		if cols[i].count() == nr {
			ech.add(d.cons[i])
			continue
		}
		cand = append(cand, i)
	}
	for _, i := range cand {
		redundant := false
		for _, k := range cand {
			if k != i && cols[i].subsetOf(cols[k]) && (k < i || !cols[k].subsetOf(cols[i])) {
				redundant = true
				break
			}
		}
		if !redundant {
			ineqs = append(ineqs, ech.reduce(d.cons[i]))
			src = append(src, i)
		}
	}
	return ech.rows, ineqs, src
}
