package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	stgplay "github.com/stg-tool/stg/play"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/examples/lucky/sut/impl"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// The Lucky People example (examples/lucky) speaks strings: names are
// validated by a regular expression in a def: helper and compared by
// their first letters. Each purpose is generated (the stg generate
// route), its test case written and read back, and played in process
// against the correct SUT and the mutants.

// luckyPurposes are the purposes played goal-directed against the
// correct SUT and the name mutants: lucky-by-sex needs a path of 12
// steps through string constraints, which the planner searches slowly
// (seconds a run in Z3 4.8.12); it plays in random walks in the soak and
// goal-directed in TestLuckyDiverseCatchesNotCapped.
var luckyPurposes = []string{"by-name", "invalid", "invalid-char"}

// luckyCache holds the test case of each purpose once generated: the
// generation takes seconds, and the lucky tests, none parallel, play the
// same test cases.
var luckyCache = map[string]*spec.Model{}

// luckyTestcase generates the test case of purpose and returns it as
// read back from its YAML (what stg run plays), after checking that
// write/load/write gives the same text; a purpose is generated once.
func luckyTestcase(t *testing.T, purpose string) *spec.Model {
	t.Helper()
	if tc, ok := luckyCache[purpose]; ok {
		return tc
	}
	tc := generateLucky(t, purpose)
	luckyCache[purpose] = tc
	return tc
}

func generateLucky(t *testing.T, purpose string) *spec.Model {
	t.Helper()
	res, err := pipeline.Generate("../examples/lucky/spec.yaml", "../examples/lucky/purpose-"+purpose+".yaml", pipeline.Options{})
	if err != nil {
		t.Fatalf("%s: %v", purpose, err)
	}
	b, err := specfile.Marshal(res.Testcase)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := specfile.ParseModel(purpose+".tc.yaml", b, nil)
	if err != nil {
		t.Fatalf("%s: the written test case does not load: %v", purpose, err)
	}
	if b2, _ := specfile.Marshal(tc); !bytes.Equal(b, b2) {
		t.Errorf("%s: write/load/write differs:\n%s\n---\n%s", purpose, b, b2)
	}
	return tc
}

// luckyRuns plays seeds seed..seed+n-1 of tc with plan against fault f
// and counts verdicts; a Fail of the correct SUT is an error.
func luckyRuns(t *testing.T, tc *spec.Model, plan runner.Strategy, f impl.Fault, seed int64, n int) map[runner.Verdict]int {
	t.Helper()
	return luckyPlay(t, tc, plan, f, seed, n, false)
}

