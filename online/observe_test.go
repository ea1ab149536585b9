package online

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// twoWaysSpec: after go?, a! is explained by big (m >= 10, the target)
// and by small (m < 10), m being free: WeakPass. The later outputs tell
// them apart: ok! only after big, fin!(v) with v == 1 after big and
// v >= 1 after small.
const twoWaysSpec = `kind: spec
name: twoways
variables: {m: int}
actions:
  go:  {dir: input}
  a:   {dir: output}
  ok:  {dir: output}
  fin: {dir: output, params: {v: int}}
initial: {location: q0}
transitions:
  - {name: go,       from: q0, action: go,  to: q1}
  - {name: big,      from: q1, action: a,   guard: m >= 10, to: q2}
  - {name: small,    from: q1, action: a,   guard: m < 10,  to: q3}
  - {name: ok,       from: q2, action: ok,  to: q4}
  - {name: finBig,   from: q2, action: fin, guard: v == 1, to: q4}
  - {name: finSmall, from: q3, action: fin, guard: v >= 1, to: q4}
`

// answers is an in-process SUT that answers go? with its outputs.
type answers []adapter.Output

func (a answers) Input(action string, _ map[string]expr.Value) ([]adapter.Output, error) {
	if action != "go" {
		return nil, fmt.Errorf("unknown input %s", action)
	}
	return a, nil
}

// observeCase is a SUT of twoWaysSpec, the verdict of its run observing
// after WeakPass and the run's trace.
type observeCase struct {
	name    string
	sut     answers
	verdict Verdict
	trace   string
}

// observeCases are the runs of TestObserveAfterWeakPass.
func observeCases() []observeCase {
	a := adapter.Output{Action: "a"}
	fin := func(v int) adapter.Output { return adapter.Output{Action: "fin", Args: map[string]any{"v": v}} }
	return []observeCase{
		{"ok", answers{a, {Action: "ok"}}, Pass, "  go?: rule 6\n  a!: rule 5\n  ok!: observing\n"},
		{"fin 1", answers{a, fin(1)}, WeakPass, "  go?: rule 6\n  a!: rule 5\n  fin!1: observing\n  delta!: observing\n"},
		{"fin 2", answers{a, fin(2)}, Inconc, "  go?: rule 6\n  a!: rule 5\n  fin!2: observing\n"},
		{"fin 0", answers{a, fin(0)}, Fail, "  go?: rule 6\n  a!: rule 5\n  fin!0: rule 2\n"},
		{"a only", answers{a}, Fail, "  go?: rule 6\n  a!: rule 5\n  delta!: rule 2\n"},
	}
}

// TestObserveAfterWeakPass: a! gives WeakPass; with AfterWeakPass
// Observe the run goes on observing, and the later outputs decide: ok!
// leaves only the accepted explanation (Pass), fin!(1) both (WeakPass on
// the quiescence after it), fin!(2) only the other (Inconc), fin!(0)
// none (Fail, an unspecified output). With Stop every run ends WeakPass
// on a!. In process: quiescence is exact, no timer.
func TestObserveAfterWeakPass(t *testing.T) {
	tr := crossTester(t, twoWaysSpec, "go big")
	for _, c := range observeCases() {
		stop, err := NewRunner(tr, Options{}).Run(context.Background(), adapter.InProcess(c.sut), 1)
		if err != nil {
			t.Fatal(err)
		}
		if stop.Verdict != WeakPass || traceOf(stop) != "  go?: rule 6\n  a!: rule 5\n" {
			t.Errorf("%s, stop: %s (%s)\n%s", c.name, stop.Verdict, stop.Reason, traceOf(stop))
		}
		res, err := NewRunner(tr, Options{AfterWeakPass: Observe}).Run(context.Background(), adapter.InProcess(c.sut), 1)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != c.verdict || traceOf(res) != c.trace {
			t.Errorf("%s, observe: %s (%s), want %s\n%s", c.name, res.Verdict, res.Reason, c.verdict, traceOf(res))
		}
		if c.verdict != Fail && !strings.Contains(res.Reason, "after WeakPass on a!") {
			t.Errorf("%s: reason %q does not say where observation began", c.name, res.Reason)
		}
		if got := res.Trace[1].Transition; got != "rule 5, observe" {
			t.Errorf("%s: the WeakPass step's transition is %q", c.name, got)
		}
	}
}

