package canonical

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// tauSpec is a spec with the actions go?(p), ok!(r), nok!(r), end!,
// step (internal) and pick(q) (internal, with a parameter), and the
// transitions given.
func tauSpec(t *testing.T, transitions string) *spec.Model {
	t.Helper()
	return load(t, `kind: spec
name: tau
variables: {x: int}
actions:
  go: {dir: input, params: {p: int}}
  ok: {dir: output, params: {r: int}}
  nok: {dir: output, params: {r: int}}
  end: {dir: output}
  step: {dir: internal}
  pick: {dir: internal, params: {q: int}}
initial: {location: A, condition: x == 0}
transitions:
  - {from: A, action: go, assign: {x: p}, to: B}
`+transitions)
}

// wantGuard checks that the disjunction of the guards of the transitions
// l -a-> to of m is equivalent to src ("false" when there is none).
func wantGuard(t *testing.T, m *spec.Model, l, a, to, src string) {
	t.Helper()
	ctx := newContext(t)
	scope := m.ParamScope(m.Action(a))
	w, err := expr.Parse(src, expr.Pos{}, scope)
	if err != nil {
		t.Fatal(err)
	}
	var gs []expr.Expr
	for _, tr := range m.Transitions {
		if tr.From == l && tr.Action == a && tr.To == to {
			gs = append(gs, tr.Guard)
		}
	}
	g := expr.OrOf(gs...)
	ok, err := ctx.Equivalent(g, w)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Errorf("%s -%s-> %s: guard %s, want %s", l, a, to, expr.Format(g), src)
	}
}

func build(t *testing.T, s *spec.Model) *Tester {
	t.Helper()
	return buildKnown(t, s, expr.True())
}

// buildKnown is build with BuildKnown.
func buildKnown(t *testing.T, s *spec.Model, known expr.Expr) *Tester {
	t.Helper()
	c, err := BuildKnown(newContext(t), s, known)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range c.Transitions {
		if a := c.Action(tr.Action); a == nil || a.Dir == spec.Internal {
			t.Errorf("closed tester has transition %s on %s", tr.Label(), tr.Action)
		}
	}
	return c
}

// An output reachable only after τ: no quiescence before it, and the
// τ's assignment is composed into the output's guard and assignment.
func TestTauOutputAfterStep(t *testing.T) {
	c := build(t, tauSpec(t, `
  - {from: B, action: step, assign: {x: x + 1}, to: C}
  - {from: C, action: ok, guard: r == x, to: A}
`))
	wantGuard(t, c.Model, "B", "ok", "A", "r == x + 1")
	wantGuard(t, c.Model, "B", "ok", c.Fail, "r != x + 1")
	wantGuard(t, c.Model, "B", spec.Delta, "B", "false")
	wantGuard(t, c.Model, "B", spec.Delta, c.Fail, "true")
	wantGuard(t, c.Model, "A", spec.Delta, "A", "true")
	for _, tr := range c.Outgoing("B") {
		if tr.Action == "ok" && tr.To == "A" {
			if len(tr.Assign) != 1 || expr.Format(tr.Assign[0].Value) != "x + 1" {
				t.Errorf("assignment %v, want x := x + 1", tr.Assign)
			}
		}
	}
}

// A τ choosing between two outputs: both allowed, no quiescence; a
// guarded τ restricts each.
func TestTauChoiceBetweenOutputs(t *testing.T) {
	c := build(t, tauSpec(t, `
  - {from: B, action: step, guard: x > 0, to: C1}
  - {from: B, action: step, guard: x <= 5, to: C2}
  - {from: C1, action: ok, guard: r == x, to: A}
  - {from: C2, action: nok, guard: r == x, to: A}
`))
	wantGuard(t, c.Model, "B", "ok", "A", "x > 0 && r == x")
	wantGuard(t, c.Model, "B", "nok", "A", "x <= 5 && r == x")
	wantGuard(t, c.Model, "B", spec.Delta, "B", "false")
	wantGuard(t, c.Model, "B", "end", c.Fail, "true")
}

// A τ choosing between a quiescent branch and an output: both δ and the
// output are allowed (Def. 5: δ after a run ending in a state with no
// τ*·output continuation). After δ the tester is in quiet(B): the SUT
// took the quiet branch, so every output fails there, and the inputs
// are those of the quiet branch only.
func TestTauChoiceQuiescentBranch(t *testing.T) {
	c := build(t, tauSpec(t, `
  - {from: B, action: step, to: C}
  - {from: B, action: step, guard: x > 3, to: D}
  - {from: C, action: ok, guard: r == x, to: A}
  - {from: C, action: go, guard: p == 1, to: A}
  - {from: D, action: go, guard: p == 2, assign: {x: p}, to: A}
`))
	wantGuard(t, c.Model, "B", "ok", "A", "r == x")
	wantGuard(t, c.Model, "B", "go", "A", "p == 1 || x > 3 && p == 2")
	wantGuard(t, c.Model, "B", spec.Delta, "quiet(B)", "x > 3")
	wantGuard(t, c.Model, "B", spec.Delta, c.Fail, "x <= 3")
	wantGuard(t, c.Model, "quiet(B)", spec.Delta, "quiet(B)", "x > 3")
	wantGuard(t, c.Model, "quiet(B)", "ok", c.Fail, "true")
	wantGuard(t, c.Model, "quiet(B)", "nok", c.Fail, "true")
	wantGuard(t, c.Model, "quiet(B)", "go", "A", "x > 3 && p == 2")
	if c.Quiet["quiet(B)"] != "B" {
		t.Errorf("Quiet = %v, want quiet(B) -> B", c.Quiet)
	}
}

