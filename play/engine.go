package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
)

// ErrUndecided is wrapped by the errors of an oracle that cannot decide
// what it needs (every candidate value refuted and the solver unknown,
// say): the run ends Inconc with the error as its reason, never Fail and
// never an error of the run.
var ErrUndecided = errors.New("no value decided")

// An Engine plays the runs of one test against SUTs, one at a time: the
// one loop of stg, whatever the route that judges (see the package
// documentation). It keeps the largest latency measured over its runs,
// the base of the automatic quiescence window; use it from one goroutine
// at a time.
type Engine struct {
	route Route
	opts  Options
	cal   adapter.Calibration
}

// New returns an Engine playing route's test with opts.
func New(route Route, opts Options) *Engine {
	return &Engine{route: route, opts: *opts.EnsureDefaults()}
}

// Route returns the route the engine plays.
func (e *Engine) Route() Route { return e.route }

// Options returns the engine's options, defaults set.
func (e *Engine) Options() Options { return e.opts }

// run is the state of one run.
type run struct {
	e       *Engine
	o       Oracle
	sut     adapter.Adapter
	listen  *adapter.Listener
	res     *Result
	ctx     context.Context // the caller's: its end is an error
	runCtx  context.Context // the run's: its end is Inconc
	pending []pending       // quiescences concluded without confirmation since the last output
}

// A crossing adapter has exact quiescence, but its outputs may have
// crossed the inputs sent (a recorded trace of a run over a stream): the
// oracle judges them in queued semantics.
type crossing interface{ crossing() }

// pending is a quiescence concluded after the window only: the step that
// records it and what the oracle knew before it.
type pending struct {
	step int
	snap any
}

// Run plays the test once against sut, the seed fixing every choice of
// the tester. It returns an error (and the trace so far) when the SUT
// cannot be talked to (adapter.ErrSUTUnavailable, an *adapter.ExitError
// for a SUT that died), when ctx is cancelled, or when the oracle cannot
// go on (a guard that cannot be evaluated). Run does not close sut.
func (e *Engine) Run(ctx context.Context, sut adapter.Adapter, seed int64) (*Result, error) {
	return e.play(ctx, sut, seed, func(x *run) error { return x.loop() })
}

// play sets a run up, plays it with body and fills in its result.
func (e *Engine) play(ctx context.Context, sut adapter.Adapter, seed int64, body func(*run) error) (res *Result, err error) {
	start := time.Now()
	_, timed := sut.(adapter.Timed)
	_, crosses := sut.(crossing)
	o, err := e.route.Begin(seed, timed || crosses)
	if err != nil {
		return nil, err
	}
	defer o.Close()
	x := &run{e: e, o: o, sut: sut, res: &Result{Seed: seed}, ctx: ctx,
		listen: adapter.NewListener(sut, e.opts.Timing, &e.cal)}
	runCtx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	x.runCtx = runCtx
	defer func() {
		// The engine must never take its caller down; a panic here is a
		// bug, reported as an error of the run.
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in the test engine: %v", p)
		}
		x.res.Location = o.Where()
		x.res.Elapsed = time.Since(start)
		x.res.Latencies = x.listen.Latencies
		x.res.Window = x.listen.Window()
		res = x.res
	}()
	return x.res, body(x)
}

// loop plays the run: an output already emitted comes first (it happened
// before anything the tester would send now); otherwise the oracle's
// stimulus; otherwise a wait, whose silence is quiescence.
func (x *run) loop() error {
	for x.res.Verdict == None {
		if done, err := x.limited(); done {
			return err
		}
		out, err := x.sut.Receive(x.runCtx, 0)
		if err != nil {
			return x.receiveFailed(err)
		}
		if out != nil {
			if err := x.observe(out); err != nil {
				return err
			}
			continue
		}
		st, err := x.o.Choose(x.runCtx)
		if err != nil {
			return x.failed(err)
		}
		if st != nil {
			if err := x.send(*st); err != nil {
				return x.failed(err)
			}
			continue
		}
		if err := x.wait(); err != nil {
			return err
		}
	}
	return nil
}

// limited ends a run that reached its step or time limit.
func (x *run) limited() (bool, error) {
	if n := x.e.opts.MaxSteps; len(x.res.Trace) >= n {
		return true, x.end(Inconc, fmt.Sprintf("step limit: %d steps without a verdict", n))
	}
	if x.runCtx.Err() != nil {
		return true, x.stopped("")
	}
	return false, nil
}

func (x *run) end(v Verdict, reason string) error {
	x.res.Verdict, x.res.Reason = v, reason
	return nil
}

// failed ends the run on an error of the oracle or of a send: Inconc
// when the run's time is up or the oracle could not decide, the error
// otherwise.
func (x *run) failed(err error) error {
	switch {
	case x.runCtx.Err() != nil:
		return x.stopped(err.Error())
	case errors.Is(err, ErrUndecided):
		return x.end(Inconc, err.Error())
	}
	return err
}

