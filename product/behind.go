package product

import (
	"strings"

	"github.com/stg-tool/stg/spec"
)

// Named reports whether every location of the test case m but its
// verdicts is a product location "l,q" (Location) with one comma, so
// that the spec location l can be read from each name.
func Named(m *spec.Model) bool {
	for _, l := range m.Locations {
		if m.Verdict(l) == "" && strings.Count(l, ",") != 1 {
			return false
		}
	}
	return len(m.Locations) > 0
}

// SpecEdge returns the spec transition behind the transition t of a
// test case m made from a product: "l -a-> l'" read from the product
// locations "l,q" ("l -a->" when t leads to Pass or Inconc, where the
// spec location is not named), or "" for quiescence, for an output into
// Fail (the spec does not allow it) and for a source location that is
// not "l,q".
func SpecEdge(m *spec.Model, t *spec.Transition) string {
	from, _, ok := strings.Cut(t.From, ",")
	if !ok || strings.Count(t.From, ",") != 1 || t.Action == spec.Delta || m.Verdict(t.To) == "fail" {
		return ""
	}
	if m.Verdict(t.To) != "" {
		return from + " -" + t.Action + "->"
	}
	to, _, _ := strings.Cut(t.To, ",")
	return from + " -" + t.Action + "-> " + to
}