// A τ-cycle that changes no variable is closed exactly.
func TestTauCycleWithoutAssignment(t *testing.T) {
	c := build(t, tauSpec(t, `
  - {from: B, action: step, guard: x < 10, to: C}
  - {from: C, action: step, to: B}
  - {from: C, action: ok, guard: r == x, to: A}
  - {from: B, action: nok, guard: r == x && x >= 10, to: A}
`))
	wantGuard(t, c.Model, "B", "ok", "A", "x < 10 && r == x")
	wantGuard(t, c.Model, "B", "nok", "A", "x >= 10 && r == x")
	wantGuard(t, c.Model, "C", "ok", "A", "r == x")
	wantGuard(t, c.Model, "C", "nok", "A", "x >= 10 && r == x")
	wantGuard(t, c.Model, "B", spec.Delta, "B", "false")
}

// A τ-cycle that changes a variable is refused, naming the cycle.
func TestTauCycleWithAssignmentRefused(t *testing.T) {
	_, err := Build(newContext(t), tauSpec(t, `
  - {from: B, action: step, guard: x < 10, assign: {x: x + 1}, to: C}
  - {from: C, action: step, to: B}
  - {from: C, action: ok, guard: r == x, to: A}
`))
	if err == nil {
		t.Fatal("a τ-cycle changing x was accepted")
	}
	for _, want := range []string{"s.yaml:15:5", "transition B -step-> C changes variables on the cycle", "[C -step-> B; B -step-> C]", "still feasible after 32 internal steps"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// Two τ-routes to the same output with different effects: refused.
func TestTauNonDeterministicClosureRefused(t *testing.T) {
	_, err := Build(newContext(t), tauSpec(t, `
  - {from: B, action: step, to: C}
  - {from: B, action: step, assign: {x: 0}, to: D}
  - {from: C, action: end, to: A}
  - {from: D, action: end, to: A}
`))
	if err == nil {
		t.Fatal("a non-deterministic closure was accepted")
	}
	for _, want := range []string{"s.yaml:16:5", "τ-path [B -step-> C] then transition C -end-> A (line 17)", "τ-path [B -step-> D] then", "different effects"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// Two τ-routes to the same place with the same effect (a diamond), and an
// output possible both before and after a τ that changes nothing: merged.
func TestTauSameEffectMerged(t *testing.T) {
	c := build(t, tauSpec(t, `
  - {from: B, action: step, guard: x > 0, to: C}
  - {from: B, action: step, guard: x < 5, to: D}
  - {from: C, action: step, to: E}
  - {from: D, action: step, to: E}
  - {from: E, action: ok, guard: r == x, to: A}
  - {from: B, action: ok, guard: r == x && x == 7, to: A}
`))
	wantGuard(t, c.Model, "B", "ok", "A", "r == x")
	wantGuard(t, c.Model, "B", spec.Delta, "B", "false")
}

// Parameters of internal actions are eliminated from guards.
func TestTauParameterEliminated(t *testing.T) {
	c := build(t, tauSpec(t, `
  - {from: B, action: pick, guard: q > x && q < 2 * x, to: C}
  - {from: C, action: ok, guard: r == x, to: A}
`))
	wantGuard(t, c.Model, "B", "ok", "A", "r == x && x >= 2")
	wantGuard(t, c.Model, "B", spec.Delta, "quiet(B)", "x < 2")
}

// A variable that gets an internal parameter's value gets an unknown of
// the closure (h_q_1), constrained by the guard of the τ-step.
func TestTauParameterAssignedUnknown(t *testing.T) {
	c := build(t, tauSpec(t, `
  - {from: B, action: pick, guard: q > 0, assign: {x: q}, to: C}
  - {from: C, action: ok, guard: r == x, to: A}
`))
	if len(c.Hidden) != 1 || c.Hidden[0] != "h_q_1" || c.Variable("h_q_1") == nil {
		t.Fatalf("unknowns %v, want [h_q_1] declared", c.Hidden)
	}
	wantGuard(t, c.Model, "B", "ok", "A", "r == h_q_1 && h_q_1 > 0")
	// quiescence is the SUT's: no hidden value makes B quiet
	wantGuard(t, c.Model, "B", spec.Delta, "quiet(B)", "false")
}

// The initial location's τ steps are closed too.
func TestTauFromInitial(t *testing.T) {
	c := build(t, load(t, `kind: spec
name: boot
variables: {x: int}
actions:
  ready: {dir: output, params: {r: int}}
  boot: {dir: internal}
initial: {location: Off, condition: x == 0}
transitions:
  - {from: Off, action: boot, assign: {x: 3}, to: On}
  - {from: On, action: ready, guard: r == x, to: Idle}
`))
	wantGuard(t, c.Model, "Off", "ready", "Idle", "r == 3")
	wantGuard(t, c.Model, "Off", spec.Delta, "Off", "false")
	wantGuard(t, c.Model, "Idle", spec.Delta, "Idle", "true")
}

// A parameter of an internal action that its guard defines (as in a
// hidden output) is substituted: its value may be assigned.
func TestTauParameterDefined(t *testing.T) {
	c := build(t, tauSpec(t, `
  - {from: B, action: pick, guard: q == x + 2 && x > 0, assign: {x: q}, to: C}
  - {from: C, action: ok, guard: r == x, to: A}
`))
	wantGuard(t, c.Model, "B", "ok", "A", "x > 0 && r == x + 2")
	for _, tr := range c.Outgoing("B") {
		if tr.Action == "ok" && tr.To == "A" {
			if len(tr.Assign) != 1 || expr.Format(tr.Assign[0].Value) != "x + 2" {
				t.Errorf("assignment %v, want x := x + 2", tr.Assign)
			}
		}
	}
}

// A dense τ-graph is refused past MaxTauPaths, with a position.
func TestTauTooManyPaths(t *testing.T) {
	var b strings.Builder
	b.WriteString("kind: spec\nname: dense\nvariables: {x: int}\nactions:\n  out: {dir: output}\n  t: {dir: internal}\ninitial: {location: L0, condition: x == 0}\ntransitions:\n")
	for i := 0; i < 9; i++ {
		for j := 0; j < 9; j++ {
			if i != j {
				fmt.Fprintf(&b, "  - {from: L%d, action: t, guard: x < %d, to: L%d}\n", i, i+j, j)
			}
		}
	}
	b.WriteString("  - {from: L3, action: out, to: L0}\n")
	_, err := Build(newContext(t), load(t, b.String()))
	if err == nil || !strings.Contains(err.Error(), "s.yaml:") || !strings.Contains(err.Error(), "more than 4096 paths of internal transitions") {
		t.Fatalf("got %v, want the closure refused as too large", err)
	}
}

// A τ-cycle that changes a variable is unrolled while its guards allow:
// bounded by a range, or by an invariant, known to hold (BuildKnown), the
// closure is exact. Not known (Build: a claim not proved is never
// assumed), the cycle is unbounded from the states n < 0 and refused.
func TestTauCycleBoundedByRange(t *testing.T) {
	for _, decl := range []string{
		"variables: {n: {type: int, range: [0, 3]}}",
		"variables: {n: int}\ninvariant: n >= 0 && n <= 3",
	} {
		s := load(t, `kind: spec
name: retry
`+decl+`
actions:
  go: {dir: input}
  out: {dir: output, params: {v: int}}
  try: {dir: internal}
  stop: {dir: internal}
initial: {location: Idle, condition: n == 0}
transitions:
  - {from: Idle, action: go, assign: {n: 0}, to: Try}
  - {from: Try, action: try, guard: n < 3, assign: {n: n + 1}, to: Try}
  - {from: Try, action: stop, guard: n >= 3, to: Done}
  - {from: Done, action: out, guard: v == n, to: Idle}
`)
		if _, err := Build(newContext(t), s); err == nil || !strings.Contains(err.Error(), "still feasible after 32 internal steps") {
			t.Errorf("%s: closure without the claim known: got %v, want the cycle refused", decl, err)
		}
		known := s.RangeConstraint()
		if s.Invariant != nil {
			known = expr.AndOf(known, s.Invariant)
		}
		c := buildKnown(t, s, known)
		wantGuard(t, c.Model, "Try", "out", "Idle", "v == 3 && n >= 0 && n <= 3 || v == n && n > 3")
		wantGuard(t, c.Model, "Try", spec.Delta, "Try", "false")
	}
	// Without a bound, the same cycle is refused.
	_, err := Build(newContext(t), load(t, `kind: spec
name: retry
variables: {n: int}
actions:
  go: {dir: input}
  out: {dir: output, params: {v: int}}
  try: {dir: internal}
  stop: {dir: internal}
initial: {location: Idle, condition: n == 0}
transitions:
  - {from: Idle, action: go, assign: {n: 0}, to: Try}
  - {from: Try, action: try, guard: n < 3, assign: {n: n + 1}, to: Try}
  - {from: Try, action: stop, guard: n >= 3, to: Done}
  - {from: Done, action: out, guard: v == n, to: Idle}
`))
	if err == nil || !strings.Contains(err.Error(), "s.yaml:12:5: transition Try -try-> Try changes variables on the cycle of internal transitions [Try -try-> Try], which is still feasible after 32 internal steps from Try") {
		t.Fatalf("got %v, want the unbounded cycle refused", err)
	}
}
