package canonical

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

func load(t *testing.T, src string) *spec.Model {
	t.Helper()
	m, err := specfile.ParseModel("s.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newContext(t *testing.T) *solver.Context {
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ctx.Close)
	return ctx
}

const cmp = `kind: spec
name: cmp
variables: {x: int, y: int}
actions:
  in:  {dir: input,  params: {p: int}}
  ok:  {dir: output, params: {p: int}}
  nok: {dir: output, params: {p: int}}
  end: {dir: output}
initial: {location: Rx, condition: x == 0 && y == 0}
transitions:
  - {from: Rx,  action: in,  assign: {x: p}, to: Ry}
  - {from: Ry,  action: in,  assign: {y: p}, to: Cmp}
  - {from: Cmp, action: ok,  guard: "p == y - x && p >= 2", to: End}
  - {from: Cmp, action: nok, guard: "p == y - x && p < 2",  to: End}
  - {from: End, action: end, to: Rx}
`

// guardOf returns the guard of the only transition from l on a to "to".
func guardOf(t *testing.T, m *spec.Model, l, a, to string) expr.Expr {
	t.Helper()
	var found []expr.Expr
	for _, tr := range m.Transitions {
		if tr.From == l && tr.Action == a && tr.To == to {
			found = append(found, tr.Guard)
		}
	}
	if len(found) != 1 {
		return nil
	}
	return found[0]
}

func equivalent(t *testing.T, ctx *solver.Context, m *spec.Model, got expr.Expr, want string, a string) {
	t.Helper()
	w, err := expr.Parse(want, expr.Pos{}, m.ParamScope(m.Action(a)))
	if err != nil {
		t.Fatal(err)
	}
	ok, err := ctx.Equivalent(got, w)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Errorf("guard %s, want (equivalent to) %s", expr.Format(got), want)
	}
}

func TestSuspension(t *testing.T) {
	ctx := newContext(t)
	s := load(t, cmp)
	d, _, err := Suspend(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	// Rx and Ry have no output: always quiescent.
	for _, l := range []string{"Rx", "Ry"} {
		g := guardOf(t, d, l, spec.Delta, l)
		if g == nil || !expr.IsTrue(g) {
			t.Errorf("delta in %s: %v, want true", l, g)
		}
	}
	// In Cmp, ok or nok is always possible (∃p. p == y - x): never quiescent.
	// In End, end is always possible.
	for _, l := range []string{"Cmp", "End"} {
		if g := guardOf(t, d, l, spec.Delta, l); g != nil {
			t.Errorf("delta in %s with guard %s, want none", l, expr.Format(g))
		}
	}
}

func TestSuspensionEliminatesParameters(t *testing.T) {
	ctx := newContext(t)
	s := load(t, `kind: spec
name: q
variables: {n: int}
actions:
  tick: {dir: output, params: {v: int}}
initial: {location: A, condition: n == 0}
transitions:
  - {from: A, action: tick, guard: "v > 0 && v < n", to: A}
`)
	d, _, err := Suspend(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	g := guardOf(t, d, "A", spec.Delta, "A")
	if g == nil {
		t.Fatal("no delta in A")
	}
	expr.Idents(g, func(id *expr.Ident) {
		if id.Kind == expr.ParamIdent {
			t.Errorf("delta guard %s still mentions parameter %s", expr.Format(g), id.Name)
		}
	})
	// ∃v. 0 < v < n  ⟺  n >= 2 over the integers.
	equivalent(t, ctx, d, g, "n < 2", spec.Delta)
}

func TestCanonicalFail(t *testing.T) {
	ctx := newContext(t)
	c, err := Build(ctx, load(t, cmp))
	if err != nil {
		t.Fatal(err)
	}
	if c.Fail != "Fail" || !c.HasLocation("Fail") {
		t.Fatalf("Fail location %q missing", c.Fail)
	}
	tests := []struct{ loc, action, want string }{
		{"Cmp", "ok", "!(p == y - x && p >= 2)"},
		{"Cmp", "nok", "!(p == y - x && p < 2)"},
		{"Cmp", "end", "true"},
		{"Cmp", spec.Delta, "true"},
		{"Rx", "ok", "true"},
		{"End", spec.Delta, "true"},
	}
	for _, tt := range tests {
		g := guardOf(t, c.Model, tt.loc, tt.action, "Fail")
		if g == nil {
			t.Errorf("%s: no Fail transition on %s", tt.loc, tt.action)
			continue
		}
		equivalent(t, ctx, c.Model, g, tt.want, tt.action)
	}
	// Specified quiescence is not a failure.
	if g := guardOf(t, c.Model, "Rx", spec.Delta, "Fail"); g != nil {
		t.Errorf("Rx fails on delta with guard %s", expr.Format(g))
	}
	// Inputs never lead to Fail.
	for _, tr := range c.Transitions {
		if tr.To == "Fail" && c.Action(tr.Action).Dir == spec.Input {
			t.Errorf("input %s leads to Fail", tr.Action)
		}
	}
}

func TestFailNameClash(t *testing.T) {
	ctx := newContext(t)
	src := strings.ReplaceAll(cmp, "End", "Fail")
	c, err := Build(ctx, load(t, src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Fail == "Fail" {
		t.Errorf("the Fail location reuses the spec's location Fail")
	}
}

func TestSuspensionNonLinearIsSound(t *testing.T) {
	ctx := newContext(t)
	s := load(t, `kind: spec
name: sq
variables: {x: int}
actions:
  set: {dir: input, params: {v: int}}
  root: {dir: output, params: {r: int}}
initial: {location: A, condition: x == 0}
transitions:
  - {from: A, action: set, assign: {x: v}, to: B}
  - {from: B, action: root, guard: "r * r == x && r >= 0", to: A}
`)
	c, err := Build(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Approximations) != 1 || !strings.Contains(c.Approximations[0], "quiescence in B is over-approximated") {
		t.Fatalf("approximations %q", c.Approximations)
	}
	// Quiescence is allowed everywhere in B, so never a Fail on delta:
	// the over-approximation keeps the tester sound.
	if g := guardOf(t, c.Model, "B", spec.Delta, "Fail"); g != nil {
		t.Errorf("Fail on delta in B with guard %s", expr.Format(g))
	}
}
