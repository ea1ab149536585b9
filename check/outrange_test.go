package check_test

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// echoSpec answers in(p) with out(p) when p lies in out's range [0, 9];
// otherwise the value it would answer is none of out's, and it is
// quiescent for good.
const echoSpec = `kind: spec
name: echo
variables: {x: int}
actions:
  in:  {dir: input, params: {p: int}}
  out: {dir: output, params: {v: {type: int, range: [0, 9]}}}
initial: {location: A, condition: x == 0}
transitions:
  - {from: A, action: in, assign: {x: p}, to: B}
  - {from: B, action: out, guard: v == x, to: A}
`

const outPurpose = `kind: purpose
name: out
variables: {}
initial: {location: q0}
accept: [qa]
transitions:
  - {from: q0, action: in, to: q1}
  - {from: q1, action: in, to: qa}
`

// TestOutputRangeQuiescence: where only a value out of its parameter's
// range would satisfy an output's guard, the spec is quiescent, so a SUT
// that stays silent there is not failed (the test case's quiescence
// reads the range); one that answers out of range is.
func TestOutputRangeQuiescence(t *testing.T) {
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	s, err := specfile.ParseModel("echo.yaml", []byte(echoSpec), nil)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := specfile.ParseModel("out.yaml", []byte(outPurpose), s)
	if err != nil {
		t.Fatal(err)
	}
	// No data analysis: the test case sends any p, in range or not.
	res, err := pipeline.Models(z, s, tp, pipeline.Options{Domain: "none"})
	if err != nil {
		t.Fatal(err)
	}
	correct := adapter.SUTFunc(func(_ string, args map[string]expr.Value) ([]adapter.Output, error) {
		if p := args["p"].Int; p.Sign() >= 0 && p.Cmp(big.NewInt(9)) <= 0 {
			return []adapter.Output{{Action: "out", Args: map[string]any{"v": p}}}, nil
		}
		return nil, nil
	})
	wild := adapter.SUTFunc(func(_ string, args map[string]expr.Value) ([]adapter.Output, error) {
		return []adapter.Output{{Action: "out", Args: map[string]any{"v": args["p"].Int}}}, nil
	})
	opts := runner.DefaultOptions()
	opts.Plan = runner.Walk // random values: some out of [0, 9]
	r, err := runner.New(res.Testcase, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	outside, failed := 0, 0
	for seed := int64(1); seed <= 40; seed++ {
		run, err := r.Run(context.Background(), adapter.InProcess(correct), seed)
		if err != nil {
			t.Fatal(err)
		}
		if run.Verdict == runner.Fail {
			t.Errorf("seed %d: the correct SUT failed: %s\n%s", seed, run.Reason, run.TraceString())
		}
		if p := run.Trace[0].Args[0].Value.Int; p.Sign() < 0 || p.Cmp(big.NewInt(9)) > 0 {
			outside++
			run, err = r.Run(context.Background(), adapter.InProcess(wild), seed)
			if err != nil {
				t.Fatal(err)
			}
			if run.Verdict == runner.Fail && strings.Contains(run.Reason, "outside the range [0, 9]") {
				failed++
			}
		}
	}
	if outside == 0 || failed != outside {
		t.Errorf("%d runs sent a value out of [0, 9]; the SUT answering it out of range failed in %d", outside, failed)
	}
}
