package coreach_test

import (
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/spec/expr"
)

// TestConditionalGuards: guards with ite, min, max and abs are split into
// their cases. The coreach of the location before out must contain the
// exact set (soundness) and, with polyhedra where the cases are affine,
// be contained in the given bound (the split is used, not dropped).
func TestConditionalGuards(t *testing.T) {
	const purpose = `kind: purpose
name: out
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: out, to: A}
`
	tests := []struct {
		guard string // of out, over x and y (set by the input)
		bound string // a set the polyhedra's result is inside (the split is used)
	}{
		{"abs(x) <= 2", "x >= -2 && x <= 2"},
		{"max(x, y) <= 3 && min(x, y) >= 1", "x >= 1 && x <= 3 && y >= 1 && y <= 3"},
		{"ite(x > 0, y, -y) >= 5", "true"},
		{"ite(x > 0, x, 0 - x) == 4", "x >= -4 && x <= 4"},
		{"real(x) * 0.5 >= 1.0", "true"},
		{"abs(x - y) < 2 || x * y == 7", "true"},
	}
	for _, tc := range tests {
		t.Run(tc.guard, func(t *testing.T) {
			ctx := newContext(t)
			specSrc := `kind: spec
name: cond
variables: {x: int, y: int}
actions:
  in: {dir: input, params: {a: int, b: int}}
  out: {dir: output}
initial: {location: I, condition: x == 0 && y == 0}
transitions:
  - {from: I, action: in, assign: {x: a, y: b}, to: M}
  - {from: M, action: out, guard: "` + tc.guard + `", to: E}
`
			p := parseProduct(t, ctx, specSrc, purpose)
			m := product.Location("M", "W")
			exact := parsePred(t, p, tc.guard)
			bound := parsePred(t, p, tc.bound)
			for _, dom := range []abstraction.Domain{abstraction.Intervals(), abstraction.Polyhedra()} {
				r, err := coreach.Analyze(p, dom, coreach.Options{Slicing: -1})
				if err != nil {
					t.Fatal(err)
				}
				got := r.CoreachOf(m)
				if ok, err := ctx.Entails(exact, got); err != nil || !ok {
					t.Errorf("%s: coreach %s does not contain %s (%v)", dom.Name(), expr.Format(got), tc.guard, err)
				}
				if dom.Name() != abstraction.Polyhedra().Name() {
					continue // intervals lose the relations between x and y
				}
				if ok, err := ctx.Entails(got, bound); err != nil || !ok {
					t.Errorf("%s: coreach %s is not inside %s (%v)", dom.Name(), expr.Format(got), tc.bound, err)
				}
			}
		})
	}
}
