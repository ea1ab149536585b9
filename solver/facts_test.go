package solver

import (
	"testing"

	"github.com/stg-tool/stg/spec"
)

// TestSetFacts: the facts F(123) == 228 decide F(x) <= 200 once x is
// fixed, in the one-shot questions and in solvers made afterwards;
// other facts replace them and clear the memo.
func TestSetFacts(t *testing.T) {
	c := newContext(t)
	x := spec.VarRef("x", spec.IntType)
	call := func(arg spec.Expr) spec.Expr {
		return &spec.Call{Func: "F", Args: []spec.Expr{arg}, T: spec.IntType}
	}
	row := spec.Compare(spec.Eq, call(spec.IntConst(123)), spec.IntConst(228))
	low := spec.AndOf(spec.Compare(spec.Eq, x, spec.IntConst(123)), spec.Compare(spec.Le, call(x), spec.IntConst(200)))
	sat := func(want Result) {
		t.Helper()
		if r, err := c.Sat(low); err != nil || r != want {
			t.Errorf("Sat(%s) with facts %v = %v, %v; want %v", spec.Format(low), c.Facts(), r, err, want)
		}
	}
	sat(Sat)
	if err := c.SetFacts(row); err != nil {
		t.Fatal(err)
	}
	sat(Unsat) // the memo's earlier answer is forgotten
	if ok, err := c.Entails(spec.Compare(spec.Eq, x, spec.IntConst(123)), spec.Compare(spec.Gt, call(x), spec.IntConst(200))); err != nil || !ok {
		t.Errorf("Entails under the facts = %v, %v; want true", ok, err)
	}
	s := c.NewSolver()
	if err := s.Assert(low); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Unsat {
		t.Errorf("a new solver: %v, %v; want unsat", r, err)
	}
	s.Close()
	if err := c.SetFacts(spec.True()); err != nil {
		t.Fatal(err)
	}
	sat(Sat)
	if err := c.SetFacts(spec.IntConst(1)); err == nil {
		t.Error("SetFacts(1): no error")
	}
	if c.Facts() != nil {
		t.Errorf("a refused SetFacts changed the facts to %v", c.Facts())
	}
}
