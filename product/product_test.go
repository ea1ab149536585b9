package product

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/canonical"
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

func build(t *testing.T, purpose string) (*Product, *solver.Context, error) {
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
	p, err := Build(ctx, can, tp)
	return p, ctx, err
}

// moves lists the product transitions from loc on action as "to [guard]".
func moves(p *Product, loc, action string) []*spec.Transition {
	var r []*spec.Transition
	for _, t := range p.Transitions {
		if t.From == loc && t.Action == action {
			r = append(r, t)
		}
	}
	return r
}

func TestCompletionSelfLoop(t *testing.T) {
	// The purpose only speaks of light with level 3: a press, and a light
	// of another level, leave it where it is.
	p, ctx, err := build(t, `kind: purpose
name: three
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: light, guard: "level == 3", to: A}
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := moves(p, "Off,W", "press"); len(got) != 1 || got[0].To != "On,W" {
		t.Fatalf("press from Off,W: %v", got)
	}
	light := moves(p, "On,W", "light")
	targets := map[string]expr.Expr{}
	for _, tr := range light {
		targets[tr.To] = tr.Guard
	}
	if _, ok := targets["On,A"]; ok {
		t.Errorf("light should lead to Off,A, not On,A")
	}
	acc, stay, fail := targets["Off,A"], targets["Off,W"], targets["Fail"]
	if acc == nil || stay == nil || fail == nil {
		t.Fatalf("light from On,W goes to %v, want Off,A, Off,W and Fail", targets)
	}
	// The self-loop takes exactly the specified lights of another level.
	scope := p.ParamScope(p.Action("light"))
	want, _ := expr.Parse("level == n && level != 3", expr.Pos{}, scope)
	if ok, err := ctx.Equivalent(stay, want); err != nil || !ok {
		t.Errorf("self-loop guard %s, want %s (%v)", expr.Format(stay), expr.Format(want), err)
	}
	if !p.Accept["Off,A"] || p.Accept["Off,W"] {
		t.Errorf("accept set %v", p.Accept)
	}
	if len(moves(p, "Off,A", "press")) != 0 {
		t.Errorf("Accept locations must be traps")
	}
}

func TestOtherwise(t *testing.T) {
	// "*" takes whatever the explicit transitions do not match,
	// semantically: a light of level 3 goes to A, any other action or
	// level to Sink; purpose variables are assigned.
	p, ctx, err := build(t, `kind: purpose
name: star
variables: {seen: int}
initial: {location: W, condition: seen == 0}
accept: [A]
transitions:
  - {from: W, action: press, guard: "k == 1", to: W}
  - {from: W, action: light, guard: "level == 3", assign: {seen: seen + 1}, to: A}
  - {from: W, action: "*", to: Sink}
`)
	if err != nil {
		t.Fatal(err)
	}
	press := map[string]bool{}
	for _, tr := range moves(p, "Off,W", "press") {
		press[tr.To] = true
	}
	if !press["On,W"] || !press["On,Sink"] || len(press) != 2 {
		t.Errorf("press from Off,W should go to On,W (k == 1) and On,Sink (otherwise): %v", press)
	}
	var toA, toSink *spec.Transition
	for _, tr := range moves(p, "On,W", "light") {
		switch tr.To {
		case "Off,A":
			toA = tr
		case "Off,Sink":
			toSink = tr
		case "Off,W":
			t.Errorf("no implicit self-loop expected with a * transition")
		}
	}
	if toA == nil || toSink == nil {
		t.Fatal("missing light transitions to Off,A and Off,Sink")
	}
	if len(toA.Assign) != 1 || toA.Assign[0].Var != "seen" {
		t.Errorf("purpose assignment lost: %v", toA.Assign)
	}
	r, err := ctx.Sat(expr.AndOf(toA.Guard, toSink.Guard))
	if err != nil || r != solver.Unsat {
		t.Errorf("Accept and Sink overlap: %s / %s", expr.Format(toA.Guard), expr.Format(toSink.Guard))
	}
	if !strings.Contains(expr.Format(p.Initial.Condition), "seen == 0") {
		t.Errorf("initial condition %s lacks the purpose's", expr.Format(p.Initial.Condition))
	}
}

func TestDeltaInPurpose(t *testing.T) {
	p, _, err := build(t, `kind: purpose
name: quiet
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: delta, to: A}
`)
	if err != nil {
		t.Fatal(err)
	}
	got := moves(p, "Off,W", spec.Delta)
	if len(got) != 1 || got[0].To != "Off,A" {
		t.Errorf("delta from Off,W: %v", got)
	}
}

func TestNonDeterministicPurpose(t *testing.T) {
	_, _, err := build(t, `kind: purpose
name: overlap
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: light, guard: "level > 1", to: A}
  - {from: W, action: light, guard: "level < 5", to: B}
`)
	if err == nil || !strings.Contains(err.Error(), "non-deterministic") || !strings.Contains(err.Error(), "tp.yaml:8:5") {
		t.Fatalf("got %v, want a positioned non-determinism error", err)
	}
}
