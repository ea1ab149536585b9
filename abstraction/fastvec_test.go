package abstraction

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestConstraintVecFastPath: on random constraints (coefficients and
// constants at the edges of 31 bits, rational ones, every operator,
// integer and rational dimensions, with and without tightening) the
// machine-integer conversion, when it applies, gives math/big's vector
// and decision; and it applies to small integer constraints.
func TestConstraintVecFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	sp := NewSpace([]string{"a", "b", "c", "x"}, []bool{true, true, true, false})
	edges := []int64{0, 1, -1, 2, -3, 6, 1<<31 - 1, -(1<<31 - 1), 1 << 31, -(1 << 31), 1 << 40}
	coef := func() *big.Rat {
		switch rng.IntN(5) {
		case 0:
			return big.NewRat(edges[rng.IntN(len(edges))], 1)
		case 1:
			return big.NewRat(rng.Int64N(7)-3, rng.Int64N(3)+1)
		default:
			return big.NewRat(rng.Int64N(21)-10, 1)
		}
	}
	fast := 0
	for i := 0; i < 20000; i++ {
		var e LinExpr
		for d := 0; d < sp.Dim(); d++ {
			if rng.IntN(2) == 0 || (d == 3 && rng.IntN(2) == 0) {
				continue
			}
			e = e.Add(Var(d).Scale(coef()))
		}
		e = e.Add(Const(coef()))
		if len(e.terms) == 0 {
			continue
		}
		c := Constraint{Expr: e, Op: []Op{Le, Lt, Eq}[rng.IntN(3)]}
		tighten := rng.IntN(4) != 0
		got, gotTruth, ok := constraintVecSmall(sp, c, tighten)
		if !ok {
			continue
		}
		fast++
		want, wantTruth := constraintVecBig(sp, c, tighten)
		if gotTruth != wantTruth || !sameVec(got, want) {
			t.Fatalf("%v (tighten %v): fast %v (%d), math/big %v (%d)", c, tighten, got, gotTruth, want, wantTruth)
		}
	}
	if fast < 5000 {
		t.Errorf("the fast path applied to %d constraints of 20000", fast)
	}
}

func sameVec(a, b vec) bool {
	if a.isNil() != b.isNil() || a.len() != b.len() || (a.b == nil) != (b.b == nil) {
		return false
	}
	var x, y big.Int
	for i := 0; i < a.len(); i++ {
		if a.at(i, &x).Cmp(b.at(i, &y)) != 0 {
			return false
		}
	}
	return true
}

// TestIncrementalMeetIsFromScratch: meeting a polyhedron with
// constraints adds them to its double description (fromConstraints from
// primalDD, with the saturation bitsets kept from the conversion that
// made it); the result is the polyhedron converted from scratch from all
// the constraints at once: the same set (inclusion both ways, exact) and
// the same minimal sizes (facets, rays, lines, equalities).
func TestIncrementalMeetIsFromScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 27))
	nonEmpty := 0
	for it := 0; it < 600; it++ {
		n := 1 + it%4
		sp := rspace([]string{"a", "b", "c", "d"}[:n]...)
		if it%2 == 1 {
			sp = ispace([]string{"a", "b", "c", "d"}[:n]...)
		}
		p := randPoly(rng, sp).(*poly)
		for step := 0; step < 3 && !p.empty; step++ {
			cs := make([]Constraint, 1+rng.IntN(3))
			for i := range cs {
				cs[i] = randConstraint(rng, n)
			}
			got := p.MeetConstraints(cs).(*poly)
			k := NewConjunction(sp, cs)
			var want *poly
			if k.none {
				want = emptyPoly(sp)
			} else {
				eqs := append(append([]vec(nil), p.eqs...), pick(k, true)...)
				ineqs := append(append([]vec(nil), p.ineqs...), pick(k, false)...)
				want = fromConstraints(sp, nil, eqs, ineqs)
			}
			if !got.Includes(want) || !want.Includes(got) {
				t.Fatalf("iter %d: %v met with %v: incremental %v, from scratch %v", it, p, cs, got, want)
			}
			if !got.empty && (len(got.eqs) != len(want.eqs) || len(got.ineqs) != len(want.ineqs) ||
				len(got.rays) != len(want.rays) || len(got.lines) != len(want.lines)) {
				t.Fatalf("iter %d: sizes differ: incremental %v, from scratch %v", it, got, want)
			}
			if !got.empty {
				nonEmpty++
			}
			p = got
		}
	}
	if nonEmpty < 300 {
		t.Errorf("only %d nonempty meets: the test compares little", nonEmpty)
	}
}

// pick returns k's equalities (eq) or inequalities.
func pick(k *Conjunction, eq bool) []vec {
	var r []vec
	for i, v := range k.vs {
		if k.eq[i] == eq {
			r = append(r, v)
		}
	}
	return r
}

// TestDotSign: the sign of a·b from the machine-integer path (with its
// overflow checks and math/big fallback) is math/big's, on vectors with
// entries at the edges of 31, 62 and 63 bits.
func TestDotSign(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 28))
	var z, s, tmp big.Int
	for it := 0; it < 20000; it++ {
		n := 1 + rng.IntN(8)
		a, b := randVec(rng, n), randVec(rng, n)
		if rng.IntN(3) == 0 { // long sums of large small products
			as, bs := make([]int64, n), make([]int64, n)
			for i := range as {
				as[i] = 1<<31 - 1
				bs[i] = 1<<31 - 1 - rng.Int64N(2)
			}
			a, b = vec{s: as}, vec{s: bs}
		}
		ab, bb := a.bigs(), b.bigs()
		for i := range ab {
			tmp.Mul(&ab[i], &bb[i])
			z.Add(&z, &tmp)
		}
		want := z.Sign()
		z.SetInt64(0)
		if got := dotSign(a, b, &s, &tmp); got != want {
			t.Fatalf("%v · %v: sign %d, math/big %d", a, b, got, want)
		}
	}
}
