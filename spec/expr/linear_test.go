package expr

import (
	"math/big"
	"testing"
)

func TestLinearOf(t *testing.T) {
	scope := &Scope{
		Vars:   map[string]Type{"x": IntType, "y": IntType, "r": RealType},
		Params: map[string]Type{"p": IntType, "s": RealType},
	}
	tests := []struct {
		in   string
		want string // Linear.Expr of the result, or "" when not affine
	}{
		{"x - p + 2", "x - p + 2"},
		{"2 * (x + 1) - x", "x + 2"},
		{"(2 + 3) * y", "5 * y"},
		{"x - x", "0"},
		{"-x + 100", "100 - x"},
		{"-x - y - 1", "-x - y - 1"},
		{"r / 2 + s", "0.5 * r + s"},
		{"x * y", ""},
		{"x / 2", ""},
		{"x % 2", ""},
		{"r / s", ""},
	}
	for _, tt := range tests {
		e, err := Parse(tt.in, Pos{}, scope)
		if err != nil {
			t.Fatal(err)
		}
		l, ok := LinearOf(e)
		if !ok {
			if tt.want != "" {
				t.Errorf("LinearOf(%s) is not affine, want %s", tt.in, tt.want)
			}
			continue
		}
		if tt.want == "" {
			t.Errorf("LinearOf(%s) = %v, want not affine", tt.in, l)
			continue
		}
		got, ok := l.Expr(e.Type())
		if !ok || Format(got) != tt.want {
			t.Errorf("LinearOf(%s).Expr = %v (%v), want %s", tt.in, got, ok, tt.want)
		}
	}
	// A rational coefficient cannot be written over the integers.
	l := Linear{Terms: []Term{{Ident: &Ident{Name: "x", T: IntType}, Coeff: big.NewRat(1, 2)}}}
	if _, ok := l.Expr(IntType); ok {
		t.Errorf("x/2 written as an int expression")
	}
}
