package online

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/summary"
)

// Defaults of Options.
const (
	DefaultMaxSteps = play.DefaultMaxSteps
	DefaultTimeout  = play.DefaultTimeout
	DefaultTries    = 32
)

// Options control on-line runs. Zero fields take the defaults.
type Options struct {
	// Options are the engine's: the quiescence policy, the step and time
	// limits of a run.
	play.Options
	// Tries bounds the solver searches for a stimulus in one step.
	Tries int
	// AvoidCrossing makes the tester, on a Timed adapter, send no
	// stimulus while some context allows an output of the SUT: it waits
	// for the output (or δ) instead, so that no output of a conformant
	// SUT crosses a stimulus. Without it the tester stimulates at once
	// and judges crossing outputs in queued semantics (queue.go).
	AvoidCrossing bool
	// NoSteer leaves out the steering of stimuli by the solutions of
	// the tables (stimulus.go, steer): the values are steered toward
	// table rows only (an ablation).
	NoSteer bool
	// AfterWeakPass says what a run does on WeakPass: Stop (the
	// default) ends it there; Observe stops stimulating and observes the
	// SUT's outputs and quiescence, up to ObserveLimit of them, so that
	// they tell the explanations apart (observe.go).
	AfterWeakPass AfterWeakPass
	// ObserveLimit bounds the observations after WeakPass with Observe
	// (DefaultObserveLimit).
	ObserveLimit int
}

// EnsureDefaults sets the zero fields of o to the defaults and returns o.
func (o *Options) EnsureDefaults() *Options {
	o.Options.EnsureDefaults()
	if o.Tries <= 0 {
		o.Tries = DefaultTries
	}
	if o.AfterWeakPass == "" {
		o.AfterWeakPass = Stop
	}
	if o.ObserveLimit <= 0 {
		o.ObserveLimit = DefaultObserveLimit
	}
	return o
}

// Result is the outcome of one on-line run: a run of the play engine,
// each step's Detail the *Step of the rule applied (Steps).
type Result = play.Result

// Steps returns the rule applications of an on-line run, in order.
func Steps(res *Result) []*Step {
	var out []*Step
	for _, s := range res.Trace {
		if st, ok := s.Detail.(*Step); ok {
			out = append(out, st)
		}
	}
	return out
}

// A Runner is the symbolic-purpose route of the play engine: it makes
// the oracle of each on-line run of a Tester (play.Route), and plays
// runs with its own engine.
type Runner struct {
	t    *Tester
	opts Options
	eng  *play.Engine
}

// NewRunner returns a Runner of t's purpose.
func NewRunner(t *Tester, opts Options) *Runner {
	r := &Runner{t: t, opts: *opts.EnsureDefaults()}
	r.eng = play.New(r, r.opts.Options)
	return r
}

// Engine returns the engine that plays r's runs.
func (r *Runner) Engine() *play.Engine { return r.eng }

// Run plays one on-line run against sut (play.Engine.Run).
func (r *Runner) Run(ctx context.Context, sut adapter.Adapter, seed int64) (*Result, error) {
	return r.eng.Run(ctx, sut, seed)
}

// Name implements play.Route.
func (r *Runner) Name() string { return r.t.tp.Name }

// Stimulus implements play.Route: the inputs of the spec.
func (r *Runner) Stimulus(name string) *spec.Action {
	if a := r.t.tp.x.Spec().Action(name); a != nil && a.Dir == spec.Input {
		return a
	}
	return nil
}

// Begin implements play.Route: rule 0.
func (r *Runner) Begin(seed int64, timed bool) (play.Oracle, error) {
	sc, err := r.t.Start()
	if err != nil {
		return nil, err
	}
	// The stimuli of a run are solved in a solver context of its own:
	// Z3's models depend on the history of their context, so values read
	// off a shared one would make a run depend on the runs before it. In a
	// fresh context, a run depends on its seed (and the SUT's outputs)
	// alone, and replays with its seed.
	// The context is made on the first stimulus (stimulus.go, solver).
	x := &execution{r: r, t: r.t, sc: sc, timed: timed,
		src: rand.NewPCG(uint64(seed), 0x6f6e6c696e65)}
	x.rng = rand.New(x.src)
	return x, nil
}

