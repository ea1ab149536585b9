package expr

import "testing"

// TestFoldTruth folds the ground comparisons of a guard taken with
// known values, and nothing else.
func TestFoldTruth(t *testing.T) {
	x := &Ident{Name: "x@1", Kind: VarIdent, T: IntType}
	three, two := IntConst(3), IntConst(2)
	gt := func(a, b Expr) Expr { return &Binary{Op: Gt, X: a, Y: b} }
	or := func(a, b Expr) Expr { return &Binary{Op: Or, X: a, Y: b} }
	and := func(a, b Expr) Expr { return &Binary{Op: And, X: a, Y: b} }
	for _, c := range []struct {
		in   Expr
		want string
	}{
		{or(gt(three, two), gt(x, three)), "true"},
		{or(gt(two, three), gt(x, three)), "x@1 > 3"},
		{and(gt(three, two), gt(x, three)), "x@1 > 3"},
		{and(gt(two, three), gt(x, three)), "false"},
		{&Unary{Op: Not, X: gt(two, three)}, "true"},
		{gt(x, three), "x@1 > 3"},
	} {
		if got := Format(FoldTruth(c.in)); got != c.want {
			t.Errorf("FoldTruth(%s) = %s, want %s", Format(c.in), got, c.want)
		}
	}
}
