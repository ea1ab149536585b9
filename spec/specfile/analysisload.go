package specfile

import (
	"io"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
)

// analysis reads the analysis: section of test case m, whose locations
// are all read.
func (l *loader) analysis(m *spec.Model, n *yaml.Node) {
	a := &spec.Analysis{}
	for _, kv := range l.mapping(n, "analysis", []string{"domain", "locations"}) {
		switch kv[0].Value {
		case "domain":
			if s, ok := l.scalar(kv[1], "analysis domain"); ok {
				a.Domain = s
				if s != "none" && s != "interval" && s != "polyhedra" {
					l.errorf(kv[1], "unknown analysis domain %q: want none, interval or polyhedra", s)
				}
			}
		case "locations":
			a.Locations = l.analysisLocations(m, kv[1])
		}
	}
	m.Analysis = a
}

func (l *loader) analysisLocations(m *spec.Model, n *yaml.Node) []*spec.LocationAnalysis {
	var out []*spec.LocationAnalysis
	locs := stringSet(m.Locations)
	for _, kv := range l.mapping(n, "analysis locations", nil) {
		loc, ok := l.location(kv[0])
		if !ok {
			continue
		}
		if !locs[loc] {
			l.errorf(kv[0], "analysis of %s, which is not a location of the test case", loc)
			continue
		}
		la := &spec.LocationAnalysis{Location: loc, Pos: l.pos(kv[0])}
		pairs := l.mapping(kv[1], "the analysis of "+loc, []string{"reach", "coreach"})
		for _, c := range pairs {
			e := l.predicate(c[1], m.ParamScope(nil), c[0].Value+" of "+loc)
			if c[0].Value == "reach" {
				la.Reach = e
			} else {
				la.Coreach = e
			}
		}
		if len(pairs) < 2 && kv[1].Kind == yaml.MappingNode {
			l.errorf(kv[1], "the analysis of %s needs reach and coreach", loc)
		}
		if la.Reach == nil || la.Coreach == nil {
			continue
		}
		out = append(out, la)
	}
	return out
}

// analysisNode returns the analysis: section of m, or nil when m has
// none. Only the locations of m are written, so that a tool that drops
// locations writes a file that reads back.
func analysisNode(m *spec.Model) *yaml.Node {
	a := m.Analysis
	if a == nil || m.Kind != spec.TestcaseKind {
		return nil
	}
	root := block()
	if a.Domain != "" {
		root.Content = append(root.Content, str("domain"), str(a.Domain))
	}
	locs, in := block(), stringSet(m.Locations)
	for _, la := range a.Locations {
		if in[la.Location] {
			locs.Content = append(locs.Content, str(la.Location), flow("reach", exprScalar(la.Reach), "coreach", exprScalar(la.Coreach)))
		}
	}
	root.Content = append(root.Content, str("locations"), locs)
	return root
}

// writeAnalysis writes m's analysis: section after its transitions.
func writeAnalysis(w io.Writer, m *spec.Model) error {
	n := analysisNode(m)
	if n == nil {
		return nil
	}
	return encodeYAML(w, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("analysis"), n}})
}

func stringSet(xs []string) map[string]bool {
	set := make(map[string]bool, len(xs))
	for _, x := range xs {
		set[x] = true
	}
	return set
}