// StimulusTimeout bounds each solver check of the choice of a stimulus;
// a check that runs out of time is not a stimulus.
const StimulusTimeout = 2 * time.Second

// execution is the oracle of one on-line run (play.Oracle): the set of
// contexts, and the tester's choices.
type execution struct {
	r     *Runner
	t     *Tester
	timed bool
	rng   *rand.Rand
	src   *rand.PCG   // rng's source, restored by a Choose that waits
	sc    []Context   // the contexts after every stimulus sent
	q     inflight    // the stimuli in flight (queue.go)
	s     solver.Lazy // the run's solver for stimuli (stimulus.go)
	tab   summary.Tab // the run's tables, which steer stimuli (stimulus.go, steer)
	quiet *Step       // the step δ would make from sc, once computed
	last  *Step       // the step of the stimulus chosen last (rule 6)
	w     *watching   // observing after WeakPass (observe.go); nil before
	steps int         // the steps of the run so far (observations and stimuli)
}

// Output implements play.Oracle: the outputs of the spec.
func (x *execution) Output(name string) *spec.Action {
	if a := x.t.tp.x.Spec().Action(name); a != nil && a.Dir == spec.Output {
		return a
	}
	return nil
}

// Observe implements play.Oracle: rules 1-5, in queued semantics while
// stimuli are in flight (queue.go).
// After WeakPass, with Options.AfterWeakPass Observe, the rule
// Observing (observe.go).
func (x *execution) Observe(o play.Observation) (play.Judgement, error) {
	x.steps++
	if o.Quiet {
		if _, err := x.Quiet(); err != nil {
			return play.Judgement{}, err
		}
		return x.apply(x.quiet, x.sc, x.q.drained()), nil
	}
	ev := Event{Action: o.Action, Args: o.Args}
	if x.w != nil {
		st, err := x.observeWatching(ev)
		if err != nil {
			return play.Judgement{}, err
		}
		return x.apply(st, st.SC, x.q), nil
	}
	st, view, q, err := x.t.applyIn(x.sc, x.q, ev)
	if err != nil {
		return play.Judgement{}, err
	}
	return x.apply(st, view, q), nil
}

// Quiet implements play.Oracle: δ after every stimulus in flight was
// consumed.
func (x *execution) Quiet() (Verdict, error) {
	if x.quiet == nil {
		var st *Step
		var err error
		if x.w != nil {
			st, err = x.observeWatching(Quiescence())
		} else if st, err = x.t.Apply(x.sc, Quiescence()); err == nil {
			excuse(st, x.q.lost)
		}
		if err != nil {
			return None, err
		}
		x.quiet = st
	}
	return x.quiet.Verdict, nil
}

// apply moves to the result of a step (view: the contexts after every
// stimulus sent; q: the stimuli in flight) and tells the engine. A
// WeakPass begins the observation after it, with
// Options.AfterWeakPass Observe.
func (x *execution) apply(st *Step, view []Context, q inflight) play.Judgement {
	if st.Verdict == WeakPass && x.w == nil {
		if j, ok := x.watch(st, view, q); ok {
			return j
		}
	}
	cs := st.SC
	if st.Verdict != None {
		cs = st.Next
	} else {
		x.sc, x.q, x.quiet = view, q, nil
		if x.w != nil {
			x.w = &watching{began: x.w.began, seen: x.w.seen + 1}
		}
	}
	return play.Judgement{Verdict: st.Verdict, Reason: st.Reason, Transition: st.Rule.String(),
		To: nodes(cs, st), State: fmt.Sprintf("%d context(s)", len(cs)), States: 1, Detail: st}
}

