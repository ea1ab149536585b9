package view

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
	"gopkg.in/yaml.v3"
)

// reportOf writes a JSON report of m's coverage in the shape of stg run
// --report-json: t0 taken, t1 reachable, t2 unreachable, the others of
// unknown reach.
func reportOf(m *spec.Model) []byte {
	type tr struct {
		Index  int      `json:"index"`
		Label  string   `json:"label"`
		Taken  int      `json:"taken"`
		Runs   int      `json:"runs"`
		Reach  string   `json:"reach,omitempty"`
		Path   []string `json:"path,omitempty"`
		Source bool     `json:"source_visited,omitempty"`
	}
	var ts []tr
	for i, t := range m.Transitions {
		x := tr{Index: i, Label: t.Label(), Reach: "unknown"}
		switch i {
		case 0:
			x.Taken, x.Runs, x.Reach = 3, 2, ""
		case 1:
			x.Reach, x.Path = "reachable", []string{"a", "b"}
		case 2:
			x.Reach, x.Source = "unreachable", true
		}
		ts = append(ts, x)
	}
	rep := map[string]any{"testcase": m.Name, "runs": 2, "coverage": map[string]any{
		"depth": 8, "steps": 6, "unmatched_steps": 0, "transitions_taken": 1, "transitions_total": len(ts), "transitions": ts}}
	data, _ := json.Marshal(rep)
	return data
}

func TestAddCoverage(t *testing.T) {
	m := loadTC(t)
	g := FromModel(m)
	if err := AddCoverage(g, m, "r.json", reportOf(m)); err != nil {
		t.Fatal(err)
	}
	want := []EdgeCov{
		{Taken: 3, Runs: 2, Class: "taken"},
		{Class: "never", Why: "reachable in 2 steps: a; b"},
		{Class: "unreachable", Why: "UNREACHABLE: no path of at most 8 steps takes it (proved), though the runs were in Ready,Start"},
		{Class: "never", Why: "unknown: the search ran out of budget"},
	}
	for i, w := range want {
		if *g.Edges[i].Cov != w {
			t.Errorf("t%d: %+v, want %+v", i, *g.Edges[i].Cov, w)
		}
	}
	// An edge into Fail never taken stays folded.
	if strings.Contains(DOT(g, true), `id="t2"`) {
		t.Error("t2, into Fail and never taken, is drawn folded")
	}
	if !strings.Contains(DOT(g, false), `label="?frame t2 never" class="tr failedge cov-unreachable"`) {
		t.Errorf("t2 is not marked unreachable in:\n%s", DOT(g, false))
	}
}

