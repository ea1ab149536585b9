package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// The types of a run are those of the play engine (package play), which
// plays the runs of every route.
type (
	Verdict  = play.Verdict
	StepKind = play.StepKind
	Binding  = play.Binding
	Step     = play.Step
	Result   = play.Result
)

// The verdicts and step kinds, as package play defines them.
const (
	Pass       = play.Pass
	Fail       = play.Fail
	Inconc     = play.Inconc
	Sent       = play.Sent
	Received   = play.Received
	Quiescence = play.Quiescence
)

// Defaults of Options.
const (
	DefaultDepth         = 8
	DefaultQuiescence    = adapter.DefaultQuiescence
	DefaultConfirm       = adapter.DefaultConfirm
	DefaultStartup       = adapter.DefaultStartup
	DefaultMaxConfirm    = adapter.DefaultMaxConfirm
	DefaultLatencyFactor = adapter.DefaultLatencyFactor
	DefaultMaxSteps      = play.DefaultMaxSteps
	DefaultTimeout       = play.DefaultTimeout
	DefaultPlanBudget    = 400
	DefaultSolverTimeout = 2 * time.Second
)

// Options control runs. Zero fields other than Depth take the defaults.
type Options struct {
	// Options are the engine's: the quiescence policy (Timing), the
	// step and time limits of a run.
	play.Options
	// Depth bounds the paths to Pass that planning looks for, in steps.
	// 0 turns planning off: sends are chosen by a seeded random walk.
	Depth int
	// Plan is how planning steers toward Pass: Shortest (the zero
	// value), Diverse (paths stretched by the seed; DefaultOptions) or
	// Walk (no planning, as Depth 0). See diverse.go.
	Plan Strategy
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
// diverse paths, and the engine's defaults (play.DefaultOptions).
func DefaultOptions() Options {
	return Options{Options: play.DefaultOptions(), Depth: DefaultDepth, Plan: Diverse}.withDefaults()
}

func (o Options) withDefaults() Options {
	if o.Depth < 0 {
		o.Depth = 0
	}
	o.Options.EnsureDefaults()
	if o.PlanBudget <= 0 {
		o.PlanBudget = DefaultPlanBudget
	}
	if o.SolverTimeout <= 0 {
		o.SolverTimeout = DefaultSolverTimeout
	}
	return o
}

// A Runner is the STG route of the play engine: it makes the oracle of
// each run of one test case (play.Route), and plays runs with its own
// engine. It owns a Z3 context: use it from one goroutine at a time, and
// Close it.
type Runner struct {
	tc   *spec.Model
	opts Options
	z    *solver.Context
	eng  *play.Engine

	sends    map[string][]*spec.Transition // by source location
	receives map[string][]*spec.Transition
	dist     map[string]int // fewest transitions to a Pass location; absent: none
	init     *symex.State

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
	r.eng = play.New(r, r.opts.Options)
	return r, nil
}

// Close releases the solver.
func (r *Runner) Close() { r.z.Close() }

// Testcase returns the test case r plays.
func (r *Runner) Testcase() *spec.Model { return r.tc }

// Engine returns the engine that plays r's runs.
func (r *Runner) Engine() *play.Engine { return r.eng }

// Name implements play.Route.
func (r *Runner) Name() string { return r.tc.Name }

// Stimulus implements play.Route: the send actions of the test case.
func (r *Runner) Stimulus(name string) *spec.Action {
	if a := r.tc.Action(name); a != nil && a.Dir == spec.Send {
		return a
	}
	return nil
}

// Run plays the test case once against sut (play.Engine.Run); replay,
// judging a trace, shrinking and campaigns are the engine's (Engine).
func (r *Runner) Run(ctx context.Context, sut adapter.Adapter, seed int64) (*Result, error) {
	return r.eng.Run(ctx, sut, seed)
}

// distances returns the fewest transitions from each location to a Pass
// location.
func distances(tc *spec.Model) map[string]int { return distancesTo(tc, tc.Verdicts.Pass...) }
