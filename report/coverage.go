package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
)

// Coverage of a campaign (stg run --runs N): which transitions of the
// test case the runs took and how often, which never, with the spec
// transition behind each (the spec's transition name, which a generated
// test case keeps), and for each one never taken whether a path of at
// most --depth steps takes it (runner.Runner.Prove). It is printed after
// the summary, written in --report-json ("coverage") and as properties
// of the JUnit report; stg dot TESTCASE --coverage REPORT draws it.

// Coverage is the "coverage" object of a JSON report.
type Coverage struct {
	Depth     int          `json:"depth"`           // the bound of the reachability search
	Steps     int          `json:"steps"`           // the steps of all runs
	Unmatched int          `json:"unmatched_steps"` // steps that took no transition (unspecified outputs)
	Taken     int          `json:"transitions_taken"`
	Total     int          `json:"transitions_total"`
	Trans     []Transition `json:"transitions"` // in the order of the test case
}

// Transition is the coverage of one transition of the test case.
type Transition struct {
	Index  int    `json:"index"` // in the test case's transitions, from 0
	Label  string `json:"label"`
	From   string `json:"from"`
	Action string `json:"action"`
	To     string `json:"to"`
	Spec   string `json:"spec,omitempty"` // the spec transition's name, when it has one
	// SpecEdge is the spec transition behind it as "l -a-> l'", read
	// from the product locations "l,q" when every name splits at one
	// comma (the usual naming; absent otherwise, and for outputs the
	// spec does not allow, which lead to Fail).
	SpecEdge string `json:"spec_edge,omitempty"`
	Taken    int    `json:"taken"` // times, over all runs
	Runs     int    `json:"runs"`  // runs that took it
	// For a transition never taken: reachable (with a witness path),
	// unreachable (proved: no path of at most depth steps) or unknown.
	Reach string   `json:"reach,omitempty"`
	Path  []string `json:"path,omitempty"`
	// SourceVisited: never taken, but the runs were in its source
	// location (for an unreachable one: its guard never held there
	// within depth steps, or the runs got there by longer paths).
	SourceVisited bool `json:"source_visited,omitempty"`
}

func CoverageOf(cov *runner.Coverage, tcModel *spec.Model) *Coverage {
	if cov == nil {
		return nil
	}
	split := product.Named(tcModel)
	jc := &Coverage{Depth: cov.Depth, Steps: cov.Steps, Unmatched: cov.Unmatched, Total: len(cov.Transitions)}
	for i, tc := range cov.Transitions {
		t := tc.Transition
		jt := Transition{Index: i, Label: t.Label(), From: t.From, Action: t.Action, To: t.To, Spec: t.Name, Taken: tc.Taken, Runs: tc.Runs}
		if split {
			jt.SpecEdge = product.SpecEdge(tcModel, t)
		}
		if tc.Taken > 0 {
			jc.Taken++
		} else {
			jt.Reach, jt.SourceVisited = tc.Reach.String(), cov.Visited[t.From]
			for _, p := range tc.Path {
				jt.Path = append(jt.Path, p.Label())
			}
		}
		jc.Trans = append(jc.Trans, jt)
	}
	return jc
}

// MergeCoverage adds up the coverage of a campaign's shards: counts are
// summed; a transition never taken is unreachable when a shard proved
// it, else reachable when a shard found a path.
func MergeCoverage(covs []*Coverage) *Coverage {
	var m *Coverage
	for _, c := range covs {
		if c == nil {
			continue
		}
		if m == nil {
			cp := *c
			cp.Trans = append([]Transition(nil), c.Trans...)
			m = &cp
			continue
		}
		m.Steps += c.Steps
		m.Unmatched += c.Unmatched
		for i := range m.Trans {
			if i >= len(c.Trans) {
				break
			}
			t, o := &m.Trans[i], c.Trans[i]
			t.Taken += o.Taken
			t.Runs += o.Runs
			t.SourceVisited = t.SourceVisited || o.SourceVisited
			switch {
			case t.Reach == "unreachable" || o.Reach == "unreachable":
				t.Reach, t.Path = "unreachable", nil
			case t.Reach != "reachable" && o.Reach == "reachable":
				t.Reach, t.Path = o.Reach, o.Path
			}
		}
	}
	if m == nil {
		return nil
	}
	m.Taken = 0
	for i := range m.Trans {
		if m.Trans[i].Taken > 0 {
			m.Taken++
			m.Trans[i].Reach, m.Trans[i].Path, m.Trans[i].SourceVisited = "", nil, false
		}
	}
	return m
}

