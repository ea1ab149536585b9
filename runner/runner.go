package runner

import (
	"context"
	"errors"
	"fmt"
	"github.com/stg-tool/stg/adapter"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
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

// Step is one step of a run's trace.
type Step struct {
	Kind   StepKind
	Action string    // the action; spec.Delta for quiescence
	Args   []Binding // in the order of the action's parameters
	// Transition is the label of the transition taken; "" when no
	// transition accepts the observation (the step that failed).
	Transition string
	From, To   string
	Vars       []Binding // the variables after the step, in declaration order
	Planned    bool      // a send on a path to Pass found by planning
	Note       string    // what was wrong with an unspecified output
}

// Result is the outcome of one run.
type Result struct {
	Verdict  Verdict
	Reason   string
	Seed     int64
	Trace    []Step
	Location string // where the run ended
	Elapsed  time.Duration
}

// Defaults of Options.
const (
	DefaultDepth         = 8
	DefaultQuiescence    = 200 * time.Millisecond
	DefaultConfirm       = 5 * time.Second
	DefaultStartup       = 5 * time.Second
	DefaultLatencyFactor = 4
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
}

// DefaultOptions returns the options of stg run: planning depth 8,
// quiescence window set from measured latencies (at least 200ms), silence
// leading to Fail confirmed over 5s, a 5s start-up allowance, 1000 steps,
// one minute.
func DefaultOptions() Options {
	return Options{Depth: DefaultDepth, AutoQuiescence: true}.withDefaults()
}

func (o Options) withDefaults() Options {
	if o.Depth < 0 {
		o.Depth = 0
	}
	if o.Quiescence <= 0 {
		o.Quiescence = DefaultQuiescence
	}
	if o.LatencyFactor <= 0 {
		o.LatencyFactor = DefaultLatencyFactor
	}
	if o.Confirm <= 0 {
		o.Confirm = DefaultConfirm
	}
	if o.Startup <= 0 {
		o.Startup = DefaultStartup
	}
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
	initVars map[string]spec.Value

	// noPath remembers the states from which planning found no path
	// within its bounds; planning is deterministic in the state.
	noPath map[string]bool
}

// New prepares runs of the test case tc.
func New(tc *spec.Model, opts Options) (*Runner, error) {
	if tc.Kind != spec.TestcaseKind {
		return nil, fmt.Errorf("%s is a %s, not a testcase", tc.Name, tc.Kind)
	}
	if len(tc.Verdicts.Pass) == 0 && len(tc.Verdicts.Fail) == 0 && len(tc.Verdicts.Inconc) == 0 {
		return nil, fmt.Errorf("test case %s has no verdict locations", tc.Name)
	}
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
	if r.initVars, err = r.initial(); err != nil {
		z.Close()
		return nil, err
	}
	return r, nil
}

// Close releases the solver.
func (r *Runner) Close() { r.z.Close() }

// Testcase returns the test case r plays.
func (r *Runner) Testcase() *spec.Model { return r.tc }

// initial returns values of the variables satisfying the initial
// condition (a test case's condition normally fixes them).
func (r *Runner) initial() (map[string]spec.Value, error) {
	cond := r.tc.Initial.Condition
	if cond == nil {
		cond = spec.True()
	}
	vars := map[string]spec.Value{}
	m, ok, err := r.z.Model(cond)
	if err != nil {
		return nil, fmt.Errorf("initial condition %s: %v", spec.Format(cond), err)
	}
	if !ok {
		return nil, fmt.Errorf("initial condition %s is unsatisfiable", spec.Format(cond))
	}
	for _, v := range r.tc.Variables {
		if x, ok := m.Vars[v.Name]; ok {
			vars[v.Name] = x
		} else {
			vars[v.Name] = spec.Zero(v.Type)
		}
	}
	if ok, err := spec.EvalBool(cond, spec.Valuation{Vars: vars}); err != nil || !ok {
		return nil, fmt.Errorf("initial condition %s: no exact solution (%v)", spec.Format(cond), err)
	}
	return vars, nil
}

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
	loc  string
	vars map[string]spec.Value
	res  *Result
}

// Run plays the test case once against sut, with the seed fixing every
// choice of the tester. It returns an error (and the trace so far) when
// the SUT cannot be talked to (ErrSUTUnavailable), when ctx is cancelled,
// or when the test case cannot be executed (a guard that cannot be
// evaluated, a non-deterministic choice). Run does not close sut.
func (r *Runner) Run(ctx context.Context, sut adapter.Adapter, seed int64) (*Result, error) {
	start := time.Now()
	x := &execution{
		r:    r,
		sut:  sut,
		rng:  rand.New(rand.NewPCG(uint64(seed), 0x5354472d72756e)),
		loc:  r.tc.Initial.Location,
		vars: clone(r.initVars),
		res:  &Result{Seed: seed},
	}
	runCtx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	x.ctx = runCtx
	err := x.run(ctx, runCtx)
	x.res.Location = x.loc
	x.res.Elapsed = time.Since(start)
	return x.res, err
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
	for {
		switch r.tc.Verdict(x.loc) {
		case "pass":
			return x.end(Pass, x.reached())
		case "fail":
			return x.end(Fail, x.reached())
		case "inconc":
			return x.end(Inconc, x.reached())
		}
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
			if done, err := x.observe(out); done || err != nil {
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
		out, err = x.sut.Receive(runCtx, r.opts.Quiescence)
		if err != nil {
			return x.receiveFailed(ctx, err)
		}
		if done, err := x.observe(out); done || err != nil {
			return err
		}
	}
}

// reached describes how the run reached its verdict location.
func (x *execution) reached() string {
	s := "reached " + x.loc
	if n := len(x.res.Trace); n > 0 {
		switch last := x.res.Trace[n-1]; last.Kind {
		case Received:
			s += " on output " + describeStep(last)
		case Quiescence:
			s += " on quiescence"
		case Sent:
			s += " after sending " + describeStep(last)
		}
	}
	return s
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
		x.res.Trace = append(x.res.Trace, Step{Kind: Received, From: x.loc, Note: oe.Error(), Vars: x.bindings()})
		return x.end(Fail, "unspecified output: "+oe.Error())
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return x.stopped(ctx, err, "")
	}
	return err
}

