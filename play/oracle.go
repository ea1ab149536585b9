package play

import (
	"context"
	"time"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// An Observation is what the SUT did: an output, typed against the
// actions the oracle knows, or quiescence.
type Observation struct {
	Quiet  bool
	Action string
	Args   map[string]expr.Value
	// Bad, when not empty, says why the output is unspecified whatever
	// the state (an unknown action, ill-typed arguments): Fail.
	Bad     string
	Raw     map[string]any
	Silence time.Duration
}

// A Stimulus is an input the tester sends: an action with its argument
// values.
type Stimulus struct {
	Action  string
	Args    map[string]expr.Value
	Planned bool // chosen on a path to the target found by planning

	// Waits is how many observations (an output, or quiescence) a
	// replayed run makes before sending it: those of the recorded run.
	Waits int
	// Toward, when not "", names a parameter whose value is solved
	// afresh by an adapting replay: the value the oracle allows there
	// that is closest to Target (shrinking asks for smaller values so).
	Toward string
	Target expr.Value
}

// String prints the stimulus as "in(p=5)".
func (s Stimulus) String() string { return DescribeAction(s.Action, s.Args) }

// A Judgement is what an oracle makes of an event: a verdict (None while
// the run goes on) and what the trace shows of the step.
type Judgement struct {
	Verdict Verdict
	// Reason explains the verdict; "" lets the engine say how the run
	// reached it.
	Reason     string
	Transition string // see Step.Transition
	To         string // where the run is after the step
	State      string
	States     int
	Detail     any
}

// An Oracle judges one run: it knows the test (a test case, or a
// symbolic purpose over its specification), tracks what the observations
// admit, judges each output and quiescence, and proposes the stimuli.
// The Engine owns the loop, the SUT, the clock and the trace; an oracle
// is used from one goroutine.
type Oracle interface {
	// Output returns the action of the SUT's output named name, nil when
	// the SUT has no such output (an unspecified output).
	Output(name string) *spec.Action
	// Observe judges an output or quiescence, and moves to its
	// explanations.
	Observe(o Observation) (Judgement, error)
	// Quiet returns the verdict that quiescence observed now would give,
	// without moving: the engine confirms a silence that decides.
	Quiet() (Verdict, error)
	// Choose returns the next stimulus, or nil when the tester should
	// wait for an output. ctx bounds the search.
	Choose(ctx context.Context) (*Stimulus, error)
	// Allow returns st as the oracle would send it where the run is: with
	// its own values when the oracle allows them; when adapt is set (or
	// st.Toward asks for it), with values solved afresh, closest to
	// st's. nil when the oracle allows no such stimulus here.
	Allow(st Stimulus, adapt bool) (*Stimulus, error)
	// Send moves to the explanations of a stimulus sent.
	Send(st Stimulus) (Judgement, error)
	// Where names the location the run is in (the trace's "from").
	Where() string
	// Key identifies what the oracle knows now: equal keys, same state.
	Key() string
	// Close releases what the run holds (its solver).
	Close()
}

// A Retracter is an Oracle that can go back: Snapshot returns what it
// knows now, Restore returns to a snapshot. The engine uses it to judge
// an output that arrives after a quiescence concluded without
// confirmation as a late output (see Engine).
type Retracter interface {
	Snapshot() any
	Restore(any)
}

// A Route makes the oracle of each run of one test. Begin is called once
// per run, from the goroutine that plays it.
type Route interface {
	// Name is the test's name, for reports.
	Name() string
	// Begin returns the oracle of a run with the given seed against a SUT
	// whose outputs may cross the inputs sent (timed: a stream; an
	// in-process SUT has answered before its input returns).
	Begin(seed int64, timed bool) (Oracle, error)
	// Stimulus returns the action of an input the tester may send, nil
	// when the test sends none by that name (for typing trace files).
	Stimulus(name string) *spec.Action
}