// PrintCoverage writes the coverage table: the transitions taken with
// their counts, then those never taken with what the search found.
func PrintCoverage(w io.Writer, jc *Coverage) {
	if jc == nil {
		return
	}
	fmt.Fprintf(w, "\ncoverage: %d of %d transitions taken; %d steps, %d of them by no transition (unspecified outputs)\n",
		jc.Taken, jc.Total, jc.Steps, jc.Unmatched)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  taken\truns\ttransition\tspec\n")
	for _, t := range jc.Trans {
		if t.Taken > 0 {
			fmt.Fprintf(tw, "  %d\t%d\t%s\t%s\n", t.Taken, t.Runs, describeTransition(t), specOf(t))
		}
	}
	tw.Flush()
	if jc.Taken == jc.Total {
		return
	}
	fmt.Fprintf(w, "never taken (searched within depth %d from the initial state):\n", jc.Depth)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	intoFail := 0
	for _, t := range jc.Trans {
		if t.Taken > 0 {
			continue
		}
		if t.To == "Fail" && t.Reach == "reachable" {
			intoFail++ // only a faulty SUT takes it: counted, not listed
			continue
		}
		what := ""
		switch {
		case t.Reach == "unreachable" && t.SourceVisited:
			what = fmt.Sprintf("UNREACHABLE: no path of at most %d steps takes it (proved), though the runs were in %s", jc.Depth, t.From)
		case t.Reach == "unreachable":
			what = fmt.Sprintf("UNREACHABLE: no path of at most %d steps takes it (proved)", jc.Depth)
		case t.Reach == "reachable":
			what = fmt.Sprintf("reachable in %d steps: %s", len(t.Path), strings.Join(t.Path, "; "))
		default:
			what = "unknown: the search ran out of budget"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", describeTransition(t), specOf(t), what)
	}
	tw.Flush()
	if intoFail > 0 {
		fmt.Fprintf(w, "  and %d transitions into Fail, each reachable within depth %d (only a faulty SUT takes them)\n", intoFail, jc.Depth)
	}
}

func describeTransition(t Transition) string {
	if t.Spec == "" {
		return t.Label
	}
	return t.From + " -" + t.Label + "-> " + t.To
}

func specOf(t Transition) string {
	switch {
	case t.Spec != "" && t.SpecEdge != "":
		return "spec " + t.Spec + ": " + t.SpecEdge
	case t.Spec != "":
		return "spec " + t.Spec
	case t.SpecEdge != "":
		return "spec " + t.SpecEdge
	}
	if t.Action == spec.Delta {
		return "quiescence"
	}
	if t.To == "Fail" {
		return "(outside the spec)"
	}
	return "(unnamed in the spec)"
}

// CoverageProperties are the coverage's JUnit properties: the count, and
// one property per transition.
func CoverageProperties(jc *Coverage) []JUnitProperty {
	if jc == nil {
		return nil
	}
	props := []JUnitProperty{{Name: "coverage", Value: fmt.Sprintf("%d of %d transitions taken, %d steps", jc.Taken, jc.Total, jc.Steps)}}
	for _, t := range jc.Trans {
		v := fmt.Sprintf("taken %d times in %d runs", t.Taken, t.Runs)
		if t.Taken == 0 {
			v = "never taken; " + t.Reach + fmt.Sprintf(" within depth %d", jc.Depth)
		}
		props = append(props, JUnitProperty{Name: fmt.Sprintf("transition %d: %s", t.Index, describeTransition(t)), Value: v})
	}
	return props
}

// WithoutCoverage drops the coverage properties of a shard's JUnit suite
// when several shards merge: they hold the shard's counts alone (the
// merged coverage is in the merge of the JSON reports).
func WithoutCoverage(props []JUnitProperty, shards int) []JUnitProperty {
	if shards < 2 {
		return props
	}
	var keep []JUnitProperty
	for _, p := range props {
		if p.Name != "coverage" && !strings.HasPrefix(p.Name, "transition ") {
			keep = append(keep, p)
		}
	}
	return keep
}