// observe takes an output of the SUT, or quiescence when out is nil. It
// reports done when the observation ended the run (Fail).
func (x *execution) observe(out *adapter.Output) (done bool, err error) {
	tc := x.r.tc
	step := Step{Kind: Received, From: x.loc}
	name := spec.Delta
	if out == nil {
		step.Kind = Quiescence
	} else {
		name = out.Action
	}
	step.Action = name
	a := tc.Action(name)
	var args map[string]spec.Value
	if out != nil {
		if a == nil || a.Dir != spec.Receive || name == spec.Delta {
			step.Note = fmt.Sprintf("unknown action %q", name)
			x.record(step)
			return true, x.end(Fail, fmt.Sprintf("unspecified output: unknown action %q (not an output of the SUT in the test case)", name))
		}
		args, err = adapter.DecodeArgs(a, out.Args)
		if err != nil {
			step.Note = "ill-typed arguments: " + err.Error()
			x.record(step)
			return true, x.end(Fail, "unspecified output: ill-typed arguments: "+err.Error())
		}
		step.Args = ordered(a, args)
	}
	var taken *spec.Transition
	if a != nil {
		for _, t := range x.r.receives[x.loc] {
			if t.Action != name {
				continue
			}
			ok, err := spec.EvalBool(t.Guard, spec.Valuation{Vars: x.vars, Params: args})
			if err != nil {
				return true, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
			}
			if !ok {
				continue
			}
			if taken != nil {
				return true, fmt.Errorf("the test case is not deterministic: %s and %s both accept %s in %s",
					taken.Label(), t.Label(), describeStep(step), x.loc)
			}
			taken = t
		}
	}
	if taken == nil {
		x.record(step)
		what := "output " + describeStep(step)
		if out == nil {
			what = "quiescence"
		}
		return true, x.end(Fail, fmt.Sprintf("unspecified %s in %s: no transition of the test case accepts it", what, x.loc))
	}
	if err := x.take(taken, args, &step); err != nil {
		return true, err
	}
	return false, nil
}

// send sends the chosen input and takes its transition.
func (x *execution) send(ctx context.Context, c *choice) error {
	a := x.r.tc.Action(c.t.Action)
	step := Step{Kind: Sent, Action: a.Name, From: x.loc, Args: ordered(a, c.args), Planned: c.planned}
	if err := x.sut.Send(ctx, adapter.Input{Action: a.Name, Args: c.args}); err != nil {
		x.record(step)
		return err
	}
	return x.take(c.t, c.args, &step)
}

// take fires t with the parameter values args: the assignments are
// simultaneous, evaluated exactly.
func (x *execution) take(t *spec.Transition, args map[string]spec.Value, step *Step) error {
	env := spec.Valuation{Vars: x.vars, Params: args}
	next := clone(x.vars)
	for _, as := range t.Assign {
		v, err := spec.Eval(as.Value, env)
		if err != nil {
			return fmt.Errorf("%s: assignment %s := %s: %v", as.Pos, as.Var, spec.Format(as.Value), err)
		}
		next[as.Var] = v
	}
	x.vars = next
	x.loc = t.To
	step.Transition = t.Label()
	step.To = t.To
	x.record(*step)
	return nil
}

func (x *execution) record(s Step) {
	if s.Vars == nil {
		s.Vars = x.bindings()
	}
	x.res.Trace = append(x.res.Trace, s)
}

func (x *execution) bindings() []Binding {
	bs := make([]Binding, 0, len(x.r.tc.Variables))
	for _, v := range x.r.tc.Variables {
		bs = append(bs, Binding{v.Name, x.vars[v.Name]})
	}
	return bs
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

func clone(m map[string]spec.Value) map[string]spec.Value {
	c := make(map[string]spec.Value, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// describeStep prints a step's action as "ok(p=2)".
func describeStep(s Step) string {
	if len(s.Args) == 0 {
		return s.Action
	}
	parts := make([]string, len(s.Args))
	for i, b := range s.Args {
		parts[i] = b.Name + "=" + b.Value.String()
	}
	return s.Action + "(" + strings.Join(parts, ", ") + ")"
}
