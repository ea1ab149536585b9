package selection

import (
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

func TestIsolateParameters(t *testing.T) {
	scope := &expr.Scope{
		Vars:   map[string]expr.Type{"x": expr.IntType, "y": expr.IntType, "r": expr.RealType},
		Params: map[string]expr.Type{"p": expr.IntType, "q": expr.IntType, "s": expr.RealType},
	}
	tests := []struct{ in, want string }{
		{"x == p - 2", "p == x + 2"},
		{"p >= 3", "p >= 3"},
		{"x - p < 4", "p > x - 4"},
		{"2 * x + p <= y", "p <= y - 2 * x"},
		{"-p == x", "p == -x"},
		{"p - 5 == 0", "p == 5"},
		{"x + p <= 100", "p <= 100 - x"},
		{"x + p <= -100", "p <= -x - 100"},
		{"p + q == x", "p + q == x"}, // two parameters: unchanged
		{"2 * p == x", "2 * p == x"}, // coefficient 2: unchanged
		{"x == y + 1", "x == y + 1"}, // no parameter: unchanged
		{"!(x == p - 2) || p > x", "p != x + 2 || p > x"},
		{"r + 0.5 == s", "s == r + 0.5"},
	}
	for _, tt := range tests {
		e, err := expr.Parse(tt.in, expr.Pos{}, scope)
		if err != nil {
			t.Fatal(err)
		}
		if got := expr.Format(isolateParameters(e)); got != tt.want {
			t.Errorf("isolateParameters(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
