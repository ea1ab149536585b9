package abstraction

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// refMulVec and refVecMul are affine.mulVec and affine.vecMul in
// math/big throughout, the references of their machine-integer paths.
func refMulVec(m *affine, g vec) []big.Int {
	gb := g.bigs()
	v := make([]big.Int, len(gb))
	var t big.Int
	for r, row := range m.rows {
		if row.isNil() {
			v[r].Mul(&m.scale, &gb[r])
			continue
		}
		rb := row.bigs()
		for c := range rb {
			v[r].Add(&v[r], t.Mul(&rb[c], &gb[c]))
		}
	}
	normalizeBig(v)
	return v
}

func refVecMul(m *affine, a vec) []big.Int {
	ab := a.bigs()
	v := make([]big.Int, len(ab))
	var t big.Int
	for r, row := range m.rows {
		if row.isNil() {
			v[r].Add(&v[r], t.Mul(&m.scale, &ab[r]))
			continue
		}
		for c, x := range row.bigs() {
			v[c].Add(&v[c], t.Mul(&ab[r], &x))
		}
	}
	normalizeBig(v)
	return v
}

// sameEntries reports whether v holds exactly the entries want, in its
// canonical form.
func sameEntries(v vec, want []big.Int) bool {
	if v.len() != len(want) || !canonical(v) {
		return false
	}
	var x big.Int
	for i := range want {
		if v.at(i, &x).Cmp(&want[i]) != 0 {
			return false
		}
	}
	return true
}

// TestAffineFastPath: the machine-integer paths of mulVec and vecMul
// (with their overflow checks at 31, 62 and 63 bits and their math/big
// fallback) give math/big's primitive vectors, in canonical form.
func TestAffineFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 64))
	for it := 0; it < 5000; it++ {
		n := 1 + rng.IntN(6)
		m := &affine{rows: make([]vec, n)}
		m.scale.Set(randBig(rng))
		if m.scale.Sign() == 0 {
			m.scale.SetInt64(1)
		}
		for r := range m.rows {
			if rng.IntN(2) == 0 {
				m.rows[r] = randVec(rng, n)
			}
		}
		g := randVec(rng, n)
		if got, want := m.mulVec(g), refMulVec(m, g); !sameEntries(got, want) {
			t.Fatalf("mulVec(%v) by %v/%v = %v, want %v", g, m.rows, &m.scale, got, want)
		}
		if got, want := m.vecMul(g), refVecMul(m, g); !sameEntries(got, want) {
			t.Fatalf("vecMul(%v) by %v/%v = %v, want %v", g, m.rows, &m.scale, got, want)
		}
	}
}

// TestCombine64Edges: combine64 agrees with math/big at the edges of
// its coefficients' and entries' ranges.
func TestCombine64Edges(t *testing.T) {
	rng := rand.New(rand.NewPCG(64, 31))
	coefs := []int64{0, 1, -1, 1<<31 - 1, -(1<<31 - 1), 12345}
	for it := 0; it < 20000; it++ {
		n := 1 + rng.IntN(6)
		a, b := randVec(rng, n), randVec(rng, n)
		x, y := coefs[rng.IntN(len(coefs))], coefs[rng.IntN(len(coefs))]
		got, want := combine64(x, a, y, b), combineBig(big.NewInt(x), a, big.NewInt(y), b)
		if !sameEntries(got, want) {
			t.Fatalf("combine64(%d, %v, %d, %v) = %v, want %v", x, a, y, b, got, want)
		}
	}
}

// TestFromBigCanonical: fromBig keeps math/big only when some entry
// does not fit (2^63 and -2^63 do not), and the int64 and math/big
// forms of neg agree.
func TestFromBigCanonical(t *testing.T) {
	for _, c := range []struct {
		x     *big.Int
		small bool
	}{
		{big.NewInt(1<<63 - 1), true},
		{big.NewInt(-(1<<63 - 1)), true},
		{big.NewInt(-1 << 63), false},
		{new(big.Int).Lsh(big.NewInt(1), 63), false},
		{big.NewInt(0), true},
	} {
		xs := make([]big.Int, 2)
		xs[0].SetInt64(1)
		xs[1].Set(c.x)
		v := fromBig(xs)
		if (v.b == nil) != c.small || !canonical(v) {
			t.Errorf("fromBig(1, %v): machine form %v, want %v", c.x, v.b == nil, c.small)
		}
		w := v.neg()
		var p, q big.Int
		if w.at(1, &p).Cmp(q.Neg(c.x)) != 0 || !canonical(w) {
			t.Errorf("neg(1, %v) = %v", c.x, w)
		}
	}
}

// TestBigCoefficientsPromote: polyhedra operations whose vectors leave
// the machine integers (constraints scaled by large factors, images by
// shears with large coefficients) give the results of small ones:
// scaled constraints are the same constraints (vectors are primitive),
// and a shear by K followed by the shear by -K gives back the
// polyhedron (its equalities possibly in another order).
func TestBigCoefficientsPromote(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 62))
	ks := []*big.Rat{
		ri(1<<31 - 1), ri(1 << 31), ri(1<<62 + 3), ri(1<<63 - 1),
		new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(3), 70)),
	}
	for it := 0; it < 400; it++ {
		n := 2 + it%3
		sp := rspace([]string{"a", "b", "c", "d"}[:n]...)
		p := randPoly(rng, sp)
		k := ks[rng.IntN(len(ks))]
		cs := []Constraint{randConstraint(rng, n), randConstraint(rng, n)}
		scaled := make([]Constraint, len(cs))
		for i, c := range cs {
			scaled[i] = Constraint{c.Expr.Scale(k), c.Op}
		}
		want, got := p.MeetConstraints(cs), p.MeetConstraints(scaled)
		if got.String() != want.String() {
			t.Fatalf("%v meet %v scaled by %v = %v, want %v", p, cs, k, got, want)
		}
		there := map[int]LinExpr{0: Var(0).Add(Var(1).Scale(k))}
		back := map[int]LinExpr{0: Var(0).Sub(Var(1).Scale(k))}
		q := want.Image(there)
		if r := q.Image(back); !r.Equal(want) {
			t.Fatalf("%v sheared by %v and back = %v", want, k, r)
		}
		if j := q.Join(want); !j.Includes(want) || !j.Includes(q) {
			t.Fatalf("%v: join or meet with its shear by %v", want, k)
		}
	}
}
