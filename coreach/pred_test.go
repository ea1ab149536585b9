package coreach

import (
	"math/rand"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/spec"
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
				t.Fatalf("%s: %s met with %s: lowered %s, meet %s", dom.Name(), x, spec.Format(e), got, want)
			}
		}
	}
}

func randPred(rng *rand.Rand, depth int) spec.Expr {
	names := []string{"x", "y", "z"}
	term := func() spec.Expr {
		v := spec.VarRef(names[rng.Intn(2)], spec.IntType)
		switch rng.Intn(3) {
		case 0:
			return spec.IntConst(int64(rng.Intn(9) - 4))
		case 1:
			return spec.Arith(spec.Add, v, spec.VarRef(names[rng.Intn(2)], spec.IntType))
		}
		return v
	}
	if depth == 0 || rng.Intn(3) == 0 {
		ops := []spec.Op{spec.Eq, spec.Ne, spec.Lt, spec.Le, spec.Gt, spec.Ge}
		switch rng.Intn(10) {
		case 0:
			return spec.BoolConst(rng.Intn(2) == 0)
		case 1:
			return spec.Compare(spec.Le, spec.VarRef("x", spec.IntType), spec.Arith(spec.Mul, term(), term()))
		}
		return spec.Compare(ops[rng.Intn(len(ops))], term(), term())
	}
	x, y := randPred(rng, depth-1), randPred(rng, depth-1)
	switch rng.Intn(3) {
	case 0:
		return &spec.Binary{Op: spec.And, X: x, Y: y}
	case 1:
		return &spec.Binary{Op: spec.Or, X: x, Y: y}
	}
	return &spec.Unary{Op: spec.Not, X: &spec.Binary{Op: spec.And, X: x, Y: y}}
}
