package runner

import (
	"context"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
)

// silentSUT never emits an output.
var silentSUT = adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) { return nil, nil })

func TestCoverage(t *testing.T) {
	r := newRunner(t, "coverage.yaml", Options{Depth: DefaultDepth})
	var results []*Result
	steps := 0
	for seed := int64(1); seed <= 10; seed++ {
		res := runInProcess(t, r, silentSUT, seed)
		if res.Verdict != Pass {
			t.Fatalf("seed %d: %s\n%s", seed, res.Verdict, res.TraceString())
		}
		results = append(results, res)
		steps += len(res.Trace)
	}
	c := NewCoverage(r.Testcase(), results)
	sum := c.Unmatched
	for _, tc := range c.Transitions {
		sum += tc.Taken
	}
	if c.Steps != steps || sum != steps || c.Runs != 10 {
		t.Errorf("coverage counts %d steps (%d unmatched), sum %d, runs %d; the runs took %d steps", c.Steps, c.Unmatched, sum, c.Runs, steps)
	}
	if err := r.Prove(context.Background(), c, DefaultDepth); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		taken bool
		reach Reach
	}{
		{true, ReachUnknown}, // inc
		{false, Unreachable}, // big: n never reaches 10
		{true, ReachUnknown}, // done
		{false, Reachable},   // delta at n != 2 (n == 0 at the start: the run sends first)
		{false, Reachable},   // ok -> Fail
		{false, Unreachable}, // B: after big
		{false, Unreachable},
	}
	for i, w := range want {
		got := c.Transitions[i]
		if (got.Taken > 0) != w.taken || got.Reach != w.reach {
			t.Errorf("%s: taken %d, %s; want taken %v, %s", got.Transition.Label(), got.Taken, got.Reach, w.taken, w.reach)
		}
		if got.Reach == Reachable && got.Path[len(got.Path)-1] != got.Transition {
			t.Errorf("%s: witness %v does not end with it", got.Transition.Label(), got.Path)
		}
	}
	if got := c.Transitions[2].Taken; got != 10 {
		t.Errorf("done taken %d times, want once a run", got)
	}
	// Within two steps, done (the third step at the earliest) is out of reach.
	fresh := NewCoverage(r.Testcase(), nil)
	if err := r.Prove(context.Background(), fresh, 2); err != nil {
		t.Fatal(err)
	}
	if fresh.Transitions[2].Reach != Unreachable || fresh.Transitions[0].Reach != Reachable {
		t.Errorf("depth 2: done %s, inc %s; want unreachable, reachable", fresh.Transitions[2].Reach, fresh.Transitions[0].Reach)
	}
	fresh = NewCoverage(r.Testcase(), nil)
	if err := r.Prove(context.Background(), fresh, 3); err != nil {
		t.Fatal(err)
	}
	if fresh.Transitions[2].Reach != Reachable || len(fresh.Transitions[2].Path) != 3 {
		t.Errorf("depth 3: done %s by %d steps, want reachable in 3", fresh.Transitions[2].Reach, len(fresh.Transitions[2].Path))
	}
}
