package play

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

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
	Value expr.Value
}

// String prints the binding as "x=3".
func (b Binding) String() string { return b.Name + "=" + b.Value.String() }

// Step is one step of a run's trace.
type Step struct {
	Kind   StepKind
	Action string    // the action; spec.Delta for quiescence
	Args   []Binding // in the order of the action's parameters
	// Raw holds the arguments of an unspecified output as the SUT wrote
	// them (they could not be typed), for the trace file.
	Raw map[string]any
	// Transition is the oracle's account of the step: the transition of
	// the test case taken, or the inference rule applied; "" when nothing
	// accepts the observation (the step that failed).
	Transition string
	From, To   string
	// State is the state after the step, as the oracle prints it (the
	// first one when the observations admit several; States counts them).
	State   string
	States  int
	Planned bool          // a send on a path to the target found by planning
	Note    string        // what was wrong with an unspecified output
	Silence time.Duration // for quiescence: how long the SUT was silent
	// Unconfirmed marks a quiescence concluded after the window only (the
	// verdict did not depend on it then); Retracted one that a later
	// output showed to be latency, not quiescence: the run was judged
	// without it from that output on.
	Unconfirmed, Retracted bool
	// Detail is the oracle's own record of the step (the sets of contexts
	// of an on-line step, say).
	Detail any
}

// args returns the step's arguments by name.
func (s Step) args() map[string]expr.Value {
	m := make(map[string]expr.Value, len(s.Args))
	for _, b := range s.Args {
		m[b.Name] = b.Value
	}
	return m
}

// Describe prints a step's action as "ok(p=2)".
func Describe(s Step) string {
	if len(s.Args) == 0 {
		return s.Action
	}
	parts := make([]string, len(s.Args))
	for i, b := range s.Args {
		parts[i] = b.String()
	}
	return s.Action + "(" + strings.Join(parts, ", ") + ")"
}

// Ordered returns args in the order of the action's parameters.
func Ordered(a *spec.Action, args map[string]expr.Value) []Binding {
	var bs []Binding
	if a == nil {
		for _, k := range slices.Sorted(maps.Keys(args)) {
			bs = append(bs, Binding{k, args[k]})
		}
		return bs
	}
	for _, p := range a.Params {
		if v, ok := args[p.Name]; ok {
			bs = append(bs, Binding{p.Name, v})
		}
	}
	return bs
}

// DescribeAction prints an action with arguments as "in(p=5)", the
// arguments sorted by name.
func DescribeAction(action string, args map[string]expr.Value) string {
	if len(args) == 0 {
		return action
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(args)) {
		parts = append(parts, k+"="+args[k].String())
	}
	return action + "(" + strings.Join(parts, ", ") + ")"
}