// TestReplayObserving: the trace of each run of TestObserveAfterWeakPass
// observing after WeakPass, written as a trace file and read back, is
// judged by ReplayObserving to the run's verdict (Pass, WeakPass, Inconc,
// Fail), as stg verdict --after-weakpass observe judges a trace saved by
// stg run --after-weakpass observe; Replay stops at the WeakPass.
func TestReplayObserving(t *testing.T) {
	tr := crossTester(t, twoWaysSpec, "go big")
	m := tr.tp.x.Spec()
	for _, c := range observeCases() {
		res, err := NewRunner(tr, Options{AfterWeakPass: Observe}).Run(context.Background(), adapter.InProcess(c.sut), 1)
		if err != nil {
			t.Fatal(err)
		}
		var file bytes.Buffer
		for _, ev := range play.TraceEvents(res.Trace) {
			if err := specfile.WriteTraceEvent(&file, ev); err != nil {
				t.Fatal(err)
			}
		}
		tes, err := specfile.ReadTrace("t.jsonl", &file)
		if err != nil {
			t.Fatal(err)
		}
		var events []Event
		for _, te := range tes {
			ev, err := EventOf(m, te)
			if err != nil {
				t.Fatal(err)
			}
			events = append(events, ev)
		}
		steps, err := tr.ReplayObserving(events, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		last := steps[len(steps)-1]
		if res.Verdict != c.verdict || last.Verdict != res.Verdict || last.Reason != res.Reason || len(steps) != len(events) {
			t.Errorf("%s: run %s (%s), replay %s (%s) after %d of %d events", c.name, res.Verdict, res.Reason, last.Verdict, last.Reason, len(steps), len(events))
		}
		stop, err := tr.Replay(events, nil)
		if err != nil {
			t.Fatal(err)
		}
		if v := stop[len(stop)-1].Verdict; c.verdict != Fail && (v != WeakPass || len(stop) != 2) {
			t.Errorf("%s: Replay gives %s after %d events, want WeakPass after 2", c.name, v, len(stop))
		}
	}
}

// TestReplayObservingLimit: the limit-th observation after WeakPass is
// the last allowed, as in a run with ObserveLimit.
func TestReplayObservingLimit(t *testing.T) {
	tr := crossTester(t, twoWaysSpec, "go big")
	events := []Event{{Stim: true, Action: "go"}, {Action: "a"}, {Action: "fin", Args: map[string]expr.Value{"v": expr.IntValue(big.NewInt(1))}}}
	steps, err := tr.ReplayObserving(events, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := steps[len(steps)-1].Verdict; v != WeakPass || len(steps) != 3 {
		t.Errorf("limit 1: %s after %d steps, want WeakPass after 3", v, len(steps))
	}
	if _, err := tr.ReplayObserving(append(events[:2:2], Event{Stim: true, Action: "go"}), 0, nil); err == nil {
		t.Error("a stimulus after WeakPass is accepted")
	}
}

// TestObserveLimit: observation ends WeakPass after ObserveLimit
// observations that leave both kinds of explanations.
func TestObserveLimit(t *testing.T) {
	tr := crossTester(t, twoWaysSpec, "go big")
	sut := answers{{Action: "a"}, {Action: "fin", Args: map[string]any{"v": 1}}}
	res, err := NewRunner(tr, Options{AfterWeakPass: Observe, ObserveLimit: 1}).Run(context.Background(), adapter.InProcess(sut), 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != WeakPass || traceOf(res) != "  go?: rule 6\n  a!: rule 5\n  fin!1: observing\n" {
		t.Errorf("%s (%s)\n%s", res.Verdict, res.Reason, traceOf(res))
	}
}

// TestParseAfterWeakPass: stop and observe, nothing else.
func TestParseAfterWeakPass(t *testing.T) {
	for s, ok := range map[string]bool{"stop": true, "observe": true, "": false, "wait": false} {
		a, err := ParseAfterWeakPass(s)
		if (err == nil) != ok || ok && string(a) != s {
			t.Errorf("%q: %q, %v", s, a, err)
		}
	}
}
