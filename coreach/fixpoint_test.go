package coreach_test

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// parseProduct builds the product of a spec and a purpose given as YAML.
func parseProduct(t *testing.T, ctx *solver.Context, specSrc, purposeSrc string) *product.Product {
	t.Helper()
	s, err := specfile.ParseModel("spec.yaml", []byte(specSrc), nil)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := specfile.ParseModel("purpose.yaml", []byte(purposeSrc), s)
	if err != nil {
		t.Fatal(err)
	}
	return buildModels(t, ctx, s, tp)
}

func parsePred(t *testing.T, p *product.Product, src string) expr.Expr {
	t.Helper()
	sc := &expr.Scope{Vars: map[string]expr.Type{}}
	for _, v := range p.Variables {
		sc.Vars[v.Name] = v.Type
	}
	e, err := expr.Parse(src, expr.Pos{}, sc)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

const loopSpec = `kind: spec
name: loop
variables: {i: int}
actions:
  tick: {dir: input}
  done: {dir: output}
initial: {location: L, condition: i == 0}
transitions:
  - {from: L, action: tick, guard: "i < 10", assign: {i: i + 1}, to: L}
  - {from: L, action: done, guard: "i == 10", to: E}
`

const loopPurpose = `kind: purpose
name: loop-done
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: done, to: A}
`

// TestLoopCounter: i := i + 1 while i < 10, then done when i == 10. The
// exact sets at the loop are reach = 0 <= i <= 10 and coreach = i <= 10;
// widening alone loses the bound 10 of reach, narrowing recovers it.
func TestLoopCounter(t *testing.T) {
	ctx := newContext(t)
	p := parseProduct(t, ctx, loopSpec, loopPurpose)
	loop := product.Location("L", "W")
	tests := []struct {
		name           string
		dom            abstraction.Domain
		opts           coreach.Options
		reach, coreach string // expected exactly (equivalence)
	}{
		{"polyhedra", abstraction.Polyhedra(), coreach.Options{Slicing: -1}, "0 <= i && i <= 10", "i <= 10"},
		{"polyhedra/sliced", abstraction.Polyhedra(), coreach.Options{}, "0 <= i && i <= 10", "0 <= i && i <= 10"},
		{"intervals", abstraction.Intervals(), coreach.Options{Slicing: -1}, "0 <= i && i <= 10", "i <= 10"},
		{"polyhedra/eager-widening", abstraction.Polyhedra(), coreach.Options{Slicing: -1, WideningDelay: 1}, "0 <= i && i <= 10", "i <= 10"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := coreach.Analyze(p, tc.dom, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what      string
				got, want expr.Expr
			}{
				{"reach", r.ReachOf(loop), parsePred(t, p, tc.reach)},
				{"coreach", r.CoreachOf(loop), parsePred(t, p, tc.coreach)},
			} {
				ok, err := ctx.Equivalent(c.got, c.want)
				if err != nil {
					t.Fatal(err)
				}
				if !ok {
					t.Errorf("%s(%s) = %s, want %s", c.what, loop, expr.Format(c.got), expr.Format(c.want))
				}
			}
		})
	}
}

// TestLoopCounterNarrowing: i := i + 3 while i < 10, then done when
// i == 12. No guard gives the bound 12 as a widening threshold, so the
// ascending iterations end with reach = i >= 0; the descending ones
// recover i <= 12. Without them the result is still sound.
func TestLoopCounterNarrowing(t *testing.T) {
	ctx := newContext(t)
	src := strings.NewReplacer("i + 1", "i + 3", "i == 10", "i == 12").Replace(loopSpec)
	p := parseProduct(t, ctx, src, loopPurpose)
	loop := product.Location("L", "W")
	for _, dom := range []abstraction.Domain{abstraction.Intervals(), abstraction.Polyhedra()} {
		r, err := coreach.Analyze(p, dom, coreach.Options{Slicing: -1})
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := ctx.Equivalent(r.ReachOf(loop), parsePred(t, p, "0 <= i && i <= 12")); err != nil || !ok {
			t.Errorf("%s: reach(%s) = %s, want 0 <= i <= 12 (%v)", dom.Name(), loop, expr.Format(r.ReachOf(loop)), err)
		}
		r, err = coreach.Analyze(p, dom, coreach.Options{Slicing: -1, WideningDelay: 1, Narrowing: -1})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s without narrowing: reach %s, coreach %s", dom.Name(), expr.Format(r.ReachOf(loop)), expr.Format(r.CoreachOf(loop)))
		for _, c := range []struct {
			what       string
			got, exact expr.Expr
		}{
			{"reach", r.ReachOf(loop), parsePred(t, p, "0 <= i && i <= 12 && i % 3 == 0")},
			{"coreach", r.CoreachOf(loop), parsePred(t, p, "i <= 12 && i % 3 == 0")},
		} {
			ok, err := ctx.Entails(c.exact, c.got)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Errorf("%s: %s(%s) = %s does not contain %s", dom.Name(), c.what, loop, expr.Format(c.got), expr.Format(c.exact))
			}
		}
	}
}

// TestNonConvexGuards: guards the domains cannot represent (non-linear,
// !=, disjunctions) are over-approximated: coreach contains the exact
// pre-image, never less.
func TestNonConvexGuards(t *testing.T) {
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
		exact string // the exact coreach of the location before out
	}{
		{"x * x == 4", "x * x == 4"},
		{"x * y > 3", "x * y > 3"},
		{"x != 3", "x != 3"},
		{"x != 3 && x >= 3 && x <= 3", "false"},
		{"x != y", "x != y"},
		{"x < 0 || x > 10", "x < 0 || x > 10"},
		{"x % 2 == 0 && y == x / 2", "x % 2 == 0 && y == x / 2"},
		{"!(x == y)", "x != y"},
	}
	for _, tc := range tests {
		t.Run(tc.guard, func(t *testing.T) {
			ctx := newContext(t)
			specSrc := `kind: spec
name: nonconvex
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
			exact := parsePred(t, p, tc.exact)
			for _, dom := range []abstraction.Domain{abstraction.Intervals(), abstraction.Polyhedra()} {
				for _, opts := range []coreach.Options{{Slicing: -1}, {}} {
					r, err := coreach.Analyze(p, dom, opts)
					if err != nil {
						t.Fatal(err)
					}
					// Every state at M is reachable (in assigns anything),
					// so reach(M) must be everything, or, sliced, contain
					// the co-reachable states.
					reach := expr.True()
					if opts.Slicing >= 0 {
						reach = exact
					}
					for what, c := range map[string]struct{ got, want expr.Expr }{
						"coreach": {r.CoreachOf(m), exact},
						"reach":   {r.ReachOf(m), reach},
					} {
						got, want := c.got, c.want
						ok, err := ctx.Entails(want, got)
						if err != nil {
							t.Fatal(err)
						}
						if !ok {
							t.Errorf("%s %+v: %s(%s) = %s does not contain %s", dom.Name(), opts, what, m, expr.Format(got), expr.Format(want))
						}
					}
				}
			}
		})
	}
}
