package abstraction

import (
	"math/big"
	"testing"
)

// decodePolys turns bytes into a space of 2 or 3 dimensions and two
// polyhedra given by at most 5 constraints each, with coefficients in
// [-3,3] and constants in [-6,6].
func decodePolys(data []byte) (*Space, Value, Value) {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := int(data[0])
		data = data[1:]
		return b
	}
	h := next()
	n := 2 + h%2
	sp := rspace([]string{"x", "y", "z"}[:n]...)
	if h&2 != 0 {
		sp = ispace([]string{"x", "y", "z"}[:n]...)
	}
	mkOne := func() Value {
		var cs []Constraint
		for k := next() % 6; k > 0; k-- {
			var e LinExpr
			for d := 0; d < n; d++ {
				e = e.Add(Var(d).Scale(big.NewRat(int64(next()%7-3), 1)))
			}
			e = e.Add(Const(big.NewRat(int64(next()%13-6), 1)))
			cs = append(cs, Constraint{e, Op(next() % 3)})
		}
		return Polyhedra().Universe(sp).MeetConstraints(cs)
	}
	p := mkOne()
	return sp, p, mkOne()
}

func FuzzPolyhedronOps(f *testing.F) {
	f.Add([]byte{0, 2, 1, 0, 6, 0, 0, 1, 6, 0, 1, 3, 4, 6, 0})
	f.Add([]byte{1, 3, 1, 2, 3, 4, 0, 6, 5, 4, 9, 1, 3, 3, 2, 1, 0, 6, 6, 6, 6, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{2, 4, 5, 1, 6, 2, 0, 1, 5, 2, 6, 0, 3, 3, 3, 1, 1, 0, 2, 2, 4, 8, 1, 2})
	f.Add([]byte{3, 5, 0, 0, 0, 7, 1, 4, 4, 4, 12, 0, 2, 1, 1, 1, 1, 2, 3, 0, 0, 6, 1, 9, 9, 9, 9, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		sp, p, q := decodePolys(data)
		j := p.Join(q)
		if !j.Includes(p) || !j.Includes(q) {
			t.Fatalf("join %v of %v, %v", j, p, q)
		}
		m := p.Meet(q)
		if !p.Includes(m) || !q.Includes(m) {
			t.Fatalf("meet %v of %v, %v", m, p, q)
		}
		if !p.Includes(p) || !p.Equal(p) || !p.Includes(m) {
			t.Fatalf("includes not reflexive on %v", p)
		}
		if p.Includes(q) != j.Equal(p) {
			t.Fatalf("includes and join disagree on %v, %v", p, q)
		}
		if w := p.Widen(q, q.Constraints()); !w.Includes(j) {
			t.Fatalf("widening %v of %v, %v", w, p, q)
		}
		if f := p.Forget(0); !f.Includes(p) {
			t.Fatalf("forget %v of %v", f, p)
		}
		if !sp.isInt(0) {
			if back := Polyhedra().Universe(sp).MeetConstraints(p.Constraints()); !back.Equal(p) {
				t.Fatalf("round trip of %v gives %v", p, back)
			}
		}
		_ = p.String()
	})
}
