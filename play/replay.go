package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// Replaying a run (stg run --replay, and the candidates of shrinking)
// plays a fixed sequence of stimuli instead of choosing them: the SUT's
// outputs are judged by the oracle as in any run, so a replay gives a
// sound verdict of its own.

// Script is what a replayed run does: it sends the stimuli in order,
// each after its observations, then observes the SUT until a verdict or
// until the SUT stays quiescent where it is.
type Script []Stimulus

// ScriptOf returns the stimuli of a run's trace, each with the
// observations made before it (a retracted quiescence is not one).
func ScriptOf(trace []Step) Script {
	var sc Script
	waits := 0
	for _, s := range trace {
		if s.Retracted {
			continue
		}
		if s.Kind != Sent {
			waits++
			continue
		}
		sc = append(sc, Stimulus{Action: s.Action, Args: s.args(), Waits: waits})
		waits = 0
	}
	return sc
}

// ScriptFromTrace returns the stimuli of a trace file's events, typed
// against the stimuli of route. An event that sends what the route does
// not send, or ill-typed arguments, is an error FILE:LINE: message.
func ScriptFromTrace(route Route, filename string, events []specfile.TraceEvent) (Script, error) {
	var sc Script
	var errs expr.ErrorList
	waits := 0
	for _, ev := range events {
		if !ev.Send {
			waits++
			continue
		}
		pos := expr.Pos{File: filename, Line: ev.Line, Col: 1}
		a := route.Stimulus(ev.Action)
		if a == nil {
			errs = append(errs, &expr.Error{Pos: pos, Msg: fmt.Sprintf("%s is not an input that %s sends", ev.Action, route.Name())})
			continue
		}
		args, err := adapter.DecodeArgs(a, ev.Args)
		if err != nil {
			errs = append(errs, &expr.Error{Pos: pos, Msg: fmt.Sprintf("arguments of %s: %v", ev.Action, err)})
			continue
		}
		sc = append(sc, Stimulus{Action: ev.Action, Args: args, Waits: waits})
		waits = 0
	}
	return sc, errs.Err()
}

// A StimulusError reports a stimulus of a replay that the oracle does
// not allow where the run is.
type StimulusError struct {
	Index    int // from 1
	Stimulus Stimulus
	Location string
	State    string
}

func (e *StimulusError) Error() string {
	return fmt.Sprintf("stimulus %d, %s, is not allowed by the test in %s: the run went another way than the one replayed",
		e.Index, e.Stimulus, e.Where())
}

// Where says where the replay was: the location, and the state after the
// last step when there was one.
func (e *StimulusError) Where() string {
	if e.State == "" {
		return e.Location
	}
	return e.Location + " (" + e.State + ")"
}

// Replay plays the script against sut: each stimulus after its recorded
// observations and the outputs already emitted. Exact replay (adapt
// false) sends the values recorded; a stimulus the oracle does not allow
// at that point (with those values) ends the replay with a
// *StimulusError. An adapting replay (shrinking) waits for more
// observations until the stimulus is allowed and solves its values
// afresh, as close to the recorded ones as the oracle allows, when those
// are not allowed; a stimulus it cannot send still ends it with a
// *StimulusError. Other errors are those of Run.
func (e *Engine) Replay(ctx context.Context, sut adapter.Adapter, sc Script, adapt bool) (*Result, error) {
	return e.play(ctx, sut, 0, func(x *run) error { return x.script(sc, adapt) })
}

// ReplayOnce starts a SUT with start, replays sc against it and releases
// the SUT, as RunOnce does.
func ReplayOnce(ctx context.Context, e *Engine, start adapter.Starter, sc Script, adapt bool) (*Result, error) {
	sut, err := startSUT(ctx, start)
	if err != nil {
		return nil, err
	}
	defer sut.Close()
	return e.Replay(ctx, sut, sc, adapt)
}

// RunOnce starts a SUT with start, plays one run of e against it with
// seed, and releases the SUT. A SUT that cannot be started is an error
// wrapping adapter.ErrSUTUnavailable.
func RunOnce(ctx context.Context, e *Engine, start adapter.Starter, seed int64) (*Result, error) {
	sut, err := startSUT(ctx, start)
	if err != nil {
		return nil, err
	}
	defer sut.Close()
	return e.Run(ctx, sut, seed)
}

func startSUT(ctx context.Context, start adapter.Starter) (adapter.Adapter, error) {
	sut, err := start(ctx)
	if err != nil && !errors.Is(err, adapter.ErrSUTUnavailable) {
		err = fmt.Errorf("%w: %v", adapter.ErrSUTUnavailable, err)
	}
	return sut, err
}

