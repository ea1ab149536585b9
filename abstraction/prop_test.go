package abstraction

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// randConstraint returns a random constraint with small integer
// coefficients in [-3,3] and constant in [-6,6].
func randConstraint(rng *rand.Rand, n int) Constraint {
	var e LinExpr
	for e.IsConst() {
		for d := 0; d < n; d++ {
			if rng.IntN(3) > 0 {
				e = e.Add(Var(d).Scale(ri(rng.Int64N(7) - 3)))
			}
		}
	}
	e = e.Add(Const(ri(rng.Int64N(13) - 6)))
	op := Le
	switch rng.IntN(10) {
	case 0:
		op = Eq
	case 1:
		op = Lt
	}
	return Constraint{e, op}
}

// randPoly returns a random polyhedron over sp, built either from random
// constraints or as the hull of random points and directions.
func randPoly(rng *rand.Rand, sp *Space) Value {
	n := sp.Dim()
	u := Polyhedra().Universe(sp)
	switch rng.IntN(3) {
	case 0:
		cs := make([]Constraint, 1+rng.IntN(2*n+1))
		for i := range cs {
			cs[i] = randConstraint(rng, n)
		}
		return u.MeetConstraints(cs)
	case 1:
		var p Value = Polyhedra().Empty(sp)
		for k := 1 + rng.IntN(n+2); k > 0; k-- {
			pt := make(point, n)
			for i := range pt {
				pt[i] = ri(rng.Int64N(9) - 4)
			}
			p = p.Join(pointValue(sp, pt))
		}
		if rng.IntN(2) == 0 {
			rs := make([]int64, n+1)
			for i := 1; i <= n; i++ {
				rs[i] = rng.Int64N(5) - 2
			}
			r := vec{s: rs}
			if rng.IntN(2) == 0 {
				p = fromGenerators(sp, p.(*poly), nil, []vec{r})
			} else {
				p = fromGenerators(sp, p.(*poly), []vec{r}, nil)
			}
		}
		return p
	default:
		var cs []Constraint
		for d := 0; d < n; d++ {
			lo := rng.Int64N(7) - 4
			cs = append(cs, Constraint{Const(ri(lo)).Sub(Var(d)), Le},
				Constraint{Var(d).Sub(Const(ri(lo + rng.Int64N(5)))), Le})
		}
		for k := rng.IntN(n + 1); k > 0; k-- {
			cs = append(cs, randConstraint(rng, n))
		}
		return u.MeetConstraints(cs)
	}
}

// inclByGens decides q ⊆ p independently of poly.includes: q's vertices
// must satisfy p's exported constraints, q's rays and lines their
// homogeneous parts.
func inclByGens(p, q Value) bool {
	if q.IsEmpty() {
		return true
	}
	if p.IsEmpty() {
		return false
	}
	qq := q.(*poly)
	n := qq.sp.Dim()
	check := func(c Constraint, g vec, isLine bool) bool {
		// Sign of c's expression at g, homogeneously: const*g0 + a·g[1:].
		v := c.Expr.ConstTerm()
		v.Mul(v, new(big.Rat).SetInt(g.at(0, new(big.Int))))
		for d := 0; d < n; d++ {
			a := c.Expr.Coeff(d)
			v.Add(v, a.Mul(a, new(big.Rat).SetInt(g.at(d+1, new(big.Int)))))
		}
		if isLine || c.Op == Eq {
			return v.Sign() == 0
		}
		return v.Sign() <= 0
	}
	for _, c := range p.Constraints() {
		for _, g := range qq.rays {
			if !check(c, g, false) {
				return false
			}
		}
		for _, g := range qq.lines {
			if !check(c, g, true) {
				return false
			}
		}
	}
	return true
}

// randAssign returns a random simultaneous assignment of 1..2 dims.
func randAssign(rng *rand.Rand, n int) map[int]LinExpr {
	a := map[int]LinExpr{}
	for k := 1 + rng.IntN(2); k > 0; k-- {
		var e LinExpr
		for d := 0; d < n; d++ {
			if rng.IntN(2) == 0 {
				e = e.Add(Var(d).Scale(big.NewRat(rng.Int64N(5)-2, rng.Int64N(2)+1)))
			}
		}
		e = e.Add(Const(ri(rng.Int64N(5) - 2)))
		a[rng.IntN(n)] = e
	}
	return a
}

func applyAssign(assign map[int]LinExpr, pt point) point {
	out := make(point, len(pt))
	copy(out, pt)
	for d, e := range assign {
		out[d] = evalExpr(e, pt)
	}
	return out
}

