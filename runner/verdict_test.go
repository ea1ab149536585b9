package runner

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// lagging is an adapter to an in-process SUT whose outputs reach the
// tester one input late: the outputs caused by an input become visible
// only once the tester has sent the next one (or waits). It reproduces,
// without timers, an output that crosses the tester's next input on the
// wire.
type lagging struct {
	sut            adapter.SUT
	pending, later []adapter.Output
}

func (l *lagging) Send(ctx context.Context, in adapter.Input) error {
	outs, err := l.sut.Input(in.Action, in.Args)
	if err != nil {
		return err
	}
	l.pending = append(l.pending, l.later...)
	l.later = outs
	return nil
}

func (l *lagging) Receive(ctx context.Context, wait time.Duration) (*adapter.Output, error) {
	if wait > 0 {
		l.pending = append(l.pending, l.later...)
		l.later = nil
	}
	if len(l.pending) == 0 {
		return nil, nil
	}
	out := l.pending[0]
	l.pending = l.pending[1:]
	return &out, nil
}

func (l *lagging) Close() error { return nil }

// Started makes lagging a Timed adapter: its outputs travel on a wire.
func (l *lagging) Started() (time.Time, bool) { return time.Now(), true }

// raceSUT implements race.yaml: out once after go, done after stop.
type raceSUT struct{}

func (raceSUT) Input(action string, _ map[string]expr.Value) ([]adapter.Output, error) {
	switch action {
	case "go":
		return []adapter.Output{{Action: "out"}}, nil
	case "stop":
		return []adapter.Output{{Action: "done"}}, nil
	}
	return nil, nil
}

// TestOutputCrossesInput: the SUT's out, emitted before it read stop,
// arrives after the tester sent stop. Judged after stop it would be Fail;
// it was allowed before, so the run goes on and passes.
func TestOutputCrossesInput(t *testing.T) {
	r := newRunner(t, "race.yaml", DefaultOptions())
	for seed := int64(0); seed < 10; seed++ {
		res, err := r.Run(context.Background(), &lagging{sut: raceSUT{}}, seed)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Pass {
			t.Fatalf("seed %d: %s (%s), want Pass\n%s", seed, res.Verdict, res.Reason, res.TraceString())
		}
	}
	// Without the crossing, the same SUT passes too.
	res := runInProcess(t, r, raceSUT{}, 1)
	if res.Verdict != Pass {
		t.Fatalf("in order: %s (%s)\n%s", res.Verdict, res.Reason, res.TraceString())
	}
	// A second out is wrong in every interleaving: Fail.
	twice := adapter.SUTFunc(func(action string, _ map[string]expr.Value) ([]adapter.Output, error) {
		if action == "go" {
			return []adapter.Output{{Action: "out"}, {Action: "out"}}, nil
		}
		return []adapter.Output{{Action: "done"}}, nil
	})
	res, err := r.Run(context.Background(), &lagging{sut: twice}, 1)
	if err != nil || res.Verdict != Fail {
		t.Fatalf("two outs: %v %s (%s)\n%s", err, res.Verdict, res.Reason, res.TraceString())
	}
}

// looseSUT implements loose.yaml, starting from x: the k-th ask (from 0)
// answers val(x + k).
type looseSUT struct {
	x, k int64
	off  int64 // a fault: added to every answer
}

func (s *looseSUT) Input(action string, _ map[string]expr.Value) ([]adapter.Output, error) {
	v := s.x + s.k + s.off
	s.k++
	return []adapter.Output{{Action: "val", Args: map[string]any{"p": big.NewInt(v)}}}, nil
}

// TestLooseInitialCondition: the initial condition allows x in [0, 9]
// and says nothing of n; a conformant SUT may start from any of them, so
// the runner must not assume the solver's first model (x = 0).
func TestLooseInitialCondition(t *testing.T) {
	r := newRunner(t, "loose.yaml", DefaultOptions())
	for x := int64(0); x <= 9; x++ {
		res := runInProcess(t, r, &looseSUT{x: x}, x)
		if res.Verdict != Pass {
			t.Fatalf("x = %d: %s (%s), want Pass\n%s", x, res.Verdict, res.Reason, res.TraceString())
		}
	}
	for _, tt := range []struct {
		sut  *looseSUT
		want string
	}{
		{&looseSUT{x: 12}, "Fail on output val(p=12)"}, // x out of [0, 9]
		{&looseSUT{x: 4, off: 0}, ""},
	} {
		res := runInProcess(t, r, tt.sut, 3)
		if tt.want == "" {
			if res.Verdict != Pass {
				t.Errorf("x = %d: %s (%s)", tt.sut.x, res.Verdict, res.Reason)
			}
			continue
		}
		if res.Verdict != Fail || !strings.Contains(res.Reason, tt.want) {
			t.Errorf("x = %d: %s (%s), want Fail with %q\n%s", tt.sut.x, res.Verdict, res.Reason, tt.want, res.TraceString())
		}
	}
	// A SUT whose second answer is off: Fail once x is known.
	bad := &looseSUT{x: 5}
	bad2 := adapter.SUTFunc(func(a string, args map[string]expr.Value) ([]adapter.Output, error) {
		outs, err := bad.Input(a, args)
		if bad.k == 2 {
			outs[0].Args["p"] = big.NewInt(99)
		}
		return outs, err
	})
	res := runInProcess(t, r, bad2, 1)
	if res.Verdict != Fail {
		t.Errorf("wrong second answer: %s (%s)\n%s", res.Verdict, res.Reason, res.TraceString())
	}
}

