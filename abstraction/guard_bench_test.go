package abstraction

import (
	"math/big"
	"testing"
)

// BenchmarkPolyhedraMeetGuard meets one reach-like polyhedron (the
// ring family's: a, b, c in [0, 100], s fixed, r free) with the two
// branches of an output guard, r == a + b && r < 150 and r >= 150, as
// the analysis and the selection do at every stage: the conversions
// start from the same value each time.
func BenchmarkPolyhedraMeetGuard(b *testing.B) {
	sp := NewSpace([]string{"a", "b", "c", "s", "r"}, []bool{true, true, true, true, true})
	c := func(k int64) LinExpr { return Const(big.NewRat(k, 1)) }
	var cs []Constraint
	for d := 0; d < 3; d++ {
		cs = append(cs, Constraint{c(0).Sub(Var(d)), Le}, Constraint{Var(d).Sub(c(100)), Le})
	}
	cs = append(cs, Constraint{Var(3).Sub(c(7)), Eq})
	reach := Polyhedra().Universe(sp).MeetConstraints(cs)
	branch1 := []Constraint{{Var(4).Sub(Var(0)).Sub(Var(1)), Eq}, {Var(4).Sub(c(150)), Lt}}
	branch2 := []Constraint{{c(150).Sub(Var(4)), Le}}
	b.ReportAllocs()
	for b.Loop() {
		if reach.MeetConstraints(branch1).IsEmpty() || reach.MeetConstraints(branch2).IsEmpty() {
			b.Fatal("empty")
		}
	}
}
