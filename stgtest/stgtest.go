package stgtest

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/extfunc"
	stgplay "github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// Run plays the test case testcase, its YAML text as stg generate writes
// it, against the SUTs start gives (a fresh one for each run), with the
// options of the environment but STG_SUT (see the package documentation).
// Fail or an error fails t; when no run passed, Inconc skips it.
func Run(t testing.TB, testcase string, start adapter.Starter) {
	t.Helper()
	RunFuncs(t, testcase, start, nil)
}

// RunFuncs is Run with Go implementations of the test case's external
// functions, by name (instead of their impl: commands).
func RunFuncs(t testing.TB, testcase string, start adapter.Starter, impls map[string]extfunc.GoFunc) {
	t.Helper()
	c, err := readConfig(os.Getenv, time.Now)
	if err != nil {
		t.Fatalf("%v", err)
	}
	c.env = withoutSUT(c.env)
	c.impls = impls
	play(t, testcase, start, c)
}

// RunCommand is Run against the SUT process whose command line is in
// STG_SUT, its standard error passed through; without STG_SUT it skips t.
func RunCommand(t testing.TB, testcase string) {
	t.Helper()
	c, start := commandConfig(t)
	play(t, testcase, start, c)
}

// commandConfig reads the configuration of RunCommand and PlayCommand
// from the environment and returns it with the starter of the process
// STG_SUT; without STG_SUT it skips t.
func commandConfig(t testing.TB) (config, adapter.Starter) {
	t.Helper()
	c, err := readConfig(os.Getenv, time.Now)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if len(c.sut) == 0 {
		t.Skipf("STG_SUT is not set: set it to the command line of the system under test, e.g. STG_SUT='./sut --option'")
	}
	return c, adapter.Command(c.sut, os.Stderr)
}

func withoutSUT(env []string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, "STG_SUT=") {
			out = append(out, e)
		}
	}
	return out
}

// prepare loads testcase and makes its runner, with the external
// functions of c; done closes them (the runner first). A failure fails t.
// It logs the first seed when it comes from the clock.
func prepare(t testing.TB, testcase string, c config) (m *spec.Model, r *runner.Runner, done func()) {
	t.Helper()
	m, err := load(testcase)
	if err != nil {
		t.Fatalf("%v", err)
	}
	funcs, err := registry(m, c)
	if err != nil {
		t.Fatalf("test case %s: %v", m.Name, err)
	}
	c.opts.Funcs = funcs
	r, err = runner.New(m, c.opts)
	if err != nil {
		funcs.Close()
		t.Fatalf("test case %s: %v", m.Name, err)
	}
	if !c.seedSet {
		t.Logf("test case %s: first seed %d, from the clock (STG_SEED sets it)", m.Name, c.seed)
	}
	return m, r, func() {
		r.Close()
		funcs.Close()
	}
}

// play plays c.runs runs of testcase against start and reports to t.
func play(t testing.TB, testcase string, start adapter.Starter, c config) {
	t.Helper()
	m, r, done := prepare(t, testcase, c)
	defer done()
	passed := 0
	var inconc []string
	for i := range c.runs {
		pass, msg, ic := runOne(t, m, r, start, c, i)
		if pass {
			passed++
			continue
		}
		t.Logf("%s", msg)
		inconc = append(inconc, ic)
	}
	if passed == 0 {
		t.Skipf("test case %s: Inconc, no run passed: %s", m.Name, strings.Join(inconc, "; "))
	}
}

// runOne plays run i of c.runs of m with r against start: an error or
// Fail fails t, a Pass is logged. Otherwise it returns the description
// of the Inconc (msg) and its entry in the message of a skip (inconc).
func runOne(t testing.TB, m *spec.Model, r *runner.Runner, start adapter.Starter, c config, i int) (pass bool, msg, inconc string) {
	t.Helper()
	seed := c.seed + int64(i)
	what := fmt.Sprintf("test case %s, run %d/%d, seed %d", m.Name, i+1, c.runs, seed)
	res, err := stgplay.RunOnce(t.Context(), r.Engine(), start, seed)
	if err != nil {
		t.Fatalf("%s: %v\n%sreplay: %s", what, err, trace(res), replay(t, c, seed))
	}
	switch res.Verdict {
	case runner.Fail:
		t.Fatalf("%s: Fail: %s\n%sreplay: %s", what, res.Reason, trace(res), replay(t, c, seed))
	case runner.Pass:
		t.Logf("%s: Pass after %d steps; %s", what, len(res.Trace), timing(res))
		return true, "", ""
	}
	return false, fmt.Sprintf("%s: %s: %s; %s", what, res.Verdict, res.Reason, timing(res)),
		fmt.Sprintf("seed %d: %s", seed, res.Reason)
}

// load reads the embedded test case with the loader of every stage.
func load(testcase string) (*spec.Model, error) {
	m, err := specfile.ParseModel("embedded testcase", []byte(testcase), nil)
	if err != nil {
		return nil, err
	}
	if m.Kind != spec.TestcaseKind {
		return nil, fmt.Errorf("embedded testcase: %s is a %s, not a testcase", m.Name, m.Kind)
	}
	return m, nil
}

// registry returns the evaluator of m's external functions: their
// tables, their commands, and the Go implementations c gives.
func registry(m *spec.Model, c config) (*extfunc.Registry, error) {
	funcs, err := extfunc.New(m.Funcs, extfunc.Options{Timeout: c.callTimeout, Stderr: os.Stderr})
	if err != nil {
		return nil, err
	}
	for name, fn := range c.impls {
		if err := funcs.Register(name, fn); err != nil {
			funcs.Close()
			return nil, err
		}
	}
	return funcs, nil
}

func trace(res *runner.Result) string {
	if res == nil || len(res.Trace) == 0 {
		return ""
	}
	return res.TraceString()
}

// timing says which quiescence window the run used.
func timing(res *runner.Result) string {
	if res.Window > 0 {
		return fmt.Sprintf("quiescence window %v; %s", res.Window, stgplay.Summarize(res.Latencies))
	}
	return "no wait for an output"
}

// replay returns the command line that replays the run of seed: the
// settings read from the environment, that seed, one run, and this test.
func replay(t testing.TB, c config, seed int64) string {
	words := slices.Concat(c.env, []string{fmt.Sprintf("STG_SEED=%d", seed), "STG_RUNS=1", "go", "test", "-run"})
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(append(words, shellQuote(strings.Join(parts, "/"))), " ")
}