// imageWitness reports whether some x in p has f(x) = y.
func imageWitness(p Value, assign map[int]LinExpr, y point) bool {
	var cs []Constraint
	for d := range y {
		e, ok := assign[d]
		if !ok {
			e = Var(d)
		}
		cs = append(cs, Constraint{e.Sub(Const(y[d])), Eq})
	}
	return !p.MeetConstraints(cs).IsEmpty()
}

func TestPolyProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	iters := 400
	if testing.Short() {
		iters = 100
	}
	for it := 0; it < iters; it++ {
		n := 2 + it%3
		names := []string{"a", "b", "c", "d"}[:n]
		sp := rspace(names...)
		p, q := randPoly(rng, sp), randPoly(rng, sp)
		ps, qs := samplePoints(p, rng, 6), samplePoints(q, rng, 6)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("iter %d: p=%v q=%v: "+format, append([]any{it, p, q}, args...)...)
		}
		for _, pt := range ps {
			if !contains(p, pt) {
				fail("sample %v not in p", pt)
			}
		}

		// Join.
		j := p.Join(q)
		if !j.Includes(p) || !j.Includes(q) {
			fail("join %v does not include arguments", j)
		}
		for _, pt := range append(append([]point(nil), ps...), qs...) {
			if !contains(j, pt) {
				fail("join %v misses %v", j, pt)
			}
		}
		if jj := j.(*poly); !jj.empty && len(jj.lines) == 0 {
			for _, pt := range samplePoints(j, rng, 0) { // the vertices
				if !contains(p, pt) && !contains(q, pt) {
					fail("join %v has vertex %v outside both (not exact)", j, pt)
				}
			}
		}

		// Includes, against generators and against join.
		if got, want := p.Includes(q), inclByGens(p, q); got != want {
			fail("includes = %v, by generators %v", got, want)
		}
		if p.Includes(q) != j.Equal(p) {
			fail("includes %v but join equal %v", p.Includes(q), j.Equal(p))
		}
		if p.Includes(q) {
			for _, pt := range qs {
				if !contains(p, pt) {
					fail("p includes q but misses %v", pt)
				}
			}
		}

		// Widening.
		w := p.Widen(q, []Constraint{randConstraint(rng, n)})
		if !w.Includes(j) {
			fail("widening %v does not include join %v", w, j)
		}

		// Meet.
		m := p.Meet(q)
		if !p.Includes(m) || !q.Includes(m) {
			fail("meet %v not included in arguments", m)
		}
		for _, pt := range ps {
			if contains(q, pt) && !contains(m, pt) {
				fail("meet %v misses common point %v", m, pt)
			}
		}
		for _, pt := range samplePoints(m, rng, 4) {
			if !contains(p, pt) || !contains(q, pt) {
				fail("meet point %v outside arguments", pt)
			}
		}

		// Forget: exact projection.
		dims := []int{rng.IntN(n)}
		if rng.IntN(2) == 0 {
			dims = append(dims, rng.IntN(n))
		}
		f := p.Forget(dims...)
		if !f.Includes(p) {
			fail("forget %v does not include p", f)
		}
		for _, pt := range samplePoints(f, rng, 4) {
			var cs []Constraint
			for d := range pt {
				forgotten := false
				for _, k := range dims {
					forgotten = forgotten || k == d
				}
				if !forgotten {
					cs = append(cs, Constraint{Var(d).Sub(Const(pt[d])), Eq})
				}
			}
			if p.MeetConstraints(cs).IsEmpty() {
				fail("forget %v: point %v is not a projection", f, pt)
			}
		}

		// Image: contains images; every point of it has a preimage.
		assign := randAssign(rng, n)
		img := p.Image(assign)
		for _, pt := range ps {
			if !contains(img, applyAssign(assign, pt)) {
				fail("image %v by %v misses image of %v", img, assign, pt)
			}
		}
		for _, y := range samplePoints(img, rng, 4) {
			if !imageWitness(p, assign, y) {
				fail("image %v by %v: %v has no preimage", img, assign, y)
			}
		}
		if !img.IsEmpty() && !p.Preimage(assign).Includes(p) {
			// p ⊆ pre(post(p)) is checked below via img.
		}
		if pre := img.Preimage(assign); !pre.Includes(p) {
			fail("pre(post(p)) = %v does not include p", pre)
		}

		// Preimage: exact on rational points.
		pre := p.Preimage(assign)
		for k := 0; k < 8; k++ {
			v := randPoint(rng, n, 4)
			if contains(pre, v) != contains(p, applyAssign(assign, v)) {
				fail("preimage %v by %v wrong at %v", pre, assign, v)
			}
		}
		for _, v := range samplePoints(pre, rng, 4) {
			if !contains(p, applyAssign(assign, v)) {
				fail("preimage %v point %v maps outside", pre, v)
			}
		}

		// Constraints: round trip and minimality.
		cs := p.Constraints()
		if back := Polyhedra().Universe(sp).MeetConstraints(cs); !back.Equal(p) {
			fail("round trip gives %v", back)
		}
		if !p.IsEmpty() {
			for i := range cs {
				rest := append(append([]Constraint(nil), cs[:i]...), cs[i+1:]...)
				if Polyhedra().Universe(sp).MeetConstraints(rest).Equal(p) {
					fail("constraint %s is redundant", cs[i].String(sp))
				}
			}
		}
	}
}