// timedFake is a Timed adapter driven by a script, with no clock: each
// Receive with a positive wait pops the next scripted answer (nil is
// silence) and records the wait it was given.
type timedFake struct {
	sut     adapter.SUT
	pending []adapter.Output
	script  []*adapter.Output // answers of successive waits
	waits   []time.Duration
	heard   bool
	started time.Time
}

func (f *timedFake) Send(ctx context.Context, in adapter.Input) error {
	outs, err := f.sut.Input(in.Action, in.Args)
	f.pending = append(f.pending, outs...)
	return err
}

func (f *timedFake) Receive(ctx context.Context, wait time.Duration) (*adapter.Output, error) {
	if len(f.pending) > 0 {
		out := f.pending[0]
		f.pending = f.pending[1:]
		f.heard = true
		return &out, nil
	}
	if wait <= 0 {
		return nil, nil
	}
	f.waits = append(f.waits, wait)
	if len(f.script) == 0 {
		return nil, nil
	}
	out := f.script[0]
	f.script = f.script[1:]
	if out != nil {
		f.heard = true
	}
	return out, nil
}

func (f *timedFake) Close() error               { return nil }
func (f *timedFake) Started() (time.Time, bool) { return f.started, f.heard }

// TestQuiescenceConfirmed: a silence after which quiescence would be
// Fail is waited for again, up to Options.Confirm; a late output then
// counts as an output. The first wait, before the SUT was heard from,
// lasts at least the start-up allowance.
func TestQuiescenceConfirmed(t *testing.T) {
	r := newRunner(t, "cmp.yaml", DefaultOptions())
	late := &adapter.Output{Action: "ok", Args: map[string]any{"p": 2}}
	f := &timedFake{sut: &cmpSUT{mutant: "silent"}, script: []*adapter.Output{nil, late}, started: time.Now()}
	res, err := r.Run(context.Background(), f, 4)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict == Fail {
		t.Fatalf("a late output was taken for quiescence: %s\n%s", res.Reason, res.TraceString())
	}
	if len(f.waits) != 2 {
		t.Fatalf("waits %v: want the window, then the confirmation", f.waits)
	}
	if f.waits[0] < DefaultStartup-time.Second {
		t.Errorf("first wait %v: want the start-up allowance %v", f.waits[0], DefaultStartup)
	}
	if f.waits[1] < DefaultConfirm-time.Second {
		t.Errorf("confirmation %v: want about %v", f.waits[1], DefaultConfirm)
	}

	// Silence for the whole confirmation is quiescence: Fail, and the
	// trace says how long the SUT was silent.
	f = &timedFake{sut: &cmpSUT{mutant: "silent"}, heard: true, started: time.Now()}
	res, err = r.Run(context.Background(), f, 4)
	if err != nil || res.Verdict != Fail || !strings.Contains(res.Reason, "on quiescence") {
		t.Fatalf("%v %s (%s)\n%s", err, res.Verdict, res.Reason, res.TraceString())
	}
	if len(f.waits) != 2 || f.waits[0] != DefaultQuiescence {
		t.Errorf("waits %v: want the window %v (the SUT was heard from), then the confirmation", f.waits, DefaultQuiescence)
	}
}

// TestQuiescenceThatDecidesIsConfirmed: a silence the verdict depends on
// is confirmed, Pass as well as Fail: a SUT that answers after the window
// would make a Pass on quiescence false.
func TestQuiescenceThatDecidesIsConfirmed(t *testing.T) {
	src := `kind: testcase
name: quiet
variables: {}
actions:
  out:   {dir: receive}
  delta: {dir: receive}
initial: {location: A}
verdicts: {pass: [Pass], fail: [Fail], inconc: [Inconc]}
transitions:
  - {from: A, action: delta, to: Pass}
  - {from: A, action: out, to: Fail}
`
	m, err := specfile.ParseModel("quiet.yaml", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(m, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f := &timedFake{sut: raceSUT{}, heard: true, started: time.Now()}
	res, err := r.Run(context.Background(), f, 1)
	if err != nil || res.Verdict != Pass {
		t.Fatalf("%v %s (%s)", err, res.Verdict, res.Reason)
	}
	if len(f.waits) != 2 || f.waits[0] != DefaultQuiescence {
		t.Errorf("waits %v, want one window of %v, then the confirmation", f.waits, DefaultQuiescence)
	}
	if last := res.Trace[len(res.Trace)-1]; last.Unconfirmed {
		t.Errorf("the deciding silence is marked unconfirmed: %+v", last)
	}
}
