package stgtest

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/runner"
)

// PlayCommand is RunCommand with one subtest per run, named after its
// seed ("seed=42"), so that go test lists the runs and a failing run is
// replayed alone with go test -run 'TestName/seed=42' and STG_SEED=42,
// which its failure message prints. It stops at the first failing run.
func PlayCommand(t *testing.T, testcase string) {
	t.Helper()
	c, err := readConfig(os.Getenv, time.Now)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if len(c.sut) == 0 {
		t.Skipf("STG_SUT is not set: set it to the command line of the system under test, e.g. STG_SUT='./sut --option'")
	}
	playSubtests(t, testcase, adapter.Command(c.sut, os.Stderr), c)
}

// Play is Run with one subtest per run, named after its seed (see
// PlayCommand).
func Play(t *testing.T, testcase string, start adapter.Starter) {
	t.Helper()
	c, err := readConfig(os.Getenv, time.Now)
	if err != nil {
		t.Fatalf("%v", err)
	}
	c.env = withoutSUT(c.env)
	playSubtests(t, testcase, start, c)
}

// playSubtests plays c.runs runs of testcase against start, each in a
// subtest of t: Fail or an error fails the subtest (and t), Inconc skips
// it; when no run passed, t is skipped.
func playSubtests(t *testing.T, testcase string, start adapter.Starter, c config) {
	t.Helper()
	m, err := load(testcase)
	if err != nil {
		t.Fatalf("%v", err)
	}
	funcs, err := registry(m, c)
	if err != nil {
		t.Fatalf("test case %s: %v", m.Name, err)
	}
	defer funcs.Close()
	c.opts.Funcs = funcs
	r, err := runner.New(m, c.opts)
	if err != nil {
		t.Fatalf("test case %s: %v", m.Name, err)
	}
	defer r.Close()
	if !c.seedSet {
		t.Logf("test case %s: first seed %d, from the clock (STG_SEED sets it)", m.Name, c.seed)
	}
	passed := 0
	var inconc []string
	for i := range c.runs {
		seed := c.seed + int64(i)
		ok := t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			what := fmt.Sprintf("test case %s, run %d/%d, seed %d", m.Name, i+1, c.runs, seed)
			res, err := runner.RunOnce(t.Context(), r, start, seed)
			if err != nil {
				t.Fatalf("%s: %v\n%sreplay: %s", what, err, trace(res), replay(t, c, seed))
			}
			switch res.Verdict {
			case runner.Fail:
				t.Fatalf("%s: Fail: %s\n%sreplay: %s", what, res.Reason, trace(res), replay(t, c, seed))
			case runner.Pass:
				passed++
				t.Logf("%s: Pass after %d steps; %s", what, len(res.Trace), timing(res))
			default:
				inconc = append(inconc, fmt.Sprintf("seed %d: %s", seed, res.Reason))
				t.Skipf("%s: %s: %s; %s", what, res.Verdict, res.Reason, timing(res))
			}
		})
		if !ok {
			return
		}
	}
	if passed == 0 {
		t.Skipf("test case %s: Inconc, no run passed: %s", m.Name, strings.Join(inconc, "; "))
	}
}
