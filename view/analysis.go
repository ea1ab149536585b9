package view

import (
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// noAnalysis is what the panel says of a test case whose file carries
// no analysis: section.
const noAnalysis = "not in this file: generate the test case with stg generate --annotate to see them here"

// analysisOf returns, for a test case, what its analysis: section says
// of each location (the Analysis of spec.Model); nil otherwise.
func analysisOf(m *spec.Model) map[string]*spec.LocationAnalysis {
	if m.Kind != spec.TestcaseKind || m.Analysis == nil {
		return nil
	}
	out := map[string]*spec.LocationAnalysis{}
	for _, la := range m.Analysis.Locations {
		out[la.Location] = la
	}
	return out
}

// locationAnalysis returns the panel's lines of a test case's location l:
// its reach and coreach, or how to get them.
func locationAnalysis(m *spec.Model, an map[string]*spec.LocationAnalysis, l string) []Field {
	if m.Kind != spec.TestcaseKind {
		return nil
	}
	if m.Analysis == nil {
		return []Field{{"reach and coreach", noAnalysis}}
	}
	if la := an[l]; la != nil {
		return []Field{{"reach", expr.Format(la.Reach)}, {"coreach", expr.Format(la.Coreach)}}
	}
	return verdictAnalysis(m, l, "")
}

// edgeAnalysis returns the panel's lines of a test case's transition t:
// the reach of its source and the coreach of its target (with which and
// the guard the transition was selected), or how to get them.
func edgeAnalysis(m *spec.Model, an map[string]*spec.LocationAnalysis, t *spec.Transition) []Field {
	if m.Kind != spec.TestcaseKind {
		return nil
	}
	if m.Analysis == nil {
		return []Field{{"reach and coreach", noAnalysis}}
	}
	var out []Field
	if la := an[t.From]; la != nil {
		out = append(out, Field{"source reach", expr.Format(la.Reach)})
	}
	if la := an[t.To]; la != nil {
		return append(out, Field{"target coreach", expr.Format(la.Coreach)})
	}
	return append(out, verdictAnalysis(m, t.To, "target ")...)
}

// verdictAnalysis says what the analysis means at a location it does
// not list: Pass stands for the purpose's Accept locations.
func verdictAnalysis(m *spec.Model, l, prefix string) []Field {
	switch m.Verdict(l) {
	case "pass":
		return []Field{{prefix + "coreach", "true: Pass stands for the purpose's Accept locations"}}
	case "fail":
		return []Field{{prefix + "coreach", "false: Fail follows an output the spec does not allow"}}
	case "inconc":
		return []Field{{prefix + "coreach", "false: Inconc follows an output allowed but after which Accept cannot be reached"}}
	}
	return []Field{{prefix + "reach and coreach", "not in the file's analysis"}}
}

// analysisInfo is the line of the panel's model section about the
// analysis of a test case: its domain, or how to get it.
func analysisInfo(m *spec.Model) []Field {
	switch {
	case m.Kind != spec.TestcaseKind:
		return nil
	case m.Analysis == nil:
		return []Field{{"reach and coreach", noAnalysis}}
	case m.Analysis.Domain != "":
		return []Field{{"reach and coreach", "over-approximations (domain " + m.Analysis.Domain + ") of each location: click a location or a transition"}}
	}
	return []Field{{"reach and coreach", "over-approximations of each location: click a location or a transition"}}
}
