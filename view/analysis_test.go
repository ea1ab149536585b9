package view

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

func field(fs []Field, name string) (string, bool) {
	for _, f := range fs {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// TestAnalysisDetails: a test case written by stg generate --annotate
// shows each location's reach and coreach, and each transition its
// source's reach, its guard and its target's coreach.
func TestAnalysisDetails(t *testing.T) {
	m, err := specfile.LoadFile(filepath.Join("testdata", "cmp-annotated.tc.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	g := FromModel(m)
	for i, l := range m.Locations {
		reach, hasReach := field(g.Nodes[i].Details, "reach")
		coreach, _ := field(g.Nodes[i].Details, "coreach")
		la := m.Analysis.Of(l)
		switch {
		case la != nil && (reach != expr.Format(la.Reach) || coreach != expr.Format(la.Coreach)):
			t.Errorf("%s: reach %q, coreach %q; want those of the file", l, reach, coreach)
		case la == nil && (hasReach || !strings.HasPrefix(coreach, map[string]string{"pass": "true", "fail": "false", "inconc": "false"}[m.Verdict(l)])):
			t.Errorf("verdict %s: reach %q, coreach %q", l, reach, coreach)
		}
	}
	if v, _ := field(g.Info, "reach and coreach"); !strings.Contains(v, "domain polyhedra") {
		t.Errorf("the model's panel says %q of the analysis", v)
	}
	if r, _ := field(g.Nodes[1].Details, "reach"); r != "y == 0 && x >= 3" {
		t.Errorf("Ry,Wait: reach %q", r)
	}
	want := []struct{ edge, reach, guard, coreach string }{
		{"t5", "y == 0 && x >= 3", "p == x + 2", "x == y - 2 && x >= 3"},
		{"t10", "x == y - 2 && x >= 3", "p == y - x && p == 2 && x >= 3", "true: Pass stands for the purpose's Accept locations"},
		{"t11", "x == y - 2 && x >= 3", "p == y - x && p >= 2 && (p != 2 || x < 3)", "false: Inconc follows"},
	}
	for _, w := range want {
		var e *Edge
		for _, x := range g.Edges {
			if x.ID == w.edge {
				e = x
			}
		}
		reach, _ := field(e.Details, "source reach")
		guard, _ := field(e.Details, "guard")
		coreach, _ := field(e.Details, "target coreach")
		if reach != w.reach || guard != w.guard || !strings.HasPrefix(coreach, w.coreach) {
			t.Errorf("%s: source reach %q, guard %q, target coreach %q; want %+v", w.edge, reach, guard, coreach, w)
		}
	}
}

// TestNoAnalysisDetails: without the section, the panel of a location
// and of a transition says how to get it; other files say nothing.
func TestNoAnalysisDetails(t *testing.T) {
	g := FromModel(loadTC(t))
	for _, fs := range [][]Field{g.Nodes[0].Details, g.Edges[0].Details, g.Info} {
		if v, _ := field(fs, "reach and coreach"); !strings.Contains(v, "stg generate --annotate") {
			t.Errorf("details %v do not say how to get reach and coreach", fs)
		}
	}
	s, err := specfile.ParseModel("s.yaml", []byte("kind: spec\nname: s\nvariables: {}\nactions: {a: {dir: input}}\ninitial: {location: A}\ntransitions: [{from: A, action: a, to: A}]\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	g = FromModel(s)
	for _, fs := range [][]Field{g.Nodes[0].Details, g.Edges[0].Details, g.Info} {
		for _, f := range fs {
			if strings.Contains(f.Name, "reach") {
				t.Errorf("a spec's details have %v", f)
			}
		}
	}
}
