package runner

import (
	"context"
	"errors"
	"fmt"
	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/extfunc"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// Verdict is the outcome of a test run.
type Verdict int

// The verdicts of the STG paper: Pass (the targeted behaviour was
// reached), Fail (the SUT does not conform) and Inconc (the targeted
// behaviour can no longer be reached, or the run was cut short).
const (
	Pass Verdict = iota + 1
	Fail
	Inconc
)

func (v Verdict) String() string {
	switch v {
	case Pass:
		return "Pass"
	case Fail:
		return "Fail"
	case Inconc:
		return "Inconc"
	}
	return "none"
}

// StepKind says what happened in a step of a run.
type StepKind int

const (
	Sent       StepKind = iota // the tester sent an input to the SUT
	Received                   // the SUT emitted an output
	Quiescence                 // the SUT was silent (delta)
)

func (k StepKind) String() string {
	return [...]string{"send", "receive", "quiet"}[k]
}

// Binding is a named value: an argument or a variable.
type Binding struct {
	Name  string
	Value spec.Value
}

// String prints the binding as "x=3".
func (b Binding) String() string { return b.Name + "=" + b.Value.String() }

// Step is one step of a run's trace.
type Step struct {
	Kind   StepKind
	Action string    // the action; spec.Delta for quiescence
	Args   []Binding // in the order of the action's parameters
	// Transition is the label of the transition taken; "" when no
	// transition accepts the observation (the step that failed).
	Transition string
	From, To   string
	// State is the state after the step: the variables in declaration
	// order ("x=3 y=0"), symbolic where a value is not known ("x=x@0
	// | x@0 >= 0"). When the observations admit several states, it is
	// the first of States.
	State   string
	States  int           // how many states the observations admit after the step
	Planned bool          // a send on a path to Pass found by planning
	Note    string        // what was wrong with an unspecified output
	Silence time.Duration // for quiescence: how long the SUT was silent
}

// Result is the outcome of one run.
type Result struct {
	Verdict  Verdict
	Reason   string
	Seed     int64
	Trace    []Step
	Location string // where the run ended
	Elapsed  time.Duration
	// Window is the quiescence window at the end of the run (0 for an
	// in-process SUT, whose quiescence is exact), and Latencies the SUT's
	// response latencies measured in the run (from a send or an output
	// to the next output).
	Window    time.Duration
	Latencies []time.Duration
}

// Defaults of Options.
const (
	DefaultDepth         = 8
	DefaultQuiescence    = adapter.DefaultQuiescence
	DefaultConfirm       = adapter.DefaultConfirm
	DefaultStartup       = adapter.DefaultStartup
	DefaultLatencyFactor = adapter.DefaultLatencyFactor
	DefaultMaxSteps      = 1000
	DefaultTimeout       = time.Minute
	DefaultPlanBudget    = 400
	DefaultSolverTimeout = 2 * time.Second
)

// Options control runs. Zero fields other than Depth take the defaults.
type Options struct {
	// Depth bounds the paths to Pass that planning looks for, in steps.
	// 0 turns planning off: sends are chosen by a seeded random walk.
	Depth int
	// Plan is how planning steers toward Pass: Shortest (the zero
	// value), Diverse (paths stretched by the seed; DefaultOptions) or
	// Walk (no planning, as Depth 0). See diverse.go.
	Plan Strategy
	// Quiescence is how long the SUT must stay silent for the tester to
	// observe delta; with AutoQuiescence it is the floor of the window.
	Quiescence time.Duration
	// AutoQuiescence sets the window from the SUT's measured response
	// latencies: LatencyFactor times the largest latency measured so far
	// by this Runner, and at least Quiescence.
	AutoQuiescence bool
	LatencyFactor  int
	// Confirm is how long a silence that would lead to Fail must last
	// before the tester concludes quiescence: a slow SUT gets Fail only
	// when it stays silent that long. Silence that leads elsewhere is
	// concluded after the quiescence window.
	Confirm time.Duration
	// Startup is the start-up allowance: until the SUT has been heard
	// from (a readiness line or an output), quiescence is not concluded
	// before Startup has passed since it was started.
	Startup time.Duration
	// MaxSteps and Timeout bound a run; a run that reaches either ends
	// Inconc.
	MaxSteps int
	Timeout  time.Duration
	// PlanBudget bounds the solver checks of one planning.
	PlanBudget int
	// SolverTimeout bounds each solver check; a check that runs out of
	// time counts as unsatisfiable.
	SolverTimeout time.Duration
	// Funcs evaluates the external functions the test case calls (nil:
	// a call is evaluated only where the solver can decide without its
	// value). See calls.go for how calls are decided and values chosen.
	Funcs *extfunc.Registry
}

// DefaultOptions returns the options of stg run: planning depth 8,
// diverse paths, quiescence window set from measured latencies (at least 200ms), silence
// leading to Fail confirmed over 5s, a 5s start-up allowance, 1000 steps,
// one minute.
func DefaultOptions() Options {
	return Options{Depth: DefaultDepth, Plan: Diverse, AutoQuiescence: true}.withDefaults()
}

func (o Options) withDefaults() Options {
	if o.Depth < 0 {
		o.Depth = 0
	}
	t := o.timing().WithDefaults()
	o.Quiescence, o.LatencyFactor, o.Confirm, o.Startup = t.Quiescence, t.LatencyFactor, t.Confirm, t.Startup
	if o.MaxSteps <= 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.PlanBudget <= 0 {
		o.PlanBudget = DefaultPlanBudget
	}
	if o.SolverTimeout <= 0 {
		o.SolverTimeout = DefaultSolverTimeout
	}
	return o
}

// A Runner plays one test case, run after run. It owns a Z3 context:
// use it from one goroutine at a time, and Close it.
type Runner struct {
	tc   *spec.Model
	opts Options
	z    *solver.Context

	sends    map[string][]*spec.Transition // by source location
	receives map[string][]*spec.Transition
	dist     map[string]int // fewest transitions to a Pass location; absent: none
	init     *symex.State

	// cal keeps the largest response latency measured over the runs so
	// far: the base of the automatic quiescence window.
	cal adapter.Calibration

	// noPath remembers the states from which planning found no path
	// within its bounds; planning is deterministic in the state.
	noPath map[string]bool

	// strAbs holds the abstraction of each transition's string tests
	// for planning (strabs.go); nil when it does not apply.
	strAbs map[*spec.Transition]*stringAbs
}

// New prepares runs of the test case tc.
func New(tc *spec.Model, opts Options) (*Runner, error) {
	if tc.Kind != spec.TestcaseKind {
		return nil, fmt.Errorf("%s is a %s, not a testcase", tc.Name, tc.Kind)
	}
	if len(tc.Verdicts.Pass) == 0 && len(tc.Verdicts.Fail) == 0 && len(tc.Verdicts.Inconc) == 0 {
		return nil, fmt.Errorf("test case %s has no verdict locations", tc.Name)
	}
	tc = inRanges(tc) // ranges.go: the values sent lie in their parameters' ranges
	z, err := solver.NewContext()
	if err != nil {
		return nil, err
	}
	r := &Runner{
		tc:       tc,
		opts:     opts.withDefaults(),
		z:        z,
		sends:    map[string][]*spec.Transition{},
		receives: map[string][]*spec.Transition{},
		noPath:   map[string]bool{},
	}
	z.SetTimeout(r.opts.SolverTimeout)
	for _, t := range tc.Transitions {
		a := tc.Action(t.Action)
		if a == nil {
			z.Close()
			return nil, fmt.Errorf("%s: unknown action %s", t.Pos, t.Action)
		}
		if a.Dir == spec.Send {
			r.sends[t.From] = append(r.sends[t.From], t)
		} else {
			r.receives[t.From] = append(r.receives[t.From], t)
		}
	}
	r.dist = distances(tc)
	if r.init, err = symex.Initial(z, tc); err != nil {
		z.Close()
		return nil, err
	}
	return r, nil
}

// Close releases the solver.
func (r *Runner) Close() { r.z.Close() }

// Testcase returns the test case r plays.
func (r *Runner) Testcase() *spec.Model { return r.tc }

// distances computes, by a backward breadth-first search, the fewest
// transitions from each location to a Pass location.
func distances(tc *spec.Model) map[string]int {
	dist := map[string]int{}
	var queue []string
	for _, l := range tc.Verdicts.Pass {
		dist[l] = 0
		queue = append(queue, l)
	}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		for _, t := range tc.Transitions {
			if t.To != l {
				continue
			}
			if _, seen := dist[t.From]; !seen {
				dist[t.From] = dist[l] + 1
				queue = append(queue, t.From)
			}
		}
	}
	return dist
}