// script plays the stimuli of sc, then observes until a verdict.
func (x *run) script(sc Script, adapt bool) error {
	for i, st := range sc {
		for k := 0; k < st.Waits && x.res.Verdict == None; k++ {
			if _, err := x.observeOne(); err != nil {
				return err
			}
		}
		if err := x.drain(); err != nil || x.res.Verdict != None {
			return err
		}
		c, err := x.o.Allow(st, adapt)
		for err == nil && c == nil && adapt && x.res.Verdict == None {
			var moved bool
			if moved, err = x.observeOne(); err != nil || !moved {
				break
			}
			c, err = x.o.Allow(st, adapt)
		}
		switch {
		case err != nil:
			return x.failed(err)
		case x.res.Verdict != None:
			return nil
		case c == nil:
			return &StimulusError{Index: i + 1, Stimulus: st, Location: x.o.Where(), State: x.lastState()}
		}
		if err := x.send(*c); err != nil {
			return x.failed(err)
		}
		if x.res.Verdict != None {
			return nil
		}
	}
	for x.res.Verdict == None {
		moved, err := x.observeOne()
		if err != nil {
			return err
		}
		if !moved && x.res.Verdict == None {
			return x.end(Inconc, "the replayed stimuli ended without a verdict: the SUT stays quiescent")
		}
	}
	return nil
}

// lastState is the state after the last step, as the oracle described
// it ("" before the first step).
func (x *run) lastState() string {
	if n := len(x.res.Trace); n > 0 {
		return x.res.Trace[n-1].State
	}
	return ""
}

// observeOne makes one observation: an output already emitted, or one
// waited for, or quiescence. moved is false when it was quiescence that
// left the run where it was (nothing more will happen without a
// stimulus) or when the run ended.
func (x *run) observeOne() (moved bool, err error) {
	if done, err := x.limited(); done {
		return false, err
	}
	before := x.o.Key()
	out, err := x.sut.Receive(x.runCtx, 0)
	if err != nil {
		return false, x.receiveFailed(err)
	}
	if out != nil {
		return x.res.Verdict == None, x.observe(out)
	}
	n := len(x.res.Trace)
	if err := x.wait(); err != nil {
		return false, err
	}
	if x.res.Verdict != None {
		return false, nil
	}
	quiet := len(x.res.Trace) > n && x.res.Trace[len(x.res.Trace)-1].Kind == Quiescence
	return !quiet || x.o.Key() != before, nil
}

// drain takes the outputs the SUT has already emitted.
func (x *run) drain() error {
	for x.res.Verdict == None {
		out, err := x.sut.Receive(x.runCtx, 0)
		if err != nil {
			return x.receiveFailed(err)
		}
		if out == nil {
			return nil
		}
		if err := x.observe(out); err != nil {
			return err
		}
	}
	return nil
}

// Judge replays a recorded trace without a SUT: the stimuli are sent as
// recorded and the SUT's recorded outputs and quiescence are judged by
// the oracle, as a run would have judged them. It gives the verdict the
// recorded run had, for comparison with a replay against the SUT.
func (e *Engine) Judge(ctx context.Context, filename string, events []specfile.TraceEvent) (*Result, error) {
	sc, err := ScriptFromTrace(e.route, filename, events)
	if err != nil {
		return nil, err
	}
	return e.Replay(ctx, &recorded{events: events}, sc, false)
}

// recorded plays back the outputs of a trace: an adapter with exact
// quiescence (a recorded delta is taken by a wait).
type recorded struct {
	events []specfile.TraceEvent
	i      int
}

func (a *recorded) Send(ctx context.Context, in adapter.Input) error {
	for a.i < len(a.events) && !a.events[a.i].Send {
		a.i++ // outputs the replay did not wait for: not observed
	}
	if a.i < len(a.events) {
		a.i++
	}
	return ctx.Err()
}

func (a *recorded) Receive(ctx context.Context, wait time.Duration) (*adapter.Output, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if a.i >= len(a.events) || a.events[a.i].Send {
		return nil, nil
	}
	ev := a.events[a.i]
	if ev.Action == spec.Delta {
		if wait > 0 {
			a.i++
		}
		return nil, nil
	}
	a.i++
	return &adapter.Output{Action: ev.Action, Args: ev.Args}, nil
}

func (a *recorded) Close() error { return nil }

// crossing: the recorded outputs may have crossed the recorded inputs,
// as they did in the run (which a trace file does not say); judging them
// in queued semantics gives the run's verdict, never a Fail it did not
// give.
func (a *recorded) crossing() {}
