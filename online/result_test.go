package online

import (
	"strings"
	"testing"
	"time"
)

// TestTraceEnding: an on-line run's trace ends as the STG route's
// (runner.Ending): the verdict, then the window with the latencies
// summarised.
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