// nodes names the nodes of the contexts cs, accept ones marked.
func nodes(cs []Context, st *Step) string {
	ns := make([]string, len(cs))
	for j, c := range cs {
		ns[j] = c.Node.PathString()
		if st != nil {
			for _, p := range st.NextPass {
				if p.Node == c.Node {
					ns[j] += " (accept)"
				}
			}
		}
	}
	return strings.Join(ns, ", ")
}

// Choose implements play.Oracle (stimulus.go).
// A choice to wait leaves the random source as it was: whether the
// engine asked before an output arrived (a matter of timing) does not
// change the choices that follow.
func (x *execution) Choose(ctx context.Context) (*play.Stimulus, error) {
	if x.w != nil {
		return nil, nil // observing after WeakPass
	}
	// A Choose that waits leaves no trace: neither the draws nor the
	// rows the steering learned (an output arriving a little later
	// must not change the run of the seed).
	src, tab := *x.src, maps.Clone(x.tab)
	ev, st, err := x.stimulus()
	if err != nil || ev == nil {
		*x.src, x.tab = src, tab
		return nil, err
	}
	x.last = st
	return &play.Stimulus{Action: ev.Action, Args: ev.Args}, nil
}

// Allow implements play.Oracle: a recorded stimulus is sent as it is
// when rule 6 applies to it; an adapting replay solves one of the same
// action afresh otherwise.
func (x *execution) Allow(st play.Stimulus, adapt bool) (*play.Stimulus, error) {
	if x.w != nil {
		return nil, nil // observing after WeakPass
	}
	if st.Toward == "" {
		step, err := x.t.Apply(x.sc, Event{Stim: true, Action: st.Action, Args: st.Args})
		if err != nil {
			return nil, err
		}
		if step.Rule == 6 {
			x.last = step
			return &play.Stimulus{Action: st.Action, Args: st.Args}, nil
		}
	}
	if !adapt && st.Toward == "" {
		return nil, nil
	}
	ev, step, err := x.stimulusOf(st.Action)
	if err != nil || ev == nil {
		return nil, err
	}
	x.last = step
	return &play.Stimulus{Action: ev.Action, Args: ev.Args}, nil
}

// Send implements play.Oracle: rule 6 (computed when the stimulus was
// chosen, or now).
func (x *execution) Send(s play.Stimulus) (play.Judgement, error) {
	x.steps++
	st := x.last
	x.last = nil
	if st == nil || st.Event.Action != s.Action || !sameArgs(st.Event.Args, s.Args) {
		var err error
		if st, err = x.t.Apply(x.sc, Event{Stim: true, Action: s.Action, Args: s.Args}); err != nil {
			return play.Judgement{}, err
		}
	}
	q := x.q
	if x.timed {
		// The SUT reads it when it will: its outputs until then may
		// cross it.
		q = q.push(x.sc, st.Next, st.Event)
	}
	return x.apply(st, st.SC, q), nil
}

func sameArgs(a, b map[string]expr.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// Where implements play.Oracle: the nodes of the contexts.
func (x *execution) Where() string { return nodes(x.sc, nil) }

// Key implements play.Oracle.
func (x *execution) Key() string {
	k := setString(x.sc) + x.q.key()
	if x.w != nil {
		k += fmt.Sprintf(" | observing after %s: %d, accepted %s", x.w.began, x.w.seen, kinds(x.sc))
	}
	return k
}

// snapshot is what an execution knows: its contexts and the stimuli in
// flight.
type snapshot struct {
	sc    []Context
	q     inflight
	w     *watching
	steps int
}

// Snapshot implements play.Retracter.
func (x *execution) Snapshot() any { return snapshot{x.sc, x.q, x.w, x.steps} }

// Restore implements play.Retracter.
func (x *execution) Restore(s any) {
	sn := s.(snapshot)
	x.sc, x.q, x.quiet, x.last, x.w, x.steps = sn.sc, sn.q, nil, nil, sn.w, sn.steps
}

// Close implements play.Oracle.
func (x *execution) Close() {
	x.s.Close()
	if x.s.Context != nil {
		x.s.Context.Close()
	}
}
