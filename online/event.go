package online

import (
	"fmt"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// EventOf types a line of a trace file against the spec m. A send must
// be an input of m with well-typed arguments (an error otherwise: the
// tester cannot have sent it). A receive that is not an output of m, or
// whose arguments are ill-typed, is an unspecified output: an Event
// with Bad set, which no transition matches (rule 2).
func EventOf(m *spec.Model, te specfile.TraceEvent) (Event, error) {
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
