package runner

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/play"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

func loadTestcase(t testing.TB, name string) *spec.Model {
	t.Helper()
	m, err := specfile.LoadFile("testdata/"+name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func newRunner(t testing.TB, name string, opts Options) *Runner {
	t.Helper()
	r, err := New(loadTestcase(t, name), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func runInProcess(t testing.TB, r *Runner, sut adapter.SUT, seed int64) *Result {
	t.Helper()
	res, err := r.Run(context.Background(), adapter.InProcess(sut), seed)
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, res.TraceString())
	}
	return res
}

func TestCmpVerdicts(t *testing.T) {
	for _, depth := range []int{0, DefaultDepth} {
		r := newRunner(t, "cmp.yaml", Options{Depth: depth})
		for _, tt := range []struct {
			mutant string
			want   Verdict
			reason string
		}{
			{"", Pass, "reached Pass"},
			{"wrong", Fail, "reached Fail"},
			{"nok", Fail, "reached Fail"},
			{"silent", Fail, "reached Fail"},
		} {
			res := runInProcess(t, r, &cmpSUT{mutant: tt.mutant}, 1)
			if res.Verdict != tt.want || !strings.Contains(res.Reason, tt.reason) {
				t.Errorf("depth %d, mutant %q: %s (%s), want %s\n%s", depth, tt.mutant, res.Verdict, res.Reason, tt.want, res.TraceString())
			}
		}
	}
}

func TestCmpTrace(t *testing.T) {
	opts := DefaultOptions()
	opts.Plan = Shortest
	r := newRunner(t, "cmp.yaml", opts)
	res := runInProcess(t, r, &cmpSUT{}, 7)
	if len(res.Trace) != 3 {
		t.Fatalf("want 3 steps (in, in, ok), got\n%s", res.TraceString())
	}
	first, second, last := res.Trace[0], res.Trace[1], res.Trace[2]
	x := first.Args[0].Value.Int
	if first.Kind != Sent || first.Action != "in" || x.Int64() < 3 || !first.Planned {
		t.Errorf("first step %+v: want a planned in(p) with p >= 3", first)
	}
	if second.Args[0].Value.Int.Int64() != x.Int64()+2 {
		t.Errorf("second step %+v: want in(p) with p == x + 2", second)
	}
	if last.Kind != Received || last.Action != "ok" || last.To != "Pass" {
		t.Errorf("last step %+v: want ok to Pass", last)
	}
	if want := fmt.Sprintf("x=%v y=%v", x, x.Int64()+2); last.State != want {
		t.Errorf("state after the last step: %q, want %q", last.State, want)
	}
	t.Logf("\n%s", res.TraceString())
}

// TestCmpSoundness checks that the correct SUT never gets Fail, whatever
// the values the tester picks: 200 runs per depth (1,000 with
// STG_LONG=1).
func TestCmpSoundness(t *testing.T) {
	n := testlong.Runs(200, 1000)
	if testing.Short() {
		n = 100
	}
	for _, depth := range []int{0, DefaultDepth} {
		r := newRunner(t, "cmp.yaml", Options{Depth: depth})
		xs := map[string]bool{}
		for seed := int64(0); seed < int64(n); seed++ {
			res := runInProcess(t, r, &cmpSUT{}, seed)
			if res.Verdict != Pass {
				t.Fatalf("depth %d seed %d: %s (%s)\n%s", depth, seed, res.Verdict, res.Reason, res.TraceString())
			}
			xs[res.Trace[0].Args[0].Value.String()] = true
		}
		if len(xs) < 20 {
			t.Errorf("depth %d: only %d distinct values of the first input over %d runs: %v", depth, len(xs), n, xs)
		}
	}
}

func TestValuesSmallAndDiverse(t *testing.T) {
	r := newRunner(t, "cmp.yaml", DefaultOptions())
	big, boundary := 0, 0
	for seed := int64(0); seed < 300; seed++ {
		res := runInProcess(t, r, &cmpSUT{}, seed)
		x := res.Trace[0].Args[0].Value.Int.Int64()
		if x >= 100 {
			big++
		}
		if x == 3 {
			boundary++
		}
	}
	if big > 60 {
		t.Errorf("%d of 300 first inputs are >= 100", big)
	}
	if boundary == 0 {
		t.Errorf("the boundary value p == 3 was never chosen")
	}
}

// TestReplay checks that a seed replays its run, also when the run was
// not the first of its Runner (stg run --seed S --runs 1 replays run N of
// a batch with a fresh Runner).
func TestReplay(t *testing.T) {
	for _, tt := range []struct {
		name   string
		newSUT func() adapter.SUT
	}{
		{"cmp.yaml", func() adapter.SUT { return &cmpSUT{} }},
		{"detour.yaml", func() adapter.SUT { return &detourSUT{} }},
	} {
		for _, depth := range []int{0, DefaultDepth} {
			batch := newRunner(t, tt.name, Options{Depth: depth})
			var traces []string
			for seed := int64(0); seed < 30; seed++ {
				traces = append(traces, runInProcess(t, batch, tt.newSUT(), seed).TraceString())
			}
			for _, seed := range []int64{0, 7, 29} {
				fresh := newRunner(t, tt.name, Options{Depth: depth})
				if got := runInProcess(t, fresh, tt.newSUT(), seed).TraceString(); got != traces[seed] {
					t.Errorf("%s depth %d seed %d: the batch gave\n%s\nthe replay\n%s", tt.name, depth, seed, traces[seed], got)
				}
			}
		}
	}
}

func TestInconc(t *testing.T) {
	r := newRunner(t, "detour.yaml", Options{Depth: DefaultDepth, Options: play.Options{MaxSteps: 2}})
	res := runInProcess(t, r, &detourSUT{}, 1)
	if res.Verdict != Inconc || !strings.Contains(res.Reason, "step limit") {
		t.Errorf("MaxSteps 2: %s (%s)", res.Verdict, res.Reason)
	}
	// A SUT silent where done is due: delta leads to Inconc.
	r = newRunner(t, "detour.yaml", DefaultOptions())
	silent := adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) { return nil, nil })
	res = runInProcess(t, r, silent, 1)
	if res.Verdict != Inconc || res.Location != "Inconc" {
		t.Errorf("silent SUT: %s (%s)\n%s", res.Verdict, res.Reason, res.TraceString())
	}
	// The time limit.
	r = newRunner(t, "detour.yaml", Options{Depth: 0, Options: play.Options{Timeout: 50 * time.Millisecond, MaxSteps: 1 << 30}})
	slow := adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) {
		time.Sleep(5 * time.Millisecond)
		return nil, nil
	})
	res = runInProcess(t, r, slow, 1)
	if res.Verdict != Inconc || !strings.Contains(res.Reason, "time limit") {
		t.Errorf("slow SUT: %s (%s)", res.Verdict, res.Reason)
	}
}

