package abstraction

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

func mkI(t testing.TB, sp *Space, cs ...string) Value {
	t.Helper()
	return mk(t, Intervals(), sp, cs...)
}

func TestIntervalsBasic(t *testing.T) {
	r := rspace("x", "y")
	z := ispace("x", "y")
	tests := []struct {
		name string
		got  func() Value
		want string
	}{
		{"universe", func() Value { return mkI(t, r) }, "true"},
		{"bounds", func() Value { return mkI(t, r, "x >= 1", "x <= 3", "y < 2") }, "{x >= 1, x <= 3, y <= 2}"},
		{"point", func() Value { return mkI(t, r, "x = 1/2") }, "{2*x = 1}"},
		{"int rounding", func() Value { return mkI(t, z, "2*x <= 3", "3*y > 1") }, "{x <= 1, y >= 1}"},
		{"empty", func() Value { return mkI(t, z, "x >= 1/3", "x <= 2/3") }, "false"},
		{"propagation", func() Value { return mkI(t, r, "x >= 0", "y >= 0", "x + y <= 4") }, "{x >= 0, x <= 4, y >= 0, y <= 4}"},
		{"propagation chain", func() Value { return mkI(t, r, "x >= 1", "y >= x + 1", "y <= 5") }, "{x >= 1, x <= 4, y >= 2, y <= 5}"},
		{"propagation empty", func() Value { return mkI(t, r, "x >= 0", "y >= 0", "x + y <= -1") }, "false"},
		{"join", func() Value { return mkI(t, r, "x = 0", "y = 1").Join(mkI(t, r, "x = 2", "y >= 3")) }, "{x >= 0, x <= 2, y >= 1}"},
		{"meet", func() Value { return mkI(t, r, "x >= 0").Meet(mkI(t, r, "x <= 2", "y = 1")) }, "{x >= 0, x <= 2, y = 1}"},
		{"meet empty", func() Value { return mkI(t, r, "x >= 3").Meet(mkI(t, r, "x <= 2")) }, "false"},
		{"forget", func() Value { return mkI(t, r, "x = 0", "y = 1").Forget(0) }, "{y = 1}"},
		{"image", func() Value {
			return mkI(t, r, "x >= 0", "x <= 1", "y >= -1", "y <= 2").Image(map[int]LinExpr{
				0: Var(0).Sub(Var(1).Scale(big.NewRat(2, 1))), 1: Var(0)})
		}, "{x >= -4, x <= 3, y >= 0, y <= 1}"},
		{"image unbounded", func() Value {
			return mkI(t, r, "x >= 0", "y <= 2").Image(map[int]LinExpr{0: Var(0).Add(Var(1))})
		}, "{y <= 2}"},
		{"preimage", func() Value {
			return mkI(t, r, "x >= 0", "x <= 4", "y = 1").Preimage(map[int]LinExpr{0: Var(0).Add(Var(1))})
		}, "{x >= -1, x <= 3, y = 1}"},
		{"widen", func() Value {
			return mkI(t, r, "x >= 0", "x <= 1", "y = 0").Widen(mkI(t, r, "x >= 0", "x <= 2", "y = 0"), nil)
		}, "{x >= 0, y = 0}"},
		{"widen thresholds", func() Value {
			return mkI(t, r, "x >= 0", "x <= 1", "y = 0").Widen(mkI(t, r, "x >= -1", "x <= 2", "y = 0"),
				parseAll(t, r, "x <= 10", "x <= 5", "x <= 1", "x >= -3", "y <= 7"))
		}, "{x >= -3, x <= 5, y = 0}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.got().String(); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	// Widening stabilises on x := x + 1.
	x := mkI(t, r, "x = 0", "y = 0")
	init := x
	for k := 0; ; k++ {
		if k > 3 {
			t.Fatalf("no stabilisation: %v", x)
		}
		next := init.Join(x.Image(map[int]LinExpr{0: Var(0).Add(Const(big.NewRat(1, 1)))}))
		w := x.Widen(next, nil)
		if w.Equal(x) {
			break
		}
		x = w
	}
	if s := x.String(); s != "{x >= 0, y = 0}" {
		t.Errorf("fixpoint %s", s)
	}
}

// boxOf returns the bounding box of a polyhedron, to cross-check the two
// domains: every interval result must include the polyhedral one.
func boxOf(sp *Space, p Value) Value {
	return Intervals().Universe(sp).MeetConstraints(p.Constraints())
}

func TestIntervalsProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for it := 0; it < 300; it++ {
		n := 2 + it%3
		sp := rspace([]string{"a", "b", "c", "d"}[:n]...)
		if it%2 == 1 {
			sp = ispace([]string{"a", "b", "c", "d"}[:n]...)
		}
		pp, qp := randPoly(rng, sp), randPoly(rng, sp)
		p, q := boxOf(sp, pp), boxOf(sp, qp)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("iter %d: p=%v q=%v: "+format, append([]any{it, p, q}, args...)...)
		}
		// Propagation is sound: the box includes the polyhedron's points.
		for _, pt := range samplePoints(pp, rng, 5) {
			if !contains(p, pt) && (!sp.isInt(0) || isIntPoint(pt)) {
				fail("box misses %v of %v", pt, pp)
			}
		}
		j := p.Join(q)
		if !j.Includes(p) || !j.Includes(q) {
			fail("join %v", j)
		}
		if !sp.isInt(0) {
			for _, pt := range samplePoints(pp.Join(qp), rng, 5) {
				if !contains(j, pt) {
					fail("join %v misses hull point %v", j, pt)
				}
			}
		}
		m := p.Meet(q)
		if !p.Includes(m) || !q.Includes(m) {
			fail("meet %v", m)
		}
		if w := p.Widen(q, []Constraint{randConstraint(rng, n)}); !w.Includes(j) {
			fail("widen %v", w)
		}
		if !p.Forget(rng.IntN(n)).Includes(p) {
			fail("forget")
		}
		assign := randAssign(rng, n)
		img, pre := p.Image(assign), p.Preimage(assign)
		for k := 0; k < 10; k++ {
			v := randPoint(rng, n, 5)
			if sp.isInt(0) {
				v = roundPoint(v)
			}
			fv := applyAssign(assign, v)
			if sp.isInt(0) && !isIntPoint(fv) {
				continue // not a state of an integer program
			}
			if contains(p, v) && !contains(img, fv) {
				fail("image %v by %v misses f(%v) = %v", img, assign, v, fv)
			}
			if contains(p, fv) && !contains(pre, v) {
				fail("preimage %v by %v misses %v", pre, assign, v)
			}
		}
		if p.Includes(q) != p.Join(q).Equal(p) {
			fail("includes/join disagree")
		}
		// Intervals over-approximate the polyhedral meet.
		for _, pt := range samplePoints(pp.Meet(qp), rng, 5) {
			if !contains(m, pt) && (!sp.isInt(0) || isIntPoint(pt)) {
				fail("meet %v misses %v", m, pt)
			}
		}
	}
}

func isIntPoint(pt point) bool {
	for _, x := range pt {
		if !x.IsInt() {
			return false
		}
	}
	return true
}

func roundPoint(pt point) point {
	out := make(point, len(pt))
	for i, x := range pt {
		out[i] = floorRat(x)
	}
	return out
}
