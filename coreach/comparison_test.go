package coreach_test

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/spec"
)

// TestComparison: each comparison of numbers becomes the constraints it
// means over the dimensions (printed over the space's names), != its two
// alternatives; anything not a linear comparison over known dimensions
// is refused.
func TestComparison(t *testing.T) {
	space := abstraction.NewSpace([]string{"x", "p"}, []bool{true, true})
	dim := func(id *spec.Ident) (int, bool) {
		switch {
		case id.Kind == spec.VarIdent && id.Name == "x":
			return 0, true
		case id.Kind == spec.ParamIdent && id.Name == "p":
			return 1, true
		}
		return 0, false
	}
	x, p := spec.VarRef("x", spec.IntType), spec.ParamRef("p", spec.IntType)
	y := spec.VarRef("y", spec.IntType) // no dimension
	b := spec.VarRef("b", spec.BoolType)
	xPlus2 := spec.Arith(spec.Add, x, spec.IntConst(2))
	tests := []struct {
		op   spec.Op
		l, r spec.Expr
		want string // the constraints joined by "; ", "-" when refused
	}{
		{spec.Eq, x, p, "x - p = 0"},
		{spec.Le, xPlus2, p, "x - p <= -2"},
		{spec.Lt, x, spec.IntConst(3), "x < 3"},
		{spec.Ge, x, p, "x - p >= 0"},
		{spec.Gt, xPlus2, spec.IntConst(0), "x > -2"},
		{spec.Ne, x, p, "x - p < 0; x - p > 0"},
		{spec.Le, spec.Arith(spec.Add, x, y), y, "x <= 0"}, // y cancels out
		{spec.Le, x, y, "-"},
		{spec.Le, spec.Arith(spec.Mul, x, p), spec.IntConst(1), "-"},
		{spec.Eq, b, spec.True(), "-"},
		{spec.Add, x, p, "-"},
	}
	for _, tt := range tests {
		name := spec.Format(spec.Compare(tt.op, tt.l, tt.r))
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
