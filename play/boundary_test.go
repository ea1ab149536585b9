package play

import (
	"math/big"
	"slices"
	"testing"

	"github.com/stg-tool/stg/spec"
)

func TestBoundaryHints(t *testing.T) {
	p := &spec.Ident{Name: "p", Kind: spec.ParamIdent, T: spec.IntType}
	x := &spec.Ident{Name: "x", Kind: spec.VarIdent, T: spec.IntType}
	r := &spec.Ident{Name: "r", Kind: spec.ParamIdent, T: spec.RealType}
	b := &spec.Ident{Name: "b", Kind: spec.ParamIdent, T: spec.BoolType}
	five := spec.IntConst(5)
	for _, tt := range []struct {
		name string
		id   *spec.Ident
		cons []spec.Expr
		want []string
	}{
		{"p <= 5", p, []spec.Expr{spec.Compare(spec.Le, p, five)}, []string{"p == 5", "p == 5 + 1"}},
		{"p < 5", p, []spec.Expr{spec.Compare(spec.Lt, p, five)}, []string{"p == 5 + -1", "p == 5"}},
		{"5 < p (swapped: p > 5)", p, []spec.Expr{spec.Compare(spec.Lt, five, p)}, []string{"p == 5", "p == 5 + 1"}},
		{"p >= x", p, []spec.Expr{spec.Compare(spec.Ge, p, x)}, []string{"p == x + -1", "p == x"}},
		{"p == x + 2, inside a conjunction", p, []spec.Expr{spec.AndOf(spec.Compare(spec.Ge, x, five), spec.Compare(spec.Eq, p, spec.Arith(spec.Add, x, spec.IntConst(2))))},
			[]string{"p == x + 2 + -1", "p == x + 2", "p == x + 2 + 1"}},
		{"duplicates once", p, []spec.Expr{spec.Compare(spec.Le, p, five), spec.Compare(spec.Gt, p, five)}, []string{"p == 5", "p == 5 + 1"}},
		{"p on both sides: no atom", p, []spec.Expr{spec.Compare(spec.Le, p, spec.Arith(spec.Add, p, five))}, nil},
		{"another identifier", p, []spec.Expr{spec.Compare(spec.Le, x, five)}, nil},
		{"real", r, []spec.Expr{spec.Compare(spec.Ne, r, spec.RatConst(big.NewRat(1, 2)))}, []string{"r == 0.5 + -1.0", "r == 0.5", "r == 0.5 + 1.0"}},
		{"bool: none", b, []spec.Expr{spec.Compare(spec.Eq, b, spec.True())}, nil},
	} {
		var got []string
		for _, h := range boundaryHints(tt.id, tt.cons) {
			got = append(got, spec.Format(h))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
