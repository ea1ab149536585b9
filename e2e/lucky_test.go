package e2e

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/lucky/sut/impl"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
)

// The Lucky People example (examples/lucky) speaks strings: names are
// validated by a regular expression in a def: helper and compared by
// their first letters. Each purpose is generated (the stg generate
// route), its test case played in process against the correct SUT and
// the mutants.

// purpose-by-sex is left out: planning five persons ahead with string
// parameters is slow in Z3 4.8.12 (minutes per run).
var luckyPurposes = []string{"by-name", "invalid", "invalid-char"}

func luckyTestcase(t *testing.T, purpose string) *spec.Model {
	t.Helper()
	res, err := pipeline.Generate("../examples/lucky/spec.yaml", "../examples/lucky/purpose-"+purpose+".yaml", pipeline.Options{})
	if err != nil {
		t.Fatalf("%s: %v", purpose, err)
	}
	return res.Testcase
}

// luckyRuns plays seeds 1..n of tc against fault f and counts verdicts.
func luckyRuns(t *testing.T, tc *spec.Model, f impl.Fault, n int) map[runner.Verdict]int {
	t.Helper()
	r, err := runner.New(tc, inProcessOptions(runner.DefaultDepth))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	counts := map[runner.Verdict]int{}
	for seed := int64(1); seed <= int64(n); seed++ {
		res, err := runner.RunOnce(context.Background(), r, adapter.GoSUT(func() adapter.SUT { return impl.New(f) }), seed)
		if err != nil {
			t.Fatalf("%s against %s, seed %d: %v", tc.Name, f, seed, err)
		}
		counts[res.Verdict]++
		if f == impl.Correct && res.Verdict == runner.Fail {
			t.Errorf("%s: the correct SUT got Fail with seed %d: %s", tc.Name, seed, res.Reason)
		}
	}
	return counts
}

// TestLuckyCorrectNeverFails plays the four test cases against the
// correct SUT: STG_LUCKY_RUNS runs each (default 30;
// each run solves string constraints, a few tens of milliseconds).
func TestLuckyCorrectNeverFails(t *testing.T) {
	n := 30
	if s := os.Getenv("STG_LUCKY_RUNS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	start := time.Now()
	for _, p := range luckyPurposes {
		counts := luckyRuns(t, luckyTestcase(t, p), impl.Correct, n)
		if counts[runner.Pass] == 0 {
			t.Errorf("%s: no Pass in %d runs: %v", p, n, counts)
		}
		t.Logf("%s: %v", p, counts)
	}
	t.Logf("%d runs in %v", n*len(luckyPurposes), time.Since(start))
}

// TestLuckyMutantsCaught: every name-mishandling mutant gets Fail from
// some test case within 6 runs.
func TestLuckyMutantsCaught(t *testing.T) {
	tcs := map[string]*spec.Model{}
	for _, p := range luckyPurposes {
		tcs[p] = luckyTestcase(t, p)
	}
	for _, f := range []impl.Fault{impl.WholeNames, impl.CaseInsensitive, impl.AcceptsInvalid} {
		caught := ""
		for _, p := range luckyPurposes {
			if luckyRuns(t, tcs[p], f, 6)[runner.Fail] > 0 {
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
