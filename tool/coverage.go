package tool

import (
	"context"
	"fmt"

	"github.com/stg-tool/stg/report"
	"github.com/stg-tool/stg/runner"
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
	if s.o.Quiet {
		fmt.Fprintf(s.stdout, "coverage: %d of %d transitions taken\n", s.cov.Taken, s.cov.Total)
		return
	}
	report.PrintCoverage(s.stdout, s.cov)
}
