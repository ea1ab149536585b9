package online

import (
	"context"
	"strings"
	"testing"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec"
)

// crossTester returns a tester on the spec src (YAML) with one accept
// path per element of accept.
func crossTester(t testing.TB, src string, accept ...string) *Tester {
	t.Helper()
	sp := &spec.SymPurpose{Name: "cross", Spec: "spec.yaml"}
	for _, a := range accept {
		sp.Accept = append(sp.Accept, acceptPath(a))
	}
	z, m, _ := purposeOn(t, src, &spec.SymPurpose{Name: "any", Spec: "spec.yaml", Accept: sp.Accept})
	return testerOf(t, z, m, sp)
}

// noteSpec is testdata/note.yaml: note! is due once at the start, go?
// may come at any time, and done! answers go?.
const noteSpec = `kind: spec
name: note
variables: {n: int}
actions:
  go:   {dir: input}
  note: {dir: output}
  done: {dir: output}
initial: {location: a, condition: n == 0}
transitions:
  - {name: note, from: a, action: note, guard: n == 0, assign: {n: 1}, to: a}
  - {name: go,   from: a, action: go, to: b}
  - {name: done, from: b, action: done, to: c}
`

// TestCrossingOutputQueued: on a Timed SUT the tester sends go? at once,
// though note! is due; the SUT emits note! before it reads go? (the
// output crosses the input) and then done!. Judged after go?, note!
// would be unspecified (Fail); in queued semantics it is judged before
// go? too, and the run passes by [note, go, done]. With AvoidCrossing
// the tester waits for note! first, as it did before queued semantics.
// No timer: the fake SUT answers every wait at once.
func TestCrossingOutputQueued(t *testing.T) {
	tr := crossTester(t, noteSpec, "go done", "note go done")
	for _, c := range []struct {
		avoid bool
		trace string
	}{
		{false, "  go?: rule 6\n  note!: rule 1\n  done!: rule 4\n"},
		{true, "  note!: rule 1\n  go?: rule 6\n  done!: rule 4\n"},
	} {
		res, err := NewRunner(tr, Options{AvoidCrossing: c.avoid}).Run(context.Background(), &lazySUT{owe: []string{"note"}, done: true}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Pass || traceOf(res) != c.trace {
			t.Errorf("AvoidCrossing %v: %s (%s)\n%s", c.avoid, res.Verdict, res.Reason, traceOf(res))
		}
		if st := Steps(res); !c.avoid && st[1].InFlight != 1 {
			t.Errorf("note! judged with %d stimuli in flight, want 1", st[1].InFlight)
		}
	}
}

// TestCrossingMutantFails: a SUT that emits note! twice is caught, in
// queued semantics too: no prefix of the stimuli in flight allows the
// second note!.
func TestCrossingMutantFails(t *testing.T) {
	tr := crossTester(t, noteSpec, "go done", "note go done")
	res, err := NewRunner(tr, Options{}).Run(context.Background(), &lazySUT{owe: []string{"note", "note"}, done: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Fail || !strings.Contains(res.Reason, "note!: no context allows it") {
		t.Errorf("%s (%s)\n%s", res.Verdict, res.Reason, traceOf(res))
	}
}

// gateSpec: note! leads to z, where go? is not specified.
const gateSpec = `kind: spec
name: gate
variables: {}
actions:
  go:   {dir: input}
  note: {dir: output}
  tick: {dir: output}
  done: {dir: output}
initial: {location: a}
transitions:
  - {name: note, from: a, action: note, to: z}
  - {name: tick, from: z, action: tick, to: y}
  - {name: go,   from: a, action: go, to: b}
  - {name: done, from: b, action: done, to: c}
`

// TestCrossingLeavesSpecTraces: the SUT emits note! before it reads go?,
// then reads go? in z, where the spec does not specify it: its trace
// note! go? is not one of the spec, and ioco requires nothing after it.
// Its done! then ends the run Inconc, not Fail. A SUT that ticks instead
// passes.
func TestCrossingLeavesSpecTraces(t *testing.T) {
	tr := crossTester(t, gateSpec, "go done", "note tick")
	res, err := NewRunner(tr, Options{}).Run(context.Background(), &lazySUT{owe: []string{"note"}, done: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Inconc || !strings.Contains(res.Reason, "ioco requires nothing") {
		t.Errorf("%s (%s)\n%s", res.Verdict, res.Reason, traceOf(res))
	}
	res, err = NewRunner(tr, Options{}).Run(context.Background(), &lazySUT{owe: []string{"note", "tick"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Pass {
		t.Errorf("%s (%s)\n%s", res.Verdict, res.Reason, traceOf(res))
	}
}

// TestSnapshotWithQueue: Snapshot and Restore (play.Retracter) keep the
// stimuli in flight: after go? is sent, a snapshot, an output judged in
// queued semantics and a restore, the oracle is where it was, and judges
// the output again the same way.
func TestSnapshotWithQueue(t *testing.T) {
	tr := crossTester(t, noteSpec, "go done", "note go done")
	o, err := NewRunner(tr, Options{}).Begin(1, true)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	st, err := o.Choose(context.Background())
	if err != nil || st == nil || st.Action != "go" {
		t.Fatalf("Choose: %v %v", st, err)
	}
	if _, err := o.Send(*st); err != nil {
		t.Fatal(err)
	}
	r := o.(play.Retracter)
	key, snap := o.Key(), r.Snapshot()
	note := play.Observation{Action: "note"}
	j1, err := o.Observe(note)
	if err != nil || j1.Verdict != None {
		t.Fatalf("note!: %v %v (%s)", err, j1.Verdict, j1.Reason)
	}
	after := o.Key()
	r.Restore(snap)
	if o.Key() != key {
		t.Fatalf("restored to %q, want %q", o.Key(), key)
	}
	j2, err := o.Observe(note)
	if err != nil || j2.Verdict != j1.Verdict || j2.To != j1.To || o.Key() != after {
		t.Fatalf("again: %v %v %q, want %v %q", err, j2.Verdict, j2.To, j1.Verdict, j1.To)
	}
	if j, err := o.Observe(play.Observation{Action: "done"}); err != nil || j.Verdict != Pass {
		t.Fatalf("done!: %v %v (%s)", err, j.Verdict, j.Reason)
	}
}

// TestReplayQueued: the trace of TestCrossingOutputQueued, go? note!
// done!, passes off-line in queued semantics; the paper's rules, which
// judge note! after go?, fail it (Replay is for synchronous traces).
func TestReplayQueued(t *testing.T) {
	tr := crossTester(t, noteSpec, "go done", "note go done")
	evs := events(t, tr, "go? note! done!")
	for _, c := range []struct {
		replay func([]Event, func(int, []Context, *Step) error) ([]*Step, error)
		rules  []Rule
		want   Verdict
	}{
		{tr.ReplayQueued, []Rule{6, 1, 4}, Pass},
		{tr.Replay, []Rule{6, 2}, Fail},
	} {
		steps, err := c.replay(evs, nil)
		if err != nil {
			t.Fatal(err)
		}
		var rules []Rule
		for _, st := range steps {
			rules = append(rules, st.Rule)
		}
		if !equalRules(rules, c.rules) || steps[len(steps)-1].Verdict != c.want {
			t.Errorf("rules %v, verdict %s; want %v, %s", rules, steps[len(steps)-1].Verdict, c.rules, c.want)
		}
	}
}