// execution is the state of one run.
type execution struct {
	ctx  context.Context // the run's context: planning stops when it ends
	r    *Runner
	sut  adapter.Adapter
	rng  *rand.Rand
	hyps []hyp // the explanations of what was observed
	lost bool  // some states were dropped: a send the test case does not cover there
	res  *Result

	listen *adapter.Listener // waits for outputs, measures latencies

	// the state the tester plans from (the first of views), its values
	// when it is ground
	cur     *symex.State
	curVals map[string]spec.Value
	ground  bool

	// stretch is the steps by which the Diverse strategy lengthens the
	// run's path to Pass (0: none, or given up), and target the trace
	// length it aims at once fixed (0: not yet).
	stretch, target int

	// s is the run's solver (made on first use, closed at the end of the
	// run): planning and the choice of values work in scopes of it, and
	// route is the path to Pass the run follows (plan.go).
	s     *solver.Solver
	route *route

	// views, once computed for the current hyps
	viewCache []*symex.State
	viewsOK   bool
	samples   []time.Duration
}

// Run plays the test case once against sut, with the seed fixing every
// choice of the tester. It returns an error (and the trace so far) when
// the SUT cannot be talked to (adapter.ErrSUTUnavailable, an
// *adapter.ExitError for a SUT that died), when ctx is cancelled, or when
// the test case cannot be executed (a guard that cannot be evaluated, a
// non-deterministic choice). Run does not close sut.
func (r *Runner) Run(ctx context.Context, sut adapter.Adapter, seed int64) (*Result, error) {
	start := time.Now()
	x := &execution{
		r:    r,
		sut:  sut,
		rng:  rand.New(rand.NewPCG(uint64(seed), 0x5354472d72756e)),
		hyps: []hyp{{st: r.init}},
		res:  &Result{Seed: seed},
	}
	x.stretch = stretchOf(seed, r.opts.Depth)
	x.listen = adapter.NewListener(sut, r.opts.timing(), &r.cal)
	runCtx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	x.ctx = runCtx
	defer x.closeSolver()
	err := x.run(ctx, runCtx)
	if vs, verr := x.views(); verr == nil && len(vs) > 0 {
		x.res.Location = vs[0].Loc
	}
	x.res.Elapsed = time.Since(start)
	x.res.Latencies = x.listen.Latencies
	x.res.Window = x.listen.Window()
	return x.res, err
}