// TestPolyIntProperties checks the lattice operations on integer spaces,
// where constraint input is tightened.
func TestPolyIntProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < 200; it++ {
		n := 2 + it%3
		sp := ispace([]string{"i", "j", "k", "l"}[:n]...)
		p, q := randPoly(rng, sp), randPoly(rng, sp)
		j := p.Join(q)
		if !j.Includes(p) || !j.Includes(q) {
			t.Fatalf("join %v of %v and %v", j, p, q)
		}
		m := p.Meet(q)
		if !p.Includes(m) || !q.Includes(m) {
			t.Fatalf("meet %v of %v and %v", m, p, q)
		}
		if w := p.Widen(q, nil); !w.Includes(j) {
			t.Fatalf("widen %v of %v and %v", w, p, q)
		}
		// Integer points of p survive re-tightening of its constraints.
		for k := 0; k < 8; k++ {
			v := make(point, n)
			for i := range v {
				v[i] = ri(rng.Int64N(9) - 4)
			}
			back := Polyhedra().Universe(sp).MeetConstraints(j.Constraints())
			if contains(j, v) && !contains(back, v) {
				t.Fatalf("tightening lost integer point %v of %v", v, j)
			}
		}
	}
}

// TestPolyWidenStabilises iterates x := x + a, y := y + b from random
// starting polyhedra and checks that the widened sequence stabilises.
func TestPolyWidenStabilises(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sp := rspace("x", "y", "z")
	for it := 0; it < 50; it++ {
		init := randPoly(rng, sp)
		assign := randAssign(rng, 3)
		x := init
		stable := false
		for k := 0; k < 12; k++ {
			next := init.Join(x.Image(assign))
			w := x.Widen(next, nil)
			if !w.Includes(next) || !w.Includes(x) {
				t.Fatalf("widening not increasing")
			}
			if w.Equal(x) {
				stable = true
				break
			}
			x = w
		}
		if !stable {
			t.Fatalf("no stabilisation from %v by %v: %v", init, assign, x)
		}
	}
}

// TestPolyInvertibleFastPath compares the direct transformation used for
// invertible assignments with the generic conversions.
func TestPolyInvertibleFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	checked := 0
	for it := 0; it < 300; it++ {
		n := 2 + it%3
		sp := rspace([]string{"a", "b", "c", "d"}[:n]...)
		p := randPoly(rng, sp)
		assign := randAssign(rng, n)
		m := affineMatrix(sp, assign)
		if p.IsEmpty() {
			continue
		}
		pp := p.(*poly)
		_, invertible := inverseMatrix(m)
		var lines, rays []vec
		for _, l := range pp.lines {
			lines = append(lines, m.mulVec(l))
		}
		for _, r := range pp.rays {
			rays = append(rays, m.mulVec(r))
		}
		slowImg := fromGenerators(sp, nil, lines, rays)
		if img := p.Image(assign); !img.Equal(slowImg) || !slowImg.Equal(img) {
			t.Fatalf("image of %v by %v: fast %v, slow %v", p, assign, img, slowImg)
		}
		if !invertible {
			continue
		}
		checked++
		var eqs, ineqs []vec
		for _, e := range pp.eqs {
			eqs = append(eqs, m.vecMul(e))
		}
		for _, c := range pp.ineqs {
			ineqs = append(ineqs, m.vecMul(c))
		}
		slowPre := fromConstraints(sp, nil, eqs, ineqs)
		if pre := p.Preimage(assign); !pre.Equal(slowPre) || !slowPre.Equal(pre) {
			t.Fatalf("preimage of %v by %v: fast %v, slow %v", p, assign, pre, slowPre)
		}
	}
	if checked < 50 {
		t.Fatalf("only %d invertible cases", checked)
	}
}
