package runner

import (
	"math/big"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// rangeTestcase sends in(p) with p in [3, 5] (its guard alone allows any
// p >= 0) and expects echo(p), whose parameter lies in [0, 9].
const rangeTestcase = `
kind: testcase
name: rng
variables: {x: int}
actions:
  in:   {dir: send, params: {p: {type: int, range: [3, 5]}}}
  echo: {dir: receive, params: {p: {type: int, range: [0, 9]}}}
  delta: {dir: receive}
initial: {location: A, condition: x == 0}
verdicts: {pass: [Pass], fail: [Fail]}
transitions:
  - {from: A, action: in, guard: p >= 0, assign: {x: p}, to: B}
  - {from: A, action: echo, to: Fail}
  - {from: B, action: echo, to: Pass}
  - {from: B, action: delta, to: Fail}
`

// TestParamRanges: the values sent lie in the range of their parameter
// whatever the seed and the planning (the guard alone allows others),
// and a recorded send out of range is refused by replay.
func TestParamRanges(t *testing.T) {
	m, err := specfile.ParseModel("rng.yaml", []byte(rangeTestcase), nil)
	if err != nil {
		t.Fatal(err)
	}
	echo := func(shift int64) adapter.SUT {
		return adapter.SUTFunc(func(_ string, args map[string]expr.Value) ([]adapter.Output, error) {
			v := new(big.Int).Add(args["p"].Int, big.NewInt(shift))
			return []adapter.Output{{Action: "echo", Args: map[string]any{"p": v}}}, nil
		})
	}
	seen := map[int64]bool{}
	for _, depth := range []int{0, DefaultDepth} {
		opts := DefaultOptions()
		opts.Depth = depth
		r, err := New(m, opts)
		if err != nil {
			t.Fatal(err)
		}
		for seed := int64(1); seed <= 30; seed++ {
			res := runInProcess(t, r, echo(0), seed)
			if res.Verdict != Pass || len(res.Trace) == 0 || res.Trace[0].Kind != Sent {
				t.Fatalf("depth %d, seed %d: %s (%s)\n%s", depth, seed, res.Verdict, res.Reason, res.TraceString())
			}
			p := res.Trace[0].Args[0].Value.Int
			if p.Cmp(big.NewInt(3)) < 0 || p.Cmp(big.NewInt(5)) > 0 {
				t.Errorf("depth %d, seed %d: sent p = %s, outside [3, 5]", depth, seed, p)
			}
			seen[p.Int64()] = true
		}
		r.Close()
	}
	if len(seen) < 2 {
		t.Errorf("60 runs sent only %v: no diversity within the range", seen)
	}
	// A recorded send out of range does not load as a stimulus.
	r, err := New(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = play.ScriptFromTrace(r, "t.jsonl", []specfile.TraceEvent{{Send: true, Action: "in", Args: map[string]any{"p": 7}, Line: 1}})
	if err == nil || !strings.Contains(err.Error(), "t.jsonl:1:1: arguments of in: argument p of in: 7 is outside the range [3, 5]") {
		t.Errorf("replayed in(7): %v", err)
	}
}

// TestOutputOutOfRangeFails: an output whose value is outside the range
// of its parameter is Fail, as an ill-typed one, even where the test
// case's guards would take it.
func TestOutputOutOfRangeFails(t *testing.T) {
	m, err := specfile.ParseModel("rng.yaml", []byte(rangeTestcase), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(m, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res := runInProcess(t, r, adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) {
		return []adapter.Output{{Action: "echo", Args: map[string]any{"p": 12}}}, nil
	}), 1)
	if res.Verdict != Fail || !strings.Contains(res.Reason, "unspecified output: ill-typed arguments: argument p of echo: 12 is outside the range [0, 9]") {
		t.Errorf("got %v (%s)", res.Verdict, res.Reason)
	}
}
