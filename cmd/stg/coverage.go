package main

import (
	"context"
	"fmt"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/report"
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

// computeCoverage counts the campaign's coverage and searches paths to
// the transitions never taken, within --depth (at least 1).
func (s *session) computeCoverage(ctx context.Context, r *runner.Runner) *runner.Coverage {
	cov := runner.NewCoverage(r.Testcase(), s.results)
	if err := r.Prove(ctx, cov, max(s.t.opts.Depth, 1)); err != nil {
		fmt.Fprintf(s.stderr, "stg run: coverage: %v\n", err)
	}
	return cov
}

// printCoverage prints the campaign's coverage after its summary (with
// -q, only its count).
func (s *session) printCoverage() {
	if s.cov == nil {
		return
	}
	if s.c.Bool("quiet") {
		fmt.Fprintf(s.stdout, "coverage: %d of %d transitions taken\n", s.cov.Taken, s.cov.Total)
		return
	}
	report.PrintCoverage(s.stdout, s.cov)
}

// drawCoverage reads the coverage of a JSON report of stg run
// (--report-json, or stg report merge -o) for a drawing of the test case
// m: the coverage of each transition, and whether a transition that the
// drawing would sum up in a note (an output into Fail) was taken, so that
// every edge must be drawn.
func drawCoverage(path string, m *spec.Model) (map[*spec.Transition]emit.EdgeCoverage, bool, error) {
	rep, err := report.ReadJSON(path)
	if err != nil {
		return nil, false, err
	}
	switch {
	case m.Kind != spec.TestcaseKind:
		return nil, false, fmt.Errorf("--coverage colours a testcase, not a %s", m.Kind)
	case rep.Coverage == nil:
		return nil, false, fmt.Errorf("%s: the report has no coverage (stg run writes it with --report-json)", path)
	case rep.Testcase != m.Name || len(rep.Coverage.Trans) != len(m.Transitions):
		return nil, false, fmt.Errorf("%s: the report is of test case %s (%d transitions), not of %s (%d)", path, rep.Testcase, len(rep.Coverage.Trans), m.Name, len(m.Transitions))
	}
	cov := map[*spec.Transition]emit.EdgeCoverage{}
	allEdges := false
	for i, t := range m.Transitions {
		jt := rep.Coverage.Trans[i]
		if jt.Label != t.Label() {
			return nil, false, fmt.Errorf("%s: transition %d is %s in the report, %s in the test case", path, i, jt.Label, t.Label())
		}
		cov[t] = emit.EdgeCoverage{Taken: jt.Taken, Unreachable: jt.Reach == "unreachable", Depth: rep.Coverage.Depth}
		allEdges = allEdges || jt.Taken > 0 && m.Verdict(t.To) == "fail"
	}
	return cov, allEdges, nil
}
