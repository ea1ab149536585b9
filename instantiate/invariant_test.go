package instantiate

import (
	"testing"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// TestInvariantSettlesUnreachable: on the token bucket, the abstraction
// keeps states no execution reaches (mode closed away from Closed,
// tokens outside [0, cap]). The location invariant proves every
// transition from them infeasible, so nothing is left undecided, and a
// breadth-first search of the concrete executions (up to the bound)
// agrees: it traverses exactly the covered transitions.
func TestInvariantSettlesUnreachable(t *testing.T) {
	ctx := newContext(t)
	s, tp := load(t, "testdata/bucket.yaml", "testdata/bucket-purpose.yaml")
	su, err := Generate(ctx, s, tp, Options{Reflexive: 1, Bound: 10})
	if err != nil {
		t.Fatal(err)
	}
	c := su.Coverage
	if len(c.Undecided) != 0 || len(c.Infeasible) == 0 || len(c.Covered)+len(c.Infeasible) != len(su.SP.Transitions) {
		t.Fatalf("coverage: %d covered, %d infeasible, %d undecided of %d\n%s", len(c.Covered), len(c.Infeasible), len(c.Undecided), len(su.SP.Transitions), su.Report())
	}
	anim, err := NewAnimator(ctx, su.SPPrime, 1)
	if err != nil {
		t.Fatal(err)
	}
	seen := bruteTraversed(t, anim, su.SPPrime, c.Bound)
	covered := map[*predabs.ProductTransition]bool{}
	for _, tr := range c.Covered {
		covered[tr] = true
	}
	for _, tr := range su.SP.Transitions {
		if seen[keyOf(tr)] != covered[tr] {
			t.Errorf("%s -%s-> %s: covered %v, traversed by the search %v", tr.From.Name(), tr.Action, tr.To.Name(), covered[tr], seen[keyOf(tr)])
		}
	}
	t.Logf("%d transitions: %d covered, %d proved infeasible", len(su.SP.Transitions), len(c.Covered), len(c.Infeasible))
}

// TestEnumValues: the values an enumerated variable may hold per
// location, from the initial condition and the assignments.
func TestEnumValues(t *testing.T) {
	s, _ := load(t, "testdata/bucket.yaml", "testdata/bucket-purpose.yaml")
	got := enumValues(s)
	want := map[string]string{
		"Init": "mode == open", "Ack": "mode == open", "Idle": "mode == open", "Granting": "mode == open",
		"Denying": "mode == open", "Closed": "mode == closed", "Denying2": "mode == closed",
	}
	for l, w := range want {
		if g, ok := got[l]; !ok || expr.Format(g) != w {
			t.Errorf("%s: %v, want %s", l, got[l], w)
		}
	}
}

// TestBoundParams: a linear purpose fixes every value sent, and only
// the output values that can change where the spec goes next: read by
// an assignment, or choosing between transitions of the same action.
func TestBoundParams(t *testing.T) {
	bucket, _ := load(t, "testdata/bucket.yaml", "testdata/bucket-purpose.yaml")
	account, _ := load(t, "../examples/account/spec.yaml", "../examples/account/purpose-limit.yaml")
	echo, err := specfile.ParseModel("echo.yaml", []byte(`kind: spec
name: echo
variables: {last: int}
actions:
  in: {dir: input}
  out: {dir: output, params: {v: int}}
initial: {location: A, condition: "last == 0"}
transitions:
  - {from: A, action: in, to: B}
  - {from: B, action: out, guard: "v >= last", assign: {last: v}, to: A}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	named := func(s *spec.Model, from, action string) *spec.Transition {
		for _, tr := range s.Transitions {
			if tr.From == from && tr.Action == action {
				return tr
			}
		}
		t.Fatalf("no %s from %s", action, from)
		return nil
	}
	for _, c := range []struct {
		s            *spec.Model
		from, action string
		input        bool
		param        string
		want         bool
	}{
		{bucket, "Idle", "req", true, "n", true},            // sent
		{bucket, "Granting", "grant", false, "n", false},    // any n leads to the same state
		{bucket, "Granting", "grant", false, "left", false}, // left == tokens: the spec checks it
		{account, "Open", "refuse", false, "reason", true},  // two refuse transitions leave Open
		{account, "Open", "pay", false, "amount", false},    // amount == pend: the state reads pend
		{echo, "B", "out", false, "v", true},                // last := v
	} {
		st := Step{Transition: named(c.s, c.from, c.action), Input: c.input}
		if got := bound(c.s, st, c.param); got != c.want {
			t.Errorf("%s %s -%s-> %s: bound = %v, want %v", c.s.Name, c.from, c.action, c.param, got, c.want)
		}
	}
}