// solver returns the run's solver. One solver serves the whole run, in
// scopes pushed and popped by each use, so that a run's choices depend on
// its seed alone and no check pays for making a solver.
func (x *execution) solver() *solver.Solver {
	if x.s == nil {
		x.s = x.r.z.NewSolver()
	}
	return x.s
}

func (x *execution) closeSolver() {
	if x.s != nil {
		x.s.Close()
		x.s = nil
	}
}

func (x *execution) run(ctx, runCtx context.Context) (err error) {
	defer func() {
		// The runner must never take its caller down; a panic here is a
		// bug, reported as an error of the run.
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in the runner: %v", p)
		}
	}()
	r := x.r
	for x.res.Verdict == 0 {
		if len(x.res.Trace) >= r.opts.MaxSteps {
			return x.end(Inconc, fmt.Sprintf("step limit: %d steps without a verdict", r.opts.MaxSteps))
		}
		if runCtx.Err() != nil {
			return x.stopped(ctx, runCtx.Err(), "")
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
		c, err := x.next()
		if err != nil {
			if runCtx.Err() != nil {
				return x.stopped(ctx, runCtx.Err(), "")
			}
			return err
		}
		if c != nil {
			if err := x.send(runCtx, c); err != nil {
				if runCtx.Err() != nil {
					return x.stopped(ctx, runCtx.Err(), err.Error())
				}
				return err
			}
			continue
		}
		if err := x.wait(ctx, runCtx); err != nil {
			return err
		}
	}
	return nil
}

func (x *execution) end(v Verdict, reason string) error {
	x.res.Verdict, x.res.Reason = v, reason
	return nil
}

// stopped ends a run whose context ended: Inconc when the run's own time
// limit struck, an error when the caller cancelled.
func (x *execution) stopped(ctx context.Context, err error, detail string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	reason := fmt.Sprintf("time limit: no verdict within %v", x.r.opts.Timeout)
	if detail != "" {
		reason += " (" + detail + ")"
	}
	return x.end(Inconc, reason)
}

func (x *execution) receiveFailed(ctx context.Context, err error) error {
	var oe *adapter.OutputError
	switch {
	case errors.As(err, &oe):
		x.record(Step{Kind: Received, From: x.location(), Note: oe.Error()})
		return x.end(Fail, "unspecified output: "+oe.Error())
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return x.stopped(ctx, err, "")
	}
	return err
}

// observe takes an output of the SUT, or quiescence when out is nil
// (after silence for the duration silence).
func (x *execution) observe(out *adapter.Output) error {
	tc := x.r.tc
	step := Step{Kind: Received, From: x.location(), Action: out.Action}
	a := tc.Action(out.Action)
	if a == nil || a.Dir != spec.Receive || out.Action == spec.Delta {
		step.Note = fmt.Sprintf("unknown action %q", out.Action)
		x.record(step)
		return x.end(Fail, fmt.Sprintf("unspecified output: unknown action %q (not an output of the SUT in the test case)", out.Action))
	}
	args, err := adapter.DecodeArgs(a, out.Args)
	if err != nil {
		step.Note = "ill-typed arguments: " + err.Error()
		x.record(step)
		return x.end(Fail, "unspecified output: ill-typed arguments: "+err.Error())
	}
	step.Args = ordered(a, args)
	x.listen.Took(out)
	return x.apply(step, args, false)
}

