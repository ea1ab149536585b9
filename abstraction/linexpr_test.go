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

// TestConstraintKey: constraints built differently but equal (same
// relation, terms and constant) share a key; any difference in the
// relation, a coefficient, a dimension or the constant gives another.
func TestConstraintKey(t *testing.T) {
	sp := rspace("x", "y", "z")
	key := func(e string, op Op) string { return string(Constraint{parseExpr(t, sp, e), op}.AppendKey(nil)) }
	same := [][2]string{
		{"2*x - y + 3", "3 - y + 2*x"},
		{"x + z/2", "z/2 + x + 0"},
		{"x - 1 + 1", "x"},
	}
	for _, p := range same {
		if key(p[0], Le) != key(p[1], Le) {
			t.Errorf("%s and %s: different keys", p[0], p[1])
		}
	}
	distinct := []string{"x", "2*x", "x + 1", "x - 1", "y", "x + y", "x + y/2", "x/2 + y", "x + 1/2", "12*x", "1*x + 2", "x + 12"}
	seen := map[string]string{}
	for _, e := range distinct {
		for _, op := range []Op{Le, Eq, Lt} {
			k := key(e, op)
			if o, ok := seen[k]; ok {
				t.Errorf("%s (op %d) and %s share the key %q", e, op, o, k)
			}
			seen[k] = e
		}
	}
}
