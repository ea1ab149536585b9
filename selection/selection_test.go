package selection

import (
	"errors"
	"testing"

	"github.com/stg-tool/stg/canonical"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

const lamp = `kind: spec
name: lamp
variables: {n: int}
actions:
  press: {dir: input, params: {k: int}}
  light: {dir: output, params: {level: int}}
initial: {location: Off, condition: n == 0}
transitions:
  - {from: Off, action: press, guard: "k > 0", assign: {n: n + k}, to: On}
  - {from: On, action: light, guard: "level == n", to: Off}
`

const three = `kind: purpose
name: three
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: light, guard: "level == 3", to: A}
`

func setup(t *testing.T, purpose string) (*solver.Context, *product.Product) {
	t.Helper()
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ctx.Close)
	s, err := specfile.ParseModel("lamp.yaml", []byte(lamp), nil)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := specfile.ParseModel("tp.yaml", []byte(purpose), s)
	if err != nil {
		t.Fatal(err)
	}
	can, err := canonical.Build(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := product.Build(ctx, can, tp)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, p
}

func pred(t *testing.T, p *product.Product, src string) expr.Expr {
	t.Helper()
	e, err := expr.Parse(src, expr.Pos{}, p.ParamScope(nil))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestKeepAndInconc(t *testing.T) {
	ctx, p := setup(t, three)
	// A hand-written analysis: Accept needs n <= 3 before a press and
	// n == 3 before a light. (No reach information.)
	a := &coreach.Result{
		Coreach: map[string]expr.Expr{"Off,W": pred(t, p, "n <= 3"), "On,W": pred(t, p, "n == 3")},
		Reach:   map[string]expr.Expr{},
	}
	tc, err := Select(ctx, p, a)
	if err != nil {
		t.Fatal(err)
	}
	if tc.Kind != spec.TestcaseKind || tc.Action("press").Dir != spec.Send || tc.Action("light").Dir != spec.Receive || tc.Action(spec.Delta).Dir != spec.Receive {
		t.Fatalf("actions not mirrored: %+v", tc.Actions)
	}
	byTarget := func(from, action string) map[string]expr.Expr {
		m := map[string]expr.Expr{}
		for _, tr := range tc.Transitions {
			if tr.From == from && tr.Action == action {
				m[tr.To] = tr.Guard
			}
		}
		return m
	}
	equiv := func(got expr.Expr, want string) {
		t.Helper()
		scope := p.ParamScope(p.Action("press"))
		for k, v := range p.ParamScope(p.Action("light")).Params {
			scope.Params[k] = v
		}
		w, err := expr.Parse(want, expr.Pos{}, scope)
		if err != nil {
			t.Fatal(err)
		}
		ok, err := ctx.Equivalent(got, w)
		if err != nil || !ok {
			t.Errorf("guard %v, want %s", got, want)
		}
	}
	// Keep: the press is strengthened with pre(n := n + k)(n == 3).
	press := byTarget("Off,W", "press")
	if g, ok := press["On,W"]; !ok {
		t.Fatalf("press kept nowhere: %v", press)
	} else {
		equiv(g, "k > 0 && n + k == 3")
	}
	if _, ok := press["Inconc"]; ok {
		t.Errorf("a send is never redirected to Inconc")
	}
	// Inconc: a light after which n <= 3 fails goes to Inconc; the one
	// the purpose accepts goes to Pass; unspecified ones to Fail.
	light := byTarget("On,W", "light")
	equiv(light["Pass"], "level == n && level == 3")
	equiv(light["Inconc"], "level == n && level != 3 && n > 3")
	equiv(light["Off,W"], "level == n && level != 3 && n <= 3")
	equiv(light["Fail"], "level != n")
}

func TestUnreachable(t *testing.T) {
	ctx, p := setup(t, three)
	a := &coreach.Result{Coreach: map[string]expr.Expr{"Off,W": pred(t, p, "n > 5")}}
	_, err := Select(ctx, p, a)
	var u *UnreachableError
	if !errors.As(err, &u) || u.Purpose != "three" {
		t.Fatalf("got %v, want UnreachableError for purpose three", err)
	}
}

func TestGraphAnalysisKeepsEverything(t *testing.T) {
	ctx, p := setup(t, three)
	tc, err := Select(ctx, p, coreach.Graph(p))
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range tc.Transitions {
		if tr.To == Inconc {
			t.Errorf("the graph analysis cannot justify Inconc here: %v", tr.Guard)
		}
	}
	if tc.Verdict(Pass) != "pass" || tc.Verdict(Fail) != "fail" || tc.Verdict(Inconc) != "inconc" {
		t.Errorf("verdicts %+v", tc.Verdicts)
	}
}
