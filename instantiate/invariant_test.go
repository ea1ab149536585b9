package instantiate

import (
	"testing"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/spec/expr"
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
