package abstraction

import (
	"math/big"
	"slices"
	"testing"
)

func TestLinExpr(t *testing.T) {
	sp := rspace("x", "y", "z")
	e := parseExpr(t, sp, "2*x - y + 3")
	f := parseExpr(t, sp, "y + z/2 - 1")
	sum := e.Add(f)
	if got := sum.Dims(); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("dims of e+f = %v, want [0 2] (y cancels)", got)
	}
	if c := sum.Coeff(2); c.Cmp(big.NewRat(1, 2)) != 0 {
		t.Errorf("coeff z = %v", c)
	}
	if k := sum.ConstTerm(); k.Cmp(big.NewRat(2, 1)) != 0 {
		t.Errorf("const = %v", k)
	}
	d := e.Sub(e)
	if !d.IsConst() || d.ConstTerm().Sign() != 0 {
		t.Errorf("e-e not zero")
	}
	s := e.Scale(big.NewRat(-1, 2))
	if s.Coeff(0).Cmp(big.NewRat(-1, 1)) != 0 || s.ConstTerm().Cmp(big.NewRat(-3, 2)) != 0 {
		t.Errorf("scale wrong")
	}
	if !e.Scale(new(big.Rat)).IsConst() {
		t.Errorf("scale by 0 not constant")
	}
	// Accessors return copies: mutating them does not change e.
	e.Coeff(0).SetInt64(100)
	e.ConstTerm().SetInt64(100)
	if e.Coeff(0).Cmp(big.NewRat(2, 1)) != 0 || e.ConstTerm().Cmp(big.NewRat(3, 1)) != 0 {
		t.Errorf("expression mutated through accessor")
	}
	if Const(nil).ConstTerm().Sign() != 0 || Var(1).Coeff(1).Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("constructors")
	}
	if sp.Index("z") != 2 || sp.Index("w") != -1 || sp.Dim() != 3 {
		t.Errorf("space")
	}
}
