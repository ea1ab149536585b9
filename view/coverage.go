package view

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stg-tool/stg/spec"
)

// report is the part of stg run's JSON report (--report-json) a page
// reads: the test case's name and the "coverage" object.
type report struct {
	Testcase string `json:"testcase"`
	Runs     int    `json:"runs"`
	Coverage *struct {
		Depth     int `json:"depth"`
		Steps     int `json:"steps"`
		Unmatched int `json:"unmatched_steps"`
		Taken     int `json:"transitions_taken"`
		Total     int `json:"transitions_total"`
		Trans     []struct {
			Index         int      `json:"index"`
			Label         string   `json:"label"`
			Taken         int      `json:"taken"`
			Runs          int      `json:"runs"`
			Reach         string   `json:"reach"`
			Path          []string `json:"path"`
			SourceVisited bool     `json:"source_visited"`
		} `json:"transitions"`
	} `json:"coverage"`
}

// AddCoverage reads a JSON report of stg run (--report-json, or a merge
// of shards) into g, the graph of the test case m: each edge's count,
// and for those never taken what the report's search found (unreachable
// within its depth, reachable by a witness path, or unknown). name is
// the report's file, for messages.
func AddCoverage(g *Graph, m *spec.Model, name string, data []byte) error {
	var rep report
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("%s: not a JSON report of stg run --report-json: %v", name, err)
	}
	c := rep.Coverage
	switch {
	case m.Kind != spec.TestcaseKind:
		return fmt.Errorf("--coverage is of a test case, not of a %s", m.Kind)
	case c == nil:
		return fmt.Errorf("%s: the report has no coverage (stg run writes it with --report-json)", name)
	case rep.Testcase != m.Name || len(c.Trans) != len(m.Transitions) || len(g.Edges) != len(m.Transitions):
		return fmt.Errorf("%s: the report is of test case %s (%d transitions), not of %s (%d)", name, rep.Testcase, len(c.Trans), m.Name, len(m.Transitions))
	}
	for i, t := range m.Transitions {
		jt := c.Trans[i]
		if jt.Label != t.Label() {
			return fmt.Errorf("%s: transition %d is %s in the report, %s in the test case", name, i, jt.Label, t.Label())
		}
		ec := &EdgeCov{Taken: jt.Taken, Runs: jt.Runs, Class: "taken"}
		if jt.Taken == 0 {
			ec.Class, ec.Why = "never", never(jt.Reach, jt.Path, jt.SourceVisited, t.From, c.Depth)
			if jt.Reach == "unreachable" {
				ec.Class = "unreachable"
			}
		}
		g.Edges[i].Cov = ec
	}
	g.Coverage = fmt.Sprintf("%d of %d transitions taken in %d runs, %d steps (%d by no transition); never-taken ones searched within depth %d",
		c.Taken, c.Total, rep.Runs, c.Steps, c.Unmatched, c.Depth)
	return nil
}

// never explains why a transition was never taken, as stg run's
// coverage table says it.
func never(reach string, path []string, visited bool, from string, depth int) string {
	switch reach {
	case "unreachable":
		s := fmt.Sprintf("UNREACHABLE: no path of at most %d steps takes it (proved)", depth)
		if visited {
			s += ", though the runs were in " + from
		}
		return s
	case "reachable":
		return fmt.Sprintf("reachable in %d steps: %s", len(path), strings.Join(path, "; "))
	}
	return "unknown: the search ran out of budget"
}
