package pipeline_test

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec/expr"
)

// dice is an in-process SUT of pipeline/testdata/hidden: on roll it
// draws a value (from rnd: the hidden choice), shows ten times it and,
// on ask, echoes show(value) (the mutant shows 70, which no value in
// [1, 6] explains).
func dice(rnd *rand.Rand, mutant bool) adapter.SUT {
	last := 0
	return adapter.SUTFunc(func(action string, _ map[string]expr.Value) ([]adapter.Output, error) {
		switch action {
		case "roll":
			last = 1 + rnd.Intn(6)
			s := 10 * last
			if mutant {
				s = 70
			}
			return []adapter.Output{{Action: "show", Args: map[string]any{"s": s}}}, nil
		case "ask":
			return []adapter.Output{{Action: "echo", Args: map[string]any{"e": last}}}, nil
		}
		return nil, nil
	})
}

// A composed system whose hidden output's value flows into state (issue
// 23, item 7): the test case follows the value as an unknown; a
// conformant SUT is never failed, whatever it rolls, and one that shows
// a value no roll explains is.
func TestGenerateHiddenValueIntoState(t *testing.T) {
	_, s, err := compose.Load("testdata/hidden/system.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.GenerateFor(s, "testdata/hidden/purpose.yaml", pipeline.Options{Domain: "polyhedra"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Testcase.Variable("h_d_1") == nil {
		t.Fatalf("the test case has no unknown h_d_1: %v", res.Testcase.Variables)
	}
	r, err := runner.New(res.Testcase, runner.Options{Depth: runner.DefaultDepth, Options: play.Options{MaxSteps: 50}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for seed := int64(1); seed <= 20; seed++ {
		for _, mutant := range []bool{false, true} {
			out, err := r.Run(context.Background(), adapter.InProcess(dice(rand.New(rand.NewSource(seed)), mutant)), seed)
			if err != nil {
				t.Fatal(err)
			}
			want := runner.Pass
			if mutant {
				want = runner.Fail
			}
			if out.Verdict != want {
				t.Errorf("seed %d, mutant %v: %s, want %s\n%s", seed, mutant, out.Verdict, want, out.TraceString())
			}
		}
	}
}

// A purpose that needs two rounds would take the hidden roll twice with
// one unknown: refused, saying so.
func TestGenerateHiddenValueLoopRefused(t *testing.T) {
	_, s, err := compose.Load("testdata/hidden/system.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = pipeline.GenerateFor(s, "testdata/hidden/purpose-twice.yaml", pipeline.Options{Domain: "polyhedra"})
	if err == nil || !strings.Contains(err.Error(), "cannot observe") || !strings.Contains(err.Error(), "loop") {
		t.Fatalf("got %v, want the refusal of a loop through the hidden value", err)
	}
}