func TestUnspecifiedOutputs(t *testing.T) {
	r := newRunner(t, "cmp.yaml", DefaultOptions())
	for _, tt := range []struct {
		name string
		outs []adapter.Output
		want string
	}{
		{"unknown action", []adapter.Output{{Action: "boom"}}, `unknown action "boom"`},
		{"input as output", []adapter.Output{{Action: "in", Args: map[string]any{"p": 1}}}, `unknown action "in"`},
		{"ill-typed", []adapter.Output{{Action: "ok", Args: map[string]any{"p": "two"}}}, "ill-typed"},
		{"real for int", []adapter.Output{{Action: "ok", Args: map[string]any{"p": "5/2"}}}, "ill-typed"},
		{"missing arg", []adapter.Output{{Action: "ok"}}, "missing argument p"},
		{"extra arg", []adapter.Output{{Action: "ok", Args: map[string]any{"p": 2, "q": 1}}}, "no parameter q"},
	} {
		outs := tt.outs
		sut := adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) { return outs, nil })
		res := runInProcess(t, r, sut, 3)
		if res.Verdict != Fail || !strings.Contains(res.Reason, tt.want) || !strings.Contains(res.Reason, "unspecified output") {
			t.Errorf("%s: %s (%s), want Fail with %q", tt.name, res.Verdict, res.Reason, tt.want)
		}
	}
}

func TestIncompleteTestcase(t *testing.T) {
	m, err := specfile.ParseModel("inc.yaml", []byte(`
kind: testcase
name: inc
variables: {}
actions:
  start: {dir: send}
  ok:   {dir: receive, params: {p: int}}
initial: {location: A}
verdicts: {pass: [Pass]}
transitions:
  - {from: A, action: start, to: B}
  - {from: B, action: ok, guard: "p == 1", to: Pass}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(m, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res, err := r.Run(context.Background(), adapter.InProcess(adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) {
		return []adapter.Output{{Action: "ok", Args: map[string]any{"p": 2}}}, nil
	})), 1)
	if err != nil || res.Verdict != Fail || !strings.Contains(res.Reason, "unspecified output ok(p=2) in B") {
		t.Errorf("got %v, %v (%s)", err, res.Verdict, res.Reason)
	}
	res, err = r.Run(context.Background(), adapter.InProcess(adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) {
		return nil, nil
	})), 1)
	if err != nil || res.Verdict != Fail || !strings.Contains(res.Reason, "unspecified quiescence") {
		t.Errorf("got %v, %v (%s)", err, res.Verdict, res.Reason)
	}
}
