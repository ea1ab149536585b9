package abstraction

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// combineBig is the reference of combine: math/big throughout.
func combineBig(ca *big.Int, a vec, cb *big.Int, b vec) []big.Int {
	r := make([]big.Int, a.len())
	ab, bb := a.bigs(), b.bigs()
	var t big.Int
	for i := range r {
		r[i].Mul(ca, &ab[i])
		t.Mul(cb, &bb[i])
		r[i].Add(&r[i], &t)
	}
	normalizeBig(r)
	return r
}

// canonical reports whether v holds its entries in machine integers
// exactly when they all fit (see vec).
func canonical(v vec) bool {
	if v.b == nil {
		for _, x := range v.s {
			if x == math.MinInt64 {
				return false
			}
		}
		return true
	}
	for i := range *v.b {
		if !fits(&(*v.b)[i]) {
			return v.s == nil
		}
	}
	return false
}

// randVec returns a vector of n entries of randBig.
func randVec(rng *rand.Rand, n int) vec {
	xs := make([]big.Int, n)
	for i := range xs {
		xs[i].Set(randBig(rng))
	}
	return fromBig(xs)
}

// randBig returns an integer of about bits bits (either sign), often
// at the edges of the machine-integer fast path (2^31, 2^62, 2^63).
func randBig(rng *rand.Rand) *big.Int {
	edges := []int64{0, 1, -1, 1<<31 - 1, -(1<<31 - 1), 1 << 31, -(1 << 31), 1<<62 + 3, -(1 << 62), 1<<63 - 1}
	switch rng.IntN(4) {
	case 0:
		return big.NewInt(edges[rng.IntN(len(edges))])
	case 1:
		x := new(big.Int).Lsh(big.NewInt(rng.Int64N(1000)+1), uint(rng.IntN(90)))
		if rng.IntN(2) == 0 {
			x.Neg(x)
		}
		return x
	default:
		return big.NewInt(rng.Int64N(2001) - 1000)
	}
}

// TestCombineFastPath: the int64 path of combine (with its overflow
// check and math/big fallback) gives the reference's primitive vector,
// in its canonical form (machine integers whenever they fit).
func TestCombineFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 25))
	for it := 0; it < 20000; it++ {
		n := 1 + rng.IntN(6)
		a, b := randVec(rng, n), randVec(rng, n)
		ca, cb := randBig(rng), randBig(rng)
		got, want := combine(ca, a, cb, b), combineBig(ca, a, cb, b)
		var x big.Int
		for i := range want {
			if got.at(i, &x).Cmp(&want[i]) != 0 {
				t.Fatalf("combine(%v, %v, %v, %v)[%d] = %v, want %v", ca, a, cb, b, i, &x, &want[i])
			}
		}
		if !canonical(got) {
			t.Fatalf("combine(%v, %v, %v, %v) = %v, not in canonical form", ca, a, cb, b, got)
		}
	}
}

// TestPrimalSatDerived: the saturation bitsets a conversion hands to
// its result (primalSat) are those computed from scratch.
func TestPrimalSatDerived(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 25))
	for it := 0; it < 300; it++ {
		n := 2 + it%3
		sp := rspace([]string{"a", "b", "c", "d"}[:n]...)
		p := randPoly(rng, sp)
		for k := 0; k < 3; k++ {
			p = p.MeetConstraints([]Constraint{randConstraint(rng, n)})
			q := p.(*poly)
			if q.empty || q.psat == nil {
				continue
			}
			cons := q.primalCons()
			want := satMatrix(cons, q.rays)
			for j := range q.rays {
				for i := range cons {
					if q.psat[j].has(i) != want[j].has(i) {
						t.Fatalf("iter %d: %v: ray %d, constraint %d: derived %v, computed %v", it, q, j, i, q.psat[j].has(i), want[j].has(i))
					}
				}
			}
		}
	}
}

// TestPolyLargeCoordinates: translating by a large offset (coordinates
// beyond 2^31 and products beyond 2^63, where the machine-integer fast
// paths give way to math/big) commutes with meet and join.
func TestPolyLargeCoordinates(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 25))
	off := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(3), big.NewInt(45), nil)) // about 2^71
	for it := 0; it < 200; it++ {
		n := 2 + it%3
		sp := rspace([]string{"a", "b", "c", "d"}[:n]...)
		shift := map[int]LinExpr{}
		for d := 0; d < n; d++ {
			shift[d] = Var(d).Add(Const(new(big.Rat).Mul(off, big.NewRat(int64(d+1), 1))))
		}
		p, q := randPoly(rng, sp), randPoly(rng, sp)
		sp1, sq1 := p.Image(shift), q.Image(shift)
		if got, want := sp1.Meet(sq1), p.Meet(q).Image(shift); !got.Equal(want) {
			t.Fatalf("iter %d: meet of shifted %v, shifted meet %v", it, got, want)
		}
		if got, want := sp1.Join(sq1), p.Join(q).Image(shift); !got.Equal(want) {
			t.Fatalf("iter %d: join of shifted %v, shifted join %v", it, got, want)
		}
		if got, want := sp1.MeetConstraints(q.Image(shift).Constraints()), p.Meet(q).Image(shift); !got.Equal(want) {
			t.Fatalf("iter %d: constraints: %v, want %v", it, got, want)
		}
	}
}

// TestMeetConjunction: meeting converted constraints is MeetConstraints,
// representation and all, for polyhedra (and for intervals, which take
// the constraints as they are); a conjunction converted for another
// space is converted again.
func TestMeetConjunction(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 25))
	for it := 0; it < 300; it++ {
		n := 2 + it%3
		sp := rspace([]string{"a", "b", "c", "d"}[:n]...)
		p := randPoly(rng, sp)
		cs := make([]Constraint, 1+rng.IntN(3))
		for i := range cs {
			cs[i] = randConstraint(rng, n)
		}
		k := NewConjunction(sp, cs)
		got, want := MeetConjunction(p, k), p.MeetConstraints(cs)
		if got.String() != want.String() || !got.Equal(want) {
			t.Fatalf("iter %d: %v ∧ %v: %v, MeetConstraints %v", it, p, cs, got, want)
		}
		other := rspace([]string{"a", "b", "c", "d"}[:n]...)
		q := Polyhedra().Universe(other).MeetConstraints(p.Constraints())
		if got, want := MeetConjunction(q, k), q.MeetConstraints(cs); got.String() != want.String() {
			t.Fatalf("iter %d: another space: %v, want %v", it, got, want)
		}
		box := Intervals().Universe(sp)
		if got, want := MeetConjunction(box, k), box.MeetConstraints(cs); !got.Equal(want) {
			t.Fatalf("iter %d: intervals: %v, want %v", it, got, want)
		}
	}
}
