package play

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// pingRoute is a route of n pings: the oracle sends ping, expects pong,
// and passes after n pongs; any other output fails. It is not a
// Retracter. begun counts the oracles made.
type pingRoute struct {
	n     int
	begun atomic.Int64
}

var (
	pingAction = &spec.Action{Name: "ping", Dir: spec.Input}
	pongAction = &spec.Action{Name: "pong", Dir: spec.Output}
)

func (r *pingRoute) Name() string { return "ping" }
func (r *pingRoute) Stimulus(name string) *spec.Action {
	if name == "ping" {
		return pingAction
	}
	return nil
}
func (r *pingRoute) Begin(seed int64, timed bool) (Oracle, error) {
	r.begun.Add(1)
	return &pingOracle{n: r.n}, nil
}

type pingOracle struct {
	n, pongs int
	waiting  bool // a ping sent, its pong not yet seen
}

func (o *pingOracle) Output(name string) *spec.Action {
	if name == "pong" {
		return pongAction
	}
	return nil
}

func (o *pingOracle) Observe(obs Observation) (Judgement, error) {
	switch {
	case obs.Quiet && o.waiting:
		return Judgement{Verdict: Fail, Reason: "no pong"}, nil
	case obs.Quiet:
		return Judgement{Transition: "quiet", To: o.loc()}, nil
	case !o.waiting:
		return Judgement{Verdict: Fail}, nil
	}
	o.waiting = false
	o.pongs++
	if o.pongs == o.n {
		return Judgement{Verdict: Pass, Transition: "pong", To: "done"}, nil
	}
	return Judgement{Transition: "pong", To: o.loc()}, nil
}

func (o *pingOracle) Quiet() (Verdict, error) {
	if o.waiting {
		return Fail, nil
	}
	return None, nil
}

func (o *pingOracle) Choose(context.Context) (*Stimulus, error) {
	if o.waiting {
		return nil, nil
	}
	return &Stimulus{Action: "ping"}, nil
}

func (o *pingOracle) Allow(st Stimulus, adapt bool) (*Stimulus, error) {
	if st.Action != "ping" || o.waiting {
		return nil, nil
	}
	return &st, nil
}

func (o *pingOracle) Send(Stimulus) (Judgement, error) {
	o.waiting = true
	return Judgement{Transition: "ping", To: o.loc()}, nil
}

func (o *pingOracle) loc() string   { return fmt.Sprintf("p%d", o.pongs) }
func (o *pingOracle) Where() string { return o.loc() }
func (o *pingOracle) Key() string   { return fmt.Sprint(o.pongs, o.waiting) }
func (o *pingOracle) Close()        {}
func pongs(string, map[string]expr.Value) ([]adapter.Output, error) {
	return []adapter.Output{{Action: "pong"}}, nil
}

// TestEngineLoop: the engine plays the oracle's stimuli, judges each
// output, ends at the first verdict, and says how it got there.
func TestEngineLoop(t *testing.T) {
	e := New(&pingRoute{n: 3}, Options{})
	res, err := e.Run(context.Background(), adapter.InProcess(adapter.SUTFunc(pongs)), 7)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Pass || len(res.Trace) != 6 || res.Seed != 7 || res.Reason != "reached Pass on output pong" {
		t.Fatalf("%s (%s), %d steps\n%s", res.Verdict, res.Reason, len(res.Trace), res.TraceString())
	}
	bad := adapter.SUTFunc(func(string, map[string]expr.Value) ([]adapter.Output, error) {
		return []adapter.Output{{Action: "boom\x1b[31m"}}, nil
	})
	res, err = e.Run(context.Background(), adapter.InProcess(bad), 1)
	if err != nil || res.Verdict != Fail || !strings.Contains(res.Reason, "unspecified output") {
		t.Fatalf("unknown output: %v %s (%s)", err, res.Verdict, res.Reason)
	}
	if strings.Contains(res.TraceString(), "\x1b") {
		t.Errorf("the SUT's escape sequence reached the trace table:\n%q", res.TraceString())
	}
}

// TestEngineLimits: a run that reaches its step limit ends Inconc; a
// cancelled context is an error, not a verdict.
func TestEngineLimits(t *testing.T) {
	e := New(&pingRoute{n: 100}, Options{MaxSteps: 5})
	res, err := e.Run(context.Background(), adapter.InProcess(adapter.SUTFunc(pongs)), 1)
	if err != nil || res.Verdict != Inconc || !strings.Contains(res.Reason, "step limit") {
		t.Fatalf("%v %s (%s)", err, res.Verdict, res.Reason)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Run(ctx, adapter.InProcess(adapter.SUTFunc(pongs)), 1); err == nil {
		t.Error("a cancelled run gave no error")
	}
}

// TestCampaignWorkers: a campaign played on several workers gives every
// run of its shard, in order, each with its seed, one oracle per run.
func TestCampaignWorkers(t *testing.T) {
	route := &pingRoute{n: 2}
	var es []*Engine
	for range 3 {
		es = append(es, New(route, Options{}))
	}
	start := func(context.Context) (adapter.Adapter, error) { return adapter.InProcess(adapter.SUTFunc(pongs)), nil }
	c := Campaign{Seed: 100, Runs: 10, Shard: Shard{2, 3}, Start: start}
	var got []string
	c.Play(context.Background(), es, func(p Played) bool {
		if p.Err != nil || p.Res.Verdict != Pass || p.Res.Seed != p.Seed {
			t.Errorf("run %d: %v %v", p.Run, p.Err, p.Res)
		}
		got = append(got, fmt.Sprintf("%d:%d", p.Run, p.Seed))
		return true
	})
	if want := "2:101 5:104 8:107"; strings.Join(got, " ") != want {
		t.Errorf("runs %v, want %s", got, want)
	}
	if route.begun.Load() != 3 {
		t.Errorf("%d oracles for 3 runs", route.begun.Load())
	}
}

// TestReplayScript: a replay sends the script's stimuli, each after its
// recorded observations; a stimulus the oracle does not allow is a
// StimulusError.
func TestReplayScript(t *testing.T) {
	e := New(&pingRoute{n: 2}, Options{})
	sut := adapter.InProcess(adapter.SUTFunc(pongs))
	res, err := e.Replay(context.Background(), sut, Script{{Action: "ping"}, {Action: "ping", Waits: 1}}, false)
	if err != nil || res.Verdict != Pass {
		t.Fatalf("%v %v", err, res)
	}
	_, err = e.Replay(context.Background(), sut, Script{{Action: "ping"}, {Action: "pang", Waits: 1}}, false)
	var se *StimulusError
	if !errors.As(err, &se) || se.Index != 2 {
		t.Fatalf("err = %v, want a StimulusError on stimulus 2", err)
	}
}
