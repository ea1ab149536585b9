package coreach_test

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/spec/expr"
)

// TestComparison: each comparison of numbers becomes the constraints it
// means over the dimensions (printed over the space's names), != its two
// alternatives; anything not a linear comparison over known dimensions
// is refused.
func TestComparison(t *testing.T) {
	space := abstraction.NewSpace([]string{"x", "p"}, []bool{true, true})
	dim := func(id *expr.Ident) (int, bool) {
		switch {
		case id.Kind == expr.VarIdent && id.Name == "x":
			return 0, true
		case id.Kind == expr.ParamIdent && id.Name == "p":
			return 1, true
		}
		return 0, false
	}
	x, p := expr.VarRef("x", expr.IntType), expr.ParamRef("p", expr.IntType)
	y := expr.VarRef("y", expr.IntType) // no dimension
	b := expr.VarRef("b", expr.BoolType)
	xPlus2 := expr.Arith(expr.Add, x, expr.IntConst(2))
	tests := []struct {
		op   expr.Op
		l, r expr.Expr
		want string // the constraints joined by "; ", "-" when refused
	}{
		{expr.Eq, x, p, "x - p = 0"},
		{expr.Le, xPlus2, p, "x - p <= -2"},
		{expr.Lt, x, expr.IntConst(3), "x < 3"},
		{expr.Ge, x, p, "x - p >= 0"},
		{expr.Gt, xPlus2, expr.IntConst(0), "x > -2"},
		{expr.Ne, x, p, "x - p < 0; x - p > 0"},
		{expr.Le, expr.Arith(expr.Add, x, y), y, "x <= 0"}, // y cancels out
		{expr.Le, x, y, "-"},
		{expr.Le, expr.Arith(expr.Mul, x, p), expr.IntConst(1), "-"},
		{expr.Eq, b, expr.True(), "-"},
		{expr.Add, x, p, "-"},
	}
	for _, tt := range tests {
		name := expr.Format(expr.Compare(tt.op, tt.l, tt.r))
		t.Run(name, func(t *testing.T) {
			cs, ok := coreach.Comparison(tt.op, tt.l, tt.r, dim)
			got := "-"
			if ok {
				var ss []string
				for _, c := range cs {
					ss = append(ss, c.String(space))
				}
				got = strings.Join(ss, "; ")
			}
			if got != tt.want {
				t.Errorf("Comparison(%s) = %s, want %s", name, got, tt.want)
			}
		})
	}
}