// apply moves the run to the explanations of an observation and judges
// them.
func (x *execution) apply(step Step, args map[string]spec.Value, quiet bool) error {
	e, err := x.explain(step.Action, args, quiet)
	if err != nil {
		return err
	}
	return x.conclude(step, e)
}

// conclude records the step explained by e and judges the explanations.
func (x *execution) conclude(step Step, e explanation) error {
	v, reason := x.judge(states(e.hyps))
	switch {
	case len(e.hyps) > 0:
		x.setHyps(e.hyps)
		step.Transition, step.To = e.hyps[0].via, e.hyps[0].st.Loc
	case v == Fail && e.fail != nil:
		step.Transition, step.To = e.fail.via, e.fail.st.Loc
	}
	x.record(step)
	if v == 0 {
		return nil
	}
	if reason == "" {
		reason = x.reached(v)
	}
	return x.end(v, reason)
}

// reached describes how the run reached its verdict.
func (x *execution) reached(v Verdict) string {
	n := len(x.res.Trace)
	if v == Fail && x.res.Trace[n-1].Transition == "" {
		last := x.res.Trace[n-1]
		what := "output " + describeStep(last)
		if last.Kind == Quiescence {
			what = fmt.Sprintf("quiescence (silent for %v)", last.Silence.Round(time.Millisecond))
		}
		return fmt.Sprintf("unspecified %s in %s: no transition of the test case accepts it", what, last.From)
	}
	s := "reached " + v.String()
	if v == Fail {
		s = "reached " + x.res.Trace[n-1].To
	}
	if n > 0 {
		switch last := x.res.Trace[n-1]; last.Kind {
		case Received:
			s += " on output " + describeStep(last)
		case Quiescence:
			s += " on quiescence"
			if last.Silence > 0 {
				s += fmt.Sprintf(" (silent for %v)", last.Silence.Round(time.Millisecond))
			}
		case Sent:
			s += " after sending " + describeStep(last)
		}
	}
	return s
}

// send sends the chosen input: every explanation queues it.
func (x *execution) send(ctx context.Context, c *choice) error {
	a := x.r.tc.Action(c.t.Action)
	step := Step{Kind: Sent, Action: a.Name, From: x.location(), Args: ordered(a, c.args), Planned: c.planned}
	if err := x.sut.Send(ctx, adapter.Input{Action: a.Name, Args: c.args}); err != nil {
		x.record(step)
		return err
	}
	x.listen.Sent()
	hs := make([]hyp, len(x.hyps))
	for i, h := range x.hyps {
		h.queue = append(h.queue[:len(h.queue):len(h.queue)], sent{a.Name, c.args})
		hs[i] = h
	}
	x.setHyps(hs)
	step.Transition, step.To = c.t.Label(), c.t.To
	x.record(step)
	vs, err := x.views()
	if err != nil {
		return err
	}
	if v, reason := x.judge(vs); v != 0 && v != Fail {
		if reason == "" {
			reason = x.reached(v)
		}
		return x.end(v, reason)
	}
	return nil
}

// location names where the run is: the location of the first state the
// tester plans from.
func (x *execution) location() string {
	if vs, err := x.views(); err == nil && len(vs) > 0 {
		return vs[0].Loc
	}
	return x.hyps[0].st.Loc
}

// record appends s to the trace with the state after it.
func (x *execution) record(s Step) {
	vs, err := x.views()
	if err == nil && len(vs) > 0 {
		s.State = vs[0].Describe(x.r.tc.Variables)
		s.States = len(vs)
	}
	x.res.Trace = append(x.res.Trace, s)
}

func ordered(a *spec.Action, args map[string]spec.Value) []Binding {
	var bs []Binding
	for _, p := range a.Params {
		if v, ok := args[p.Name]; ok {
			bs = append(bs, Binding{p.Name, v})
		}
	}
	return bs
}

func sortedKeys(m map[string]spec.Value) []string {
	return slices.Sorted(maps.Keys(m))
}

// describeStep prints a step's action as "ok(p=2)".
func describeStep(s Step) string {
	if len(s.Args) == 0 {
		return s.Action
	}
	parts := make([]string, len(s.Args))
	for i, b := range s.Args {
		parts[i] = b.String()
	}
	return s.Action + "(" + strings.Join(parts, ", ") + ")"
}