// stopped ends a run whose context ended: Inconc when the run's own time
// limit struck, an error when the caller cancelled.
func (x *run) stopped(detail string) error {
	if err := x.ctx.Err(); err != nil {
		return err
	}
	reason := fmt.Sprintf("time limit: no verdict within %v", x.e.opts.Timeout)
	if detail != "" && detail != context.DeadlineExceeded.Error() {
		reason += " (" + detail + ")"
	}
	return x.end(Inconc, reason)
}

// receiveFailed handles an error of the SUT's output: a line that is not
// an output is an unspecified output (Fail); the end of the run's time
// is Inconc; anything else is an error of the run.
func (x *run) receiveFailed(err error) error {
	var oe *adapter.OutputError
	switch {
	case errors.As(err, &oe):
		loc := x.o.Where()
		x.res.Trace = append(x.res.Trace, Step{Kind: Received, From: loc, Note: oe.Error()})
		return x.end(Fail, "unspecified output: "+oe.Error())
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return x.stopped("")
	}
	return err
}

// decode types an output of the SUT against the oracle's actions: an
// unknown action or ill-typed arguments make an unspecified output.
func (x *run) decode(out *adapter.Output) (Observation, *spec.Action) {
	obs := Observation{Action: out.Action}
	a := x.o.Output(out.Action)
	switch {
	case out.Action == spec.Delta:
		obs.Bad = "delta is not an output: quiescence is observed, not emitted"
	case a == nil:
		obs.Bad = fmt.Sprintf("unknown action %q (not an output of the SUT in the test)", out.Action)
	default:
		args, err := adapter.DecodeArgs(a, out.Args)
		if err != nil {
			obs.Bad = "ill-typed arguments: " + err.Error()
		} else {
			obs.Args = args
		}
	}
	if obs.Bad != "" {
		obs.Raw = out.Args
	}
	return obs, a
}

// observe takes an output of the SUT.
func (x *run) observe(out *adapter.Output) error {
	obs, a := x.decode(out)
	loc := x.o.Where()
	step := Step{Kind: Received, From: loc, Action: out.Action, Args: Ordered(a, obs.Args), Note: obs.Bad, Raw: obs.Raw}
	if obs.Bad != "" {
		x.res.Trace = append(x.res.Trace, step)
		return x.end(Fail, "unspecified output: "+obs.Bad)
	}
	x.listen.Took(out)
	j, err := x.o.Observe(obs)
	if err != nil {
		return x.failed(err)
	}
	if j.Verdict == Fail && len(x.pending) > 0 {
		if j, err = x.late(obs, j); err != nil {
			return x.failed(err)
		}
	}
	x.pending = nil
	return x.conclude(step, j)
}

// conclude records step as j judges it, and ends the run on a verdict.
func (x *run) conclude(step Step, j Judgement) error {
	step.Transition, step.To, step.State, step.States, step.Detail = j.Transition, j.To, j.State, j.States, j.Detail
	x.res.Trace = append(x.res.Trace, step)
	if j.Verdict == None {
		return nil
	}
	reason := j.Reason
	if reason == "" {
		reason = x.reached(j.Verdict)
	}
	return x.end(j.Verdict, reason)
}

// send sends the stimulus and moves the oracle to its explanations. A
// send ends the run on any verdict but Fail (the SUT has done nothing
// wrong yet).
func (x *run) send(st Stimulus) error {
	loc := x.o.Where()
	step := Step{Kind: Sent, Action: st.Action, From: loc, Args: Ordered(x.e.route.Stimulus(st.Action), st.Args), Planned: st.Planned}
	if err := x.sut.Send(x.runCtx, adapter.Input{Action: st.Action, Args: st.Args}); err != nil {
		x.res.Trace = append(x.res.Trace, step)
		return err
	}
	x.listen.Sent()
	j, err := x.o.Send(st)
	if err != nil {
		return err
	}
	if j.Verdict == Fail {
		j.Verdict, j.Reason = Inconc, "the oracle found no explanation after a stimulus: "+j.Reason
	}
	return x.conclude(step, j)
}

// reached describes how the run reached its verdict.
func (x *run) reached(v Verdict) string {
	n := len(x.res.Trace)
	if n == 0 {
		return "reached " + v.String()
	}
	last := x.res.Trace[n-1]
	if v == Fail && last.Transition == "" {
		what := "output " + Describe(last)
		if last.Kind == Quiescence {
			what = fmt.Sprintf("quiescence (silent for %v)", last.Silence.Round(time.Millisecond))
		}
		return fmt.Sprintf("unspecified %s in %s: no transition of the test case accepts it", what, last.From)
	}
	s := "reached " + v.String()
	if v == Fail && last.To != "" {
		s = "reached " + last.To
	}
	switch last.Kind {
	case Received:
		s += " on output " + Describe(last)
	case Quiescence:
		s += " on quiescence"
		if last.Silence > 0 {
			s += fmt.Sprintf(" (silent for %v)", last.Silence.Round(time.Millisecond))
		}
	case Sent:
		s += " after sending " + Describe(last)
	}
	return s
}
