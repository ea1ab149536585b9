package coreach

import (
	"math/rand"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/spec/expr"
)

// TestLowerIsMeet: on random predicates (negations over conjunctions
// and disjunctions, !=, ==, constants) and random values, meeting the
// lowered predicate gives the very value frame.meet gives, in both
// domains: the compiled guards change nothing but the cost.
func TestLowerIsMeet(t *testing.T) {
	f := &frame{vars: map[string]int{"x": 0, "y": 1, "z": 2}}
	f.space = abstraction.NewSpace([]string{"x", "y", "z"}, []bool{true, true, false})
	rng := rand.New(rand.NewSource(25))
	for i := 0; i < 400; i++ {
		e := randPred(rng, 3)
		for _, dom := range []abstraction.Domain{abstraction.Intervals(), abstraction.Polyhedra()} {
			batch := dom.Name() == abstraction.Polyhedra().Name()
			p := f.lower(e, batch)
			x := f.meet(dom.Universe(f.space), randPred(rng, 1))
			want := f.meet(x, e)
			got := evalPred(x, p)
			if got.String() != want.String() {
				t.Fatalf("%s: %s met with %s: lowered %s, meet %s", dom.Name(), x, expr.Format(e), got, want)
			}
		}
	}
}

func randPred(rng *rand.Rand, depth int) expr.Expr {
	names := []string{"x", "y", "z"}
	term := func() expr.Expr {
		v := expr.VarRef(names[rng.Intn(2)], expr.IntType)
		switch rng.Intn(3) {
		case 0:
			return expr.IntConst(int64(rng.Intn(9) - 4))
		case 1:
			return expr.Arith(expr.Add, v, expr.VarRef(names[rng.Intn(2)], expr.IntType))
		}
		return v
	}
	if depth == 0 || rng.Intn(3) == 0 {
		ops := []expr.Op{expr.Eq, expr.Ne, expr.Lt, expr.Le, expr.Gt, expr.Ge}
		switch rng.Intn(10) {
		case 0:
			return expr.BoolConst(rng.Intn(2) == 0)
		case 1:
			return expr.Compare(expr.Le, expr.VarRef("x", expr.IntType), expr.Arith(expr.Mul, term(), term()))
		}
		return expr.Compare(ops[rng.Intn(len(ops))], term(), term())
	}
	x, y := randPred(rng, depth-1), randPred(rng, depth-1)
	switch rng.Intn(3) {
	case 0:
		return &expr.Binary{Op: expr.And, X: x, Y: y}
	case 1:
		return &expr.Binary{Op: expr.Or, X: x, Y: y}
	}
	return &expr.Unary{Op: expr.Not, X: &expr.Binary{Op: expr.And, X: x, Y: y}}
}

// TestLowerDisjunctionKept: a disjunction whose first case the value
// entails (the ¬(s == 199 ∧ r == 170) of a ring's purpose at stage 7)
// is the value itself, in both domains, as frame.meet computes it.
func TestLowerDisjunctionKept(t *testing.T) {
	f := &frame{vars: map[string]int{"x": 0, "y": 1, "z": 2}}
	f.space = abstraction.NewSpace([]string{"x", "y", "z"}, []bool{true, true, false})
	x, y := expr.VarRef("x", expr.IntType), expr.VarRef("y", expr.IntType)
	at := func(op expr.Op, v expr.Expr, k int64) expr.Expr { return expr.Compare(op, v, expr.IntConst(k)) }
	cases := []struct{ context, e expr.Expr }{
		{expr.AndOf(at(expr.Eq, x, 7), at(expr.Le, y, 9)), expr.NotOf(expr.AndOf(at(expr.Eq, x, 199), at(expr.Eq, y, 170)))},
		{at(expr.Eq, x, 7), expr.OrOf(at(expr.Lt, x, 10), at(expr.Gt, y, 3))},
		{at(expr.Eq, x, 7), at(expr.Ne, x, 8)},
		{at(expr.Eq, x, 7), at(expr.Ne, x, 3)},
		{at(expr.Eq, x, 7), expr.OrOf(at(expr.Gt, x, 10), at(expr.Gt, y, 3))},
		{at(expr.Eq, x, 199), expr.NotOf(expr.AndOf(at(expr.Eq, x, 199), at(expr.Eq, y, 170)))},
	}
	for _, dom := range []abstraction.Domain{abstraction.Intervals(), abstraction.Polyhedra()} {
		batch := dom.Name() == abstraction.Polyhedra().Name()
		for _, c := range cases {
			v := f.meet(dom.Universe(f.space), c.context)
			got, want := evalPred(v, f.lower(c.e, batch)), f.meet(v, c.e)
			if got.String() != want.String() {
				t.Errorf("%s: %s met with %s: lowered %s, meet %s", dom.Name(), v, expr.Format(c.e), got, want)
			}
		}
	}
}
