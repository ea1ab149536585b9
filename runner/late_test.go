package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
)

// workingSUT is the conformant server of play/testdata/workpark: after
// go it always works, and answers ok late (the test's timedFake hands
// the answer out at a later wait, after the window was taken for
// silence).
type workingSUT struct{}

func (workingSUT) Input(string, map[string]expr.Value) ([]adapter.Output, error) { return nil, nil }

// TestLateOutputAfterUnconfirmedQuiescence (issue 27, case 1): a silence
// that did not decide anything is concluded after the window as a
// hypothesis; the tester sends stop; then the SUT's late ok arrives. ok
// was allowed before the silence, with stop crossing it: never Fail. The
// test case is generated from the spec (testdata/workpark.yaml).
func TestLateOutputAfterUnconfirmedQuiescence(t *testing.T) {
	r := newRunner(t, "workpark.yaml", DefaultOptions())
	ok := &adapter.Output{Action: "ok"}
	retracted := 0
	for seed := int64(0); seed < 24; seed++ {
		// waits: silence once, then the late ok, then silence.
		f := &timedFake{sut: workingSUT{}, script: []*adapter.Output{nil, ok}, heard: true}
		res, err := r.Run(context.Background(), f, seed)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict == Fail {
			t.Fatalf("seed %d: a late output after an unconfirmed quiescence gave Fail: %s\n%s", seed, res.Reason, res.TraceString())
		}
		for _, s := range res.Trace {
			if s.Retracted {
				retracted++
			}
		}
		if strings.Contains(res.TraceString(), "quiet(Chosen)") && !strings.Contains(res.TraceString(), "retracted") {
			t.Errorf("seed %d: the run went through the silence, but did not retract it\n%s", seed, res.TraceString())
		}
	}
	if retracted == 0 {
		t.Error("no seed concluded the silence before stop: the case is not exercised")
	}
}

// cubesSUT answers ok(v) for every ask.
type cubesSUT struct{ v int64 }

func (s cubesSUT) Input(string, map[string]expr.Value) ([]adapter.Output, error) {
	return []adapter.Output{{Action: "ok", Args: map[string]any{"v": s.v}}}, nil
}

// TestPassNeedsDecidedGuard (issue 27, case 8): the initial values are
// free and the output guard is x³+y³+z³ == v; for v = 4 no valuation
// exists (cubes mod 9), which the solver cannot decide. The run must not
// pass on the solver's silence: Inconc, naming the guard.
func TestPassNeedsDecidedGuard(t *testing.T) {
	opts := DefaultOptions()
	opts.SolverTimeout = 500 * time.Millisecond
	r := newRunner(t, "cubes.yaml", opts)
	res, err := r.Run(context.Background(), adapter.InProcess(cubesSUT{4}), 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict == Pass || res.Verdict == Fail {
		t.Fatalf("v = 4: %s (%s), want Inconc\n%s", res.Verdict, res.Reason, res.TraceString())
	}
	if !strings.Contains(res.Reason, "cubes.yaml:") || !strings.Contains(res.Reason, "undecided") {
		t.Errorf("the reason does not name the guard: %s", res.Reason)
	}
	// A sum of cubes the solver finds (1 = 1 + 0 + 0) passes: with time
	// enough, however loaded the machine (only the undecided case above
	// depends on a timer running out).
	opts.SolverTimeout = time.Minute
	r = newRunner(t, "cubes.yaml", opts)
	res, err = r.Run(context.Background(), adapter.InProcess(cubesSUT{1}), 1)
	if err != nil || res.Verdict != Pass {
		t.Fatalf("v = 1: %v %s (%s)\n%s", err, res.Verdict, res.Reason, res.TraceString())
	}
}
