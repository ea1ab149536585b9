package play

import (
	"strings"
	"testing"
	"time"
)

// TestEndingWrite: the last lines of a trace, on both routes (online.s
// traces end with the same Ending).
func TestEndingWrite(t *testing.T) {
	ms := time.Millisecond
	for _, tt := range []struct {
		name string
		e    Ending
		want string
	}{
		{"none", Ending{Reason: "interrupted", Steps: 2, Seed: 9}, "no verdict: interrupted; after 2 steps, seed 9\n"},
		{"exact quiescence", Ending{Verdict: "Pass", Reason: "reached Pass", Steps: 3, Seed: 1},
			"verdict: Pass (reached Pass) after 3 steps, seed 1\n"},
		{"window", Ending{Verdict: "Fail", Reason: "r", Steps: 1, Seed: 4, Window: 200 * ms, Latencies: []time.Duration{3 * ms, ms, 2 * ms}},
			"verdict: Fail (r) after 1 steps, seed 4\nquiescence window 200ms; latency min 1ms, median 2ms, max 3ms (3 outputs)\n"},
		{"window, no output", Ending{Verdict: "Inconc", Reason: "r", Window: 200 * ms},
			"verdict: Inconc (r) after 0 steps, seed 0\nquiescence window 200ms; no latency measured\n"},
	} {
		var b strings.Builder
		if err := tt.e.Write(&b); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, b.String(), tt.want)
		}
	}
}

// TestTraceEnding: a run's trace ends with its Ending, WeakPass included:
// the verdict, then the window with the latencies summarised.
func TestTraceEnding(t *testing.T) {
	res := &Result{Verdict: WeakPass, Reason: "r", Seed: 3, Window: 250 * time.Millisecond,
		Latencies: []time.Duration{time.Millisecond, 5 * time.Millisecond}}
	want := "verdict: WeakPass (r) after 0 steps, seed 3\nquiescence window 250ms; latency min 1ms, median 5ms, max 5ms (2 outputs)\n"
	if got := res.TraceString(); !strings.HasSuffix(got, want) {
		t.Errorf("got %q, want it to end with %q", got, want)
	}
	res = &Result{Reason: "interrupted", Seed: 3}
	if got := res.TraceString(); !strings.HasSuffix(got, "no verdict: interrupted; after 0 steps, seed 3\n") {
		t.Errorf("no verdict: got %q", got)
	}
}