// luckyPlay is luckyRuns, stopping at the first Fail when untilFail.
func luckyPlay(t *testing.T, tc *spec.Model, plan runner.Strategy, f impl.Fault, seed int64, n int, untilFail bool) map[runner.Verdict]int {
	t.Helper()
	opts := inProcessOptions(runner.DefaultDepth)
	opts.Plan = plan
	r, err := runner.New(tc, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	counts := map[runner.Verdict]int{}
	for s := seed; s < seed+int64(n); s++ {
		res, err := stgplay.RunOnce(context.Background(), r.Engine(), adapter.GoSUT(func() adapter.SUT { return impl.New(f) }), s)
		if err != nil {
			t.Fatalf("%s against %s, seed %d: %v", tc.Name, f, s, err)
		}
		counts[res.Verdict]++
		if f == impl.Correct && res.Verdict == runner.Fail {
			t.Errorf("%s (%s): the correct SUT got Fail with seed %d: %s\n%s", tc.Name, plan, s, res.Reason, res.TraceString())
		}
		if untilFail && res.Verdict == runner.Fail {
			break
		}
	}
	return counts
}

// TestLuckyCorrectNeverFails plays 100 seeded runs (1,000 with
// STG_LONG=1) of the test cases against the correct SUT (STG_LUCKY_RUNS
// changes the number, in the same proportions): per purpose a few goal-directed runs (diverse planning,
// which solves string constraints over paths: a few hundred milliseconds
// a run) and random walks (values drawn and checked by exact evaluation:
// about a millisecond a run); lucky-by-sex, whose planning takes seconds,
// plays random walks only.
func TestLuckyCorrectNeverFails(t *testing.T) {
	n := testlong.Runs(100, 1000)
	if s := os.Getenv("STG_LUCKY_RUNS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	start := time.Now()
	total := 0
	for _, c := range []struct {
		purpose       string
		diverse, walk int // per thousand runs
	}{{"by-name", 16, 284}, {"invalid", 16, 284}, {"invalid-char", 16, 284}, {"by-sex", 0, 100}} {
		tc := luckyTestcase(t, c.purpose)
		d := luckyRuns(t, tc, runner.Diverse, impl.Correct, 1, c.diverse*n/1000)
		w := luckyRuns(t, tc, runner.Walk, impl.Correct, 1, c.walk*n/1000)
		total += c.diverse*n/1000 + c.walk*n/1000
		if c.diverse > 0 && d[runner.Pass] == 0 || w[runner.Pass] == 0 {
			t.Errorf("%s: no Pass: diverse %v, walk %v", c.purpose, d, w)
		}
		t.Logf("%s: diverse %v, walk %v after %v", c.purpose, d, w, time.Since(start).Round(time.Second))
	}
	t.Logf("%d runs in %v", total, time.Since(start).Round(time.Millisecond))
}

// TestLuckyMutantsCaught: every name-mishandling mutant gets Fail from
// some test case within 10 goal-directed runs. The default run tries
// each mutant against the purpose that catches it (by-name, invalid,
// by-name); STG_LONG=1 tries the purposes in turn.
func TestLuckyMutantsCaught(t *testing.T) {
	catcher := map[impl.Fault]string{impl.WholeNames: "by-name", impl.CaseInsensitive: "invalid", impl.AcceptsInvalid: "by-name"}
	for _, f := range []impl.Fault{impl.WholeNames, impl.CaseInsensitive, impl.AcceptsInvalid} {
		caught := ""
		purposes := luckyPurposes
		if !testlong.Enabled() {
			purposes = []string{catcher[f]}
		}
		for _, p := range purposes {
			if luckyPlay(t, luckyTestcase(t, p), runner.Diverse, f, 1, 10, true)[runner.Fail] > 0 {
				caught = p
				break
			}
		}
		if caught == "" {
			t.Errorf("%s survives every purpose", f)
		} else {
			t.Logf("%s caught by %s", f, caught)
		}
	}
}

// TestLuckyDiverseCatchesNotCapped is issue 16's acceptance on Lucky
// People: the mutant whose run counter is not capped at 5 (and which
// calls a switch lucky only after exactly 5) needs a run of at least 6
// persons of one sex before a switch. Shortest paths switch after
// exactly 5; diverse planning stretches runs. Over the same 20 seeds,
// diverse planning must kill it, and more often than shortest paths; the
// correct SUT never fails under either. (Shortest paths kill it now and
// then when a deviation makes the run re-plan from a longer run of one
// sex.) Planning goes through the string tests abstracted to booleans
// (runner/strabs.go): about 2 s a run, where it was 3 to 35 s with the
// strings in every check. 80 such runs make it a long test (STG_LONG=1);
// TestDiverseCatchesNotCapped shows the same on the counter threshold in
// the default run.
func TestLuckyDiverseCatchesNotCapped(t *testing.T) {
	testlong.Skip(t)
	tc := luckyTestcase(t, "by-sex")
	diverse := luckyRuns(t, tc, runner.Diverse, impl.NotCapped, 1, 20)
	t.Logf("not-capped, diverse: %v", diverse)
	shortest := luckyRuns(t, tc, runner.Shortest, impl.NotCapped, 1, 20)
	t.Logf("not-capped, 20 runs: diverse %v, shortest %v", diverse, shortest)
	if diverse[runner.Fail] == 0 {
		t.Errorf("diverse: the not-capped mutant survives 20 runs")
	}
	if diverse[runner.Fail] <= shortest[runner.Fail] {
		t.Errorf("diverse planning killed the not-capped mutant in %d runs, shortest paths in %d: want more with diverse",
			diverse[runner.Fail], shortest[runner.Fail])
	}
	for _, st := range []runner.Strategy{runner.Diverse, runner.Shortest} {
		if c := luckyRuns(t, tc, st, impl.Correct, 1, 20); c[runner.Fail] > 0 {
			t.Errorf("%s: the correct SUT failed: %v", st, c)
		}
	}
}

// TestLuckyGo: the Go test file stg generate --format go writes for the
// lucky purposes (one table-driven test) type-checks, and plays in its
// package against the in-process SUTs through its helper runLucky: 3
// runs of each test case never fail the correct SUT, and fail the
// case-insensitive mutant. The files are overlaid into
// e2e/testdata (nothing is written under the repository).
func TestLuckyGo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet and go test")
	}
	// Building a test binary of its own takes a minute or two under
	// load: a long test. emit's TestGoSourceRuns builds and runs a
	// generated file (cmp's) in the default run.
	testlong.Skip(t)
	var tcs []*spec.Model
	for _, p := range luckyPurposes {
		tcs = append(tcs, luckyTestcase(t, p))
	}
	src, err := emit.GoTableSource("lucky", tcs, "stgtests")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	replace := map[string]string{}
	for name, data := range map[string][]byte{"lucky_stg_test.go": src, "inproc_test.go": []byte(luckyInProcess)} {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(root, "e2e", "testdata", name)] = file
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	gocmd := func(args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "STG_SUT=", "STG_SEED=1", "STG_RUNS=3", "STG_QUIESCENCE=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := gocmd("vet", "-overlay", overlayFile, "./e2e/testdata"); err != nil {
		t.Fatalf("go vet of the generated file: %v\n%s\n%s", err, out, src)
	}
	test := func(name string) (string, error) {
		return gocmd("test", "-count=1", "-overlay", overlayFile, "-run", "^"+name+"$", "-v", "./e2e/testdata")
	}
	out, err := test("TestInProcessCorrect")
	if err != nil || !strings.Contains(out, "--- PASS: TestInProcessCorrect") {
		t.Errorf("the generated test against the correct SUT: %v\n%s", err, out)
	}
	t.Logf("correct SUT: %d runs passed", strings.Count(out, "--- PASS: TestInProcessCorrect/"))
	out, err = test("TestInProcessCaseInsensitive")
	if err == nil || !strings.Contains(out, "reached Fail") {
		t.Errorf("the generated test does not fail the case-insensitive mutant: %v\n%s", err, out)
	}
	t.Logf("case-insensitive mutant: %d runs failed", strings.Count(out, "--- FAIL: TestInProcessCaseInsensitive/"))
}

// luckyInProcess plays the generated table against the correct SUT and
// against the case-insensitive mutant.
const luckyInProcess = `package stgtests

import (
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/lucky/sut/impl"
)

func TestInProcessCorrect(t *testing.T) {
	runLucky(t, func() adapter.SUT { return impl.New(impl.Correct) })
}

func TestInProcessCaseInsensitive(t *testing.T) {
	runLucky(t, func() adapter.SUT { return impl.New(impl.CaseInsensitive) })
}
`
