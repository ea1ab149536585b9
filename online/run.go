package online

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// Defaults of Options, as for stg run.
const (
	DefaultQuiescence    = adapter.DefaultQuiescence
	DefaultConfirm       = adapter.DefaultConfirm
	DefaultStartup       = adapter.DefaultStartup
	DefaultLatencyFactor = adapter.DefaultLatencyFactor
	DefaultMaxSteps      = 1000
	DefaultTimeout       = time.Minute
	DefaultTries         = 32
)

// Options control on-line runs. Zero fields take the defaults.
type Options struct {
	// Timing is the quiescence policy of adapter.Listener (window,
	// calibration from latencies, confirmation of a silence that would
	// be Fail, start-up allowance). It applies to adapter.Timed adapters
	// only: the others have exact quiescence.
	adapter.Timing
	// MaxSteps and Timeout bound a run, which then ends Inconc.
	MaxSteps int
	Timeout  time.Duration
	// Tries bounds the solver searches for a stimulus in one step.
	Tries int
}

func (o Options) withDefaults() Options {
	o.Timing = o.Timing.WithDefaults()
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	if o.Tries <= 0 {
		o.Tries = DefaultTries
	}
	return o
}

// Result is the outcome of one on-line run.
type Result struct {
	Verdict Verdict
	Reason  string
	Seed    int64
	Steps   []*Step
	// Trace is the run as a trace file holds it (FORMAT.md §5): what
	// stg verdict replays to the same verdict.
	Trace   []spec.TraceEvent
	Elapsed time.Duration
	// Window is the quiescence window of the last wait (Timed adapters),
	// Latencies the response latencies measured in the run.
	Window    time.Duration
	Latencies []time.Duration
}

// A Runner plays on-line runs of a Tester against SUTs, one at a time.
// It keeps the largest latency measured over its runs, the base of the
// automatic quiescence window.
type Runner struct {
	t    *Tester
	opts Options
	cal  adapter.Calibration
}

// NewRunner returns a Runner of t's purpose.
func NewRunner(t *Tester, opts Options) *Runner {
	return &Runner{t: t, opts: opts.withDefaults()}
}

// execution is the state of one run.
type execution struct {
	r      *Runner
	t      *Tester
	sut    adapter.Adapter
	rng    *rand.Rand
	sc     []Context
	res    *Result
	listen *adapter.Listener // waits for outputs, measures latencies
	s      *solver.Solver    // the run's solver for stimuli (stimulus.go)
}

// Run plays one run against sut with the inference rules, the seed
// fixing every choice of the tester. It returns an error (with the run
// so far) when the SUT cannot be talked to or dies, or ctx is cancelled;
// the run's own limits (Options.MaxSteps, Options.Timeout) end it
// Inconc. Run does not close sut.
func (r *Runner) Run(ctx context.Context, sut adapter.Adapter, seed int64) (*Result, error) {
	start := time.Now()
	x := &execution{r: r, t: r.t, sut: sut, res: &Result{Seed: seed},
		rng:    rand.New(rand.NewPCG(uint64(seed), 0x6f6e6c696e65)),
		listen: adapter.NewListener(sut, r.opts.Timing, &r.cal)}
	defer func() { x.res.Latencies, x.res.Window = x.listen.Latencies, x.listen.Window() }()
	defer x.closeSolver()
	runCtx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	err := x.run(ctx, runCtx)
	x.res.Elapsed = time.Since(start)
	return x.res, err
}

func (x *execution) run(ctx, runCtx context.Context) error {
	sc, err := x.t.Start()
	if err != nil {
		return err
	}
	x.sc = sc
	for x.res.Verdict == None {
		if len(x.res.Steps) >= x.r.opts.MaxSteps {
			return x.end(Inconc, fmt.Sprintf("step limit: %d steps without a verdict", x.r.opts.MaxSteps))
		}
		if runCtx.Err() != nil {
			return x.stopped(ctx)
		}
		// An output already emitted comes first.
		out, err := x.sut.Receive(runCtx, 0)
		if err != nil {
			return x.receiveFailed(ctx, err)
		}
		if out != nil {
			if err := x.observe(out); err != nil {
				return err
			}
			continue
		}
		ev, st, err := x.stimulus()
		if err != nil {
			return x.failed(ctx, runCtx, err)
		}
		if ev != nil {
			if err := x.send(runCtx, ev, st); err != nil {
				return x.failed(ctx, runCtx, err)
			}
			continue
		}
		if err := x.wait(ctx, runCtx); err != nil {
			return err
		}
	}
	return nil
}

// failed ends the run on err, or Inconc when the run's time is up.
func (x *execution) failed(ctx, runCtx context.Context, err error) error {
	if runCtx.Err() != nil {
		return x.stopped(ctx)
	}
	return err
}

func (x *execution) end(v Verdict, reason string) error {
	x.res.Verdict, x.res.Reason = v, reason
	return nil
}

// stopped ends a run whose context ended: Inconc when the run's time
// limit struck, an error when the caller cancelled.
func (x *execution) stopped(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return x.end(Inconc, fmt.Sprintf("time limit: no verdict within %v", x.r.opts.Timeout))
}

func (x *execution) receiveFailed(ctx context.Context, err error) error {
	var oe *adapter.OutputError
	switch {
	case errors.As(err, &oe):
		return x.step(Event{Action: "(unreadable output)", Bad: oe.Error()}, nil)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return x.stopped(ctx)
	}
	return err
}

// observe takes an output of the SUT.
func (x *execution) observe(out *adapter.Output) error {
	x.listen.Took(out)
	return x.step(outputEvent(x.t.tp.x.Spec(), out), out.Args)
}

// step applies the rule for an observation and records it.
func (x *execution) step(ev Event, raw map[string]any) error {
	st, err := x.t.Apply(x.sc, ev)
	if err != nil {
		return err
	}
	x.record(st, raw)
	return nil
}

// record appends st to the run and moves to its result.
func (x *execution) record(st *Step, raw map[string]any) {
	x.res.Steps = append(x.res.Steps, st)
	x.res.Trace = append(x.res.Trace, st.Event.TraceEvent(raw))
	if st.Verdict != None {
		x.res.Verdict, x.res.Reason = st.Verdict, st.Reason
		return
	}
	x.sc = st.SC
}

// send delivers a stimulus and applies rule 6 (st, computed when it was
// chosen).
func (x *execution) send(ctx context.Context, ev *Event, st *Step) error {
	in := adapter.Input{Action: ev.Action, Args: ev.Args}
	if err := x.sut.Send(ctx, in); err != nil {
		return err
	}
	x.listen.Sent()
	x.record(st, nil)
	return nil
}
