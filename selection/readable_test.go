package selection

import (
	"testing"

	"github.com/stg-tool/stg/spec"
)

func TestIsolateParameters(t *testing.T) {
	scope := &spec.Scope{
		Vars:   map[string]spec.Type{"x": spec.IntType, "y": spec.IntType, "r": spec.RealType},
		Params: map[string]spec.Type{"p": spec.IntType, "q": spec.IntType, "s": spec.RealType},
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
		e, err := spec.Parse(tt.in, spec.Pos{}, scope)
		if err != nil {
			t.Fatal(err)
		}
		if got := spec.Format(isolateParameters(e)); got != tt.want {
			t.Errorf("isolateParameters(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
