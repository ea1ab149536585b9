package check

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/canonical"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// TestParamRangeProves: a parameter's range is part of its type, so a
// transition that assigns it to a variable of the same range preserves
// that range; without the parameter's range it does not.
func TestParamRangeProves(t *testing.T) {
	ctx := newContext(t)
	src := `kind: spec
name: set
variables: {n: {type: int, range: [0, 2]}}
actions:
  set: {dir: input, params: {p: {type: int, range: [1, 2]}}}
initial: {location: A, condition: "n == 0"}
transitions:
  - {from: A, action: set, assign: {n: p}, to: A}
`
	for _, tt := range []struct {
		param, want string
	}{
		{"{type: int, range: [1, 2]}", ""},
		{"int", "transition A -set-> A does not preserve the ranges"},
	} {
		m, err := specfile.ParseModel("m.yaml", []byte(strings.Replace(src, "{type: int, range: [1, 2]}", tt.param, 1)), nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Invariant(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(f.Errors) > 0 {
			got = f.Errors[0].Error()
		}
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("p: %s: got %q, want %q", tt.param, got, tt.want)
		}
		j, err := Proved(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if proved := !expr.IsTrue(j); proved != (tt.want == "") {
			t.Errorf("p: %s: Proved = %s", tt.param, expr.Format(j))
		}
	}
}

// counterSpec counts up under a non-linear guard, which the analysis
// cannot read: only the proved range bounds the counter for it.
const counterSpec = `kind: spec
name: nl
variables: {c: {type: int, range: [0, 2]}}
actions:
  inc:  {dir: input}
  ping: {dir: output, params: {v: int}}
initial: {location: A, condition: "c == 0"}
transitions:
  - {from: A, action: inc, guard: "c * c < 4", assign: {c: c + 1}, to: A}
  - {from: A, action: ping, guard: "v == c", to: A}
`

const pingPurpose = `kind: purpose
name: ping
variables: {}
initial: {location: q0}
accept: [qa]
transitions:
  - {from: q0, action: ping, to: qa}
`

// TestKnownBounds: the analysis of the product assuming the proved
// range finds c <= 2 where the plain analysis finds no upper bound.
func TestKnownBounds(t *testing.T) {
	ctx := newContext(t)
	s, p := counterProduct(t, counterSpec)
	known, err := Known(ctx, s, p)
	if err != nil {
		t.Fatal(err)
	}
	if known == p {
		t.Fatalf("Known did not assume the proved range")
	}
	plain, err := coreach.Analyze(p, abstraction.Polyhedra(), coreach.Options{})
	if err != nil {
		t.Fatal(err)
	}
	with, err := coreach.Analyze(known, abstraction.Polyhedra(), coreach.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := p.Initial.Location
	got, base := expr.Format(with.ReachOf(l)), expr.Format(plain.ReachOf(l))
	t.Logf("reach(%s): plain %s; with known bounds %s", l, base, got)
	if strings.Contains(base, "<= 2") {
		t.Errorf("the plain analysis bounds c already (%s): the test shows nothing", base)
	}
	if !strings.Contains(got, "c <= 2") {
		t.Errorf("reach(%s) = %s with the known bounds (plain: %s), want c <= 2", l, got, base)
	}
}

// counterProduct returns the spec src and its product with pingPurpose.
func counterProduct(t *testing.T, src string) (*spec.Model, *product.Product) {
	t.Helper()
	ctx := newContext(t)
	s, err := specfile.ParseModel("s.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := specfile.ParseModel("p.yaml", []byte(pingPurpose), s)
	if err != nil {
		t.Fatal(err)
	}
	ct, err := canonical.Build(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := product.Build(ctx, ct, tp)
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

// TestKnownRefutedClaim: a range the spec can leave is an error, at the
// transition, with a witness; it is not assumed.
func TestKnownRefutedClaim(t *testing.T) {
	s, p := counterProduct(t, strings.Replace(counterSpec, "range: [0, 2]", "range: [0, 1]", 1))
	_, err := Known(newContext(t), s, p)
	if err == nil || !strings.Contains(err.Error(), "s.yaml:9:5: transition A -inc-> A does not preserve the ranges: it leads from [c = 1] to [c = 2]") {
		t.Errorf("got %v", err)
	}
}