func TestAddCoverageErrors(t *testing.T) {
	m := loadTC(t)
	other := strings.Replace(string(reportOf(m)), `"testcase":"retry-stale-ack"`, `"testcase":"other"`, 1)
	relabelled := strings.Replace(string(reportOf(m)), `"label":"Ready,Start -send-\u003e Sending,Start"`, `"label":"x"`, 1)
	for _, c := range []struct{ name, data, want string }{
		{"not json", "{", "not a JSON report"},
		{"no coverage", `{"testcase":"retry-stale-ack"}`, "has no coverage"},
		{"other test case", other, "is of test case other"},
		{"other label", relabelled, "transition 0 is x in the report"},
	} {
		err := AddCoverage(FromModel(m), m, "r.json", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func readTrace(t *testing.T, text string) []specfile.TraceEvent {
	t.Helper()
	evs, err := specfile.ReadTrace("t.jsonl", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestAddTrace replays traces on the retry test case: the edges taken,
// the variables, the failing observation.
func TestAddTrace(t *testing.T) {
	m := loadTC(t)
	for _, c := range []struct {
		name, trace string
		edges       []string
		note        string
	}{
		{"to Fail", `{"dir":"send","action":"send","args":{"data":5}}
{"dir":"receive","action":"frame","args":{"data":5,"seq":0,"attempt":1}}
{"dir":"send","action":"ack","args":{"seq":0}}
{"dir":"receive","action":"report","args":{"status":"failed","attempts":1}}
{"dir":"send","action":"send","args":{"data":6}}`, []string{"t0", "t4", "t8", "t17"}, "failing observation at step 4: ?report(attempts=1, status=failed) — fail"},
		{"wrong values", `{"dir":"send","action":"send","args":{"data":5}}
{"dir":"receive","action":"frame","args":{"data":4,"seq":0,"attempt":1}}`, []string{"t0", "t5"}, "failing observation at step 2: ?frame(attempt=1, data=4, seq=0) — fail"},
		{"no transition", `{"dir":"send","action":"ack","args":{"seq":0}}`, []string{""}, "failing observation at step 1: !ack(seq=0) — no transition from Ready,Start takes it"},
		{"wrong direction", `{"dir":"receive","action":"send","args":{"data":1}}`, []string{""}, "failing observation at step 1: ?send(data=1) — no transition from Ready,Start takes it (send is not a receive here)"},
	} {
		g := FromModel(m)
		AddTrace(g, m, readTrace(t, c.trace))
		var got []string
		for _, s := range g.Steps {
			got = append(got, s.Edge)
		}
		if strings.Join(got, " ") != strings.Join(c.edges, " ") || g.TraceNote != c.note {
			t.Errorf("%s: edges %v, note %q; want %v, %q", c.name, got, g.TraceNote, c.edges, c.note)
		}
	}
	g := FromModel(m)
	AddTrace(g, m, readTrace(t, `{"dir":"send","action":"send","args":{"data":5}}`))
	if s := g.Steps[0]; s.Vars != "d = 5, k = 0, n = 0, s = 0" || s.Node != "n1" {
		t.Errorf("after !send(data=5): %+v", s)
	}
}

// TestTreeAndAbstraction reads the outputs of stg symex --format yaml
// and stg abstract --format yaml.
func TestTreeAndAbstraction(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "jobs-tree.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := ReadTree("jobs-tree.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	g := FromTree("jobs", nodes)
	if len(g.Nodes) != len(nodes) || len(g.Edges) != len(nodes)-1 || !g.TopDown {
		t.Errorf("tree of %d nodes: %d nodes, %d edges", len(nodes), len(g.Nodes), len(g.Edges))
	}
	golden(t, "jobs-tree.dot", DOT(g, true))
	var a Abstraction
	data, err = os.ReadFile(filepath.Join("testdata", "quidonc-fig4.abstraction.yaml"))
	if err == nil {
		err = yaml.Unmarshal(data, &a)
	}
	if err != nil {
		t.Fatal(err)
	}
	g = FromAbstraction(&a)
	if len(g.Nodes) != len(a.States) || len(g.Edges) != len(a.Transitions) {
		t.Errorf("abstraction: %d nodes, %d edges; want %d, %d", len(g.Nodes), len(g.Edges), len(a.States), len(a.Transitions))
	}
	golden(t, "quidonc-fig4.abstraction.dot", DOT(g, true))
	for _, bad := range []string{"", "nodes: 3", "nodes: []", "{"} {
		if _, err := ReadTree("bad.yaml", []byte(bad)); err == nil {
			t.Errorf("ReadTree(%q): no error", bad)
		}
	}
}

// FuzzReadTree: no input makes the tree reader or the page panic.
func FuzzReadTree(f *testing.F) {
	data, _ := os.ReadFile(filepath.Join("testdata", "jobs-tree.yaml"))
	f.Add(data)
	f.Add([]byte(`{"nodes":[{"id":0,"parent":5,"cut_by":["x"]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		nodes, err := ReadTree("f.yaml", data)
		if err != nil {
			return
		}
		_ = DOT(FromTree("f", nodes), true)
	})
}

// FuzzAddCoverage: no report makes AddCoverage panic.
func FuzzAddCoverage(f *testing.F) {
	m, err := specfile.LoadFile(filepath.Join("testdata", "retry-stale-ack.tc.yaml"), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(reportOf(m))
	f.Add([]byte(`{"testcase":"retry-stale-ack","coverage":{"transitions":null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = AddCoverage(FromModel(m), m, "f.json", data)
	})
}

// FuzzAddTrace: no trace makes the replay panic.
func FuzzAddTrace(f *testing.F) {
	m, err := specfile.LoadFile(filepath.Join("testdata", "retry-stale-ack.tc.yaml"), nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`{"dir":"send","action":"send","args":{"data":5}}
{"dir":"receive","action":"frame","args":{"data":5,"seq":0,"attempt":1}}`))
	f.Add([]byte(`{"dir":"receive","action":"report","args":{"status":"nope","attempts":1.5}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := specfile.ReadTrace("f.jsonl", strings.NewReader(string(data)))
		if err != nil {
			return
		}
		g := FromModel(m)
		AddTrace(g, m, evs)
		if len(g.Steps) > len(evs) {
			t.Fatalf("%d steps for %d events", len(g.Steps), len(evs))
		}
	})
}

// TestAddTraceSpec replays a trace on a spec: internal actions followed,
// quiescence shown without an edge, the marks of the SUT's view.
func TestAddTraceSpec(t *testing.T) {
	m, err := specfile.LoadFile(filepath.Join("..", "examples", "jobs", "spec.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	g := FromModel(m)
	AddTrace(g, m, readTrace(t, `{"dir":"send","action":"submit","args":{"n":3}}
{"dir":"receive","action":"result","args":{"r":7,"count":1}}
{"dir":"receive","action":"delta"}
{"dir":"send","action":"submit","args":{"n":4}}
{"dir":"receive","action":"result","args":{"r":8,"count":2}}`))
	var got []string
	for _, s := range g.Steps {
		got = append(got, s.Event+" "+s.Edge+" "+s.Note)
	}
	want := []string{"?submit(n=3) t0 ", "!result(count=1, r=7) t6 ", "!delta  quiescence", "?submit(n=4) t0 ",
		"!result(count=2, r=8)  no transition from Ready takes it"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("steps:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
