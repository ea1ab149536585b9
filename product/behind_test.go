package product

import (
	"testing"

	"github.com/stg-tool/stg/spec"
)

// TestSpecEdge: the spec transition read from product locations "l,q".
func TestSpecEdge(t *testing.T) {
	m := &spec.Model{Kind: spec.TestcaseKind, Locations: []string{"A,W", "B,W", "Pass", "Fail"},
		Verdicts: spec.Verdicts{Pass: []string{"Pass"}, Fail: []string{"Fail"}}}
	for _, tc := range []struct {
		t    spec.Transition
		want string
	}{
		{spec.Transition{From: "A,W", Action: "in", To: "B,W"}, "A -in-> B"},
		{spec.Transition{From: "B,W", Action: "ok", To: "Pass"}, "B -ok->"},
		{spec.Transition{From: "B,W", Action: "ok", To: "Fail"}, ""},
		{spec.Transition{From: "B,W", Action: spec.Delta, To: "B,W"}, ""},
		{spec.Transition{From: "A", Action: "in", To: "B,W"}, ""},
	} {
		if got := SpecEdge(m, &tc.t); got != tc.want {
			t.Errorf("%s -%s-> %s: %q, want %q", tc.t.From, tc.t.Action, tc.t.To, got, tc.want)
		}
	}
	if !Named(m) {
		t.Error("A,W and B,W: not named as product locations")
	}
	m.Locations = append(m.Locations, "C")
	if Named(m) {
		t.Error("C is no product location")
	}
}
