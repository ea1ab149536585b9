package online

import (
	"fmt"
	"maps"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
)

// EventOf types a line of a trace file against the spec m. A send must
// be an input of m with well-typed arguments (an error otherwise: the
// tester cannot have sent it). A receive that is not an output of m, or
// whose arguments are ill-typed, is an unspecified output: an Event
// with Bad set, which no transition matches (rule 2).
func EventOf(m *spec.Model, te spec.TraceEvent) (Event, error) {
	if !te.Send && te.Action == spec.Delta {
		return Quiescence(), nil
	}
	ev := Event{Stim: te.Send, Action: te.Action}
	a := m.Action(te.Action)
	want := spec.Output
	if te.Send {
		want = spec.Input
	}
	if a == nil || a.Dir != want {
		if te.Send {
			return ev, fmt.Errorf("send %s: not an input of %s", te.Action, m.Name)
		}
		ev.Bad = fmt.Sprintf("%s is not an output of %s", te.Action, m.Name)
		return ev, nil
	}
	args, err := adapter.DecodeArgs(a, te.Args)
	if err != nil {
		if te.Send {
			return ev, fmt.Errorf("send %s: %v", te.Action, err)
		}
		ev.Bad = "ill-typed arguments: " + err.Error()
		return ev, nil
	}
	if len(args) > 0 {
		ev.Args = args
	}
	return ev, nil
}

// outputEvent types an output of the SUT against the spec m, as EventOf
// does a receive.
func outputEvent(m *spec.Model, out *adapter.Output) Event {
	ev, _ := EventOf(m, spec.TraceEvent{Action: out.Action, Args: out.Args})
	if out.Action == spec.Delta { // a SUT cannot emit quiescence
		ev = Event{Action: out.Action, Bad: "delta is not an output: quiescence is observed, not emitted"}
	}
	return ev
}

// TraceEvent returns ev as a line of a trace file. An unspecified
// output keeps the arguments the SUT wrote (raw).
func (ev Event) TraceEvent(raw map[string]any) spec.TraceEvent {
	te := spec.TraceEvent{Send: ev.Stim, Action: ev.Action}
	if ev.Bad != "" {
		te.Args = raw
		return te
	}
	if len(ev.Args) > 0 {
		te.Args = make(map[string]any, len(ev.Args))
		for k, v := range maps.All(ev.Args) {
			te.Args[k] = v
		}
	}
	return te
}
