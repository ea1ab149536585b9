package solver

import (
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// TestSetFacts: the facts F(123) == 228 decide F(x) <= 200 once x is
// fixed, in the one-shot questions and in solvers made afterwards;
// other facts replace them and clear the memo.
func TestSetFacts(t *testing.T) {
	c := newContext(t)
	x := expr.VarRef("x", expr.IntType)
	call := func(arg expr.Expr) expr.Expr {
		return &expr.Call{Func: "F", Args: []expr.Expr{arg}, T: expr.IntType}
	}
	row := expr.Compare(expr.Eq, call(expr.IntConst(123)), expr.IntConst(228))
	low := expr.AndOf(expr.Compare(expr.Eq, x, expr.IntConst(123)), expr.Compare(expr.Le, call(x), expr.IntConst(200)))
	sat := func(want Result) {
		t.Helper()
		if r, err := c.Sat(low); err != nil || r != want {
			t.Errorf("Sat(%s) with facts %v = %v, %v; want %v", expr.Format(low), c.Facts(), r, err, want)
		}
	}
	sat(Sat)
	if err := c.SetFacts(row); err != nil {
		t.Fatal(err)
	}
	sat(Unsat) // the memo's earlier answer is forgotten
	if ok, err := c.Entails(expr.Compare(expr.Eq, x, expr.IntConst(123)), expr.Compare(expr.Gt, call(x), expr.IntConst(200))); err != nil || !ok {
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
	if err := c.SetFacts(expr.True()); err != nil {
		t.Fatal(err)
	}
	sat(Sat)
	if err := c.SetFacts(expr.IntConst(1)); err == nil {
		t.Error("SetFacts(1): no error")
	}
	if c.Facts() != nil {
		t.Errorf("a refused SetFacts changed the facts to %v", c.Facts())
	}
}
