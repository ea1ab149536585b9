package play

import (
	"math/big"
	"slices"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

func TestBoundaryHints(t *testing.T) {
	p := &expr.Ident{Name: "p", Kind: expr.ParamIdent, T: expr.IntType}
	x := &expr.Ident{Name: "x", Kind: expr.VarIdent, T: expr.IntType}
	r := &expr.Ident{Name: "r", Kind: expr.ParamIdent, T: expr.RealType}
	b := &expr.Ident{Name: "b", Kind: expr.ParamIdent, T: expr.BoolType}
	five := expr.IntConst(5)
	for _, tt := range []struct {
		name string
		id   *expr.Ident
		cons []expr.Expr
		want []string
	}{
		{"p <= 5", p, []expr.Expr{expr.Compare(expr.Le, p, five)}, []string{"p == 5", "p == 5 + 1"}},
		{"p < 5", p, []expr.Expr{expr.Compare(expr.Lt, p, five)}, []string{"p == 5 + -1", "p == 5"}},
		{"5 < p (swapped: p > 5)", p, []expr.Expr{expr.Compare(expr.Lt, five, p)}, []string{"p == 5", "p == 5 + 1"}},
		{"p >= x", p, []expr.Expr{expr.Compare(expr.Ge, p, x)}, []string{"p == x + -1", "p == x"}},
		{"p == x + 2, inside a conjunction", p, []expr.Expr{expr.AndOf(expr.Compare(expr.Ge, x, five), expr.Compare(expr.Eq, p, expr.Arith(expr.Add, x, expr.IntConst(2))))},
			[]string{"p == x + 2 + -1", "p == x + 2", "p == x + 2 + 1"}},
		{"duplicates once", p, []expr.Expr{expr.Compare(expr.Le, p, five), expr.Compare(expr.Gt, p, five)}, []string{"p == 5", "p == 5 + 1"}},
		{"p on both sides: no atom", p, []expr.Expr{expr.Compare(expr.Le, p, expr.Arith(expr.Add, p, five))}, nil},
		{"another identifier", p, []expr.Expr{expr.Compare(expr.Le, x, five)}, nil},
		{"real", r, []expr.Expr{expr.Compare(expr.Ne, r, expr.RatConst(big.NewRat(1, 2)))}, []string{"r == 0.5 + -1.0", "r == 0.5", "r == 0.5 + 1.0"}},
		{"bool: none", b, []expr.Expr{expr.Compare(expr.Eq, b, expr.True())}, nil},
	} {
		var got []string
		for _, h := range boundaryHints(tt.id, tt.cons) {
			got = append(got, expr.Format(h))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
