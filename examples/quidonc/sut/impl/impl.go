// Package impl implements examples/quidonc/spec.yaml once for the
// reference SUT (sut/correct) and its mutants (sut/mutant-*): Qui-Donc, a
// reverse phone directory reached by phone, which waits for a number,
// answers with an emergency message or a name and address, and asks again
// up to twice on silence or an invalid number before it closes. Run serves
// it as a process, New as an in-process SUT.
package impl

import (
	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct            Fault = iota
	NoResetOnEntry           // a listed number answered does not reset the try counter
	HangUpKeepsCounter       // hanging up does not reset the try counter
	ThirdRetry               // asks a third time instead of closing (counter bound 3, not 2)
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault {
	return []Fault{Correct, NoResetOnEntry, HangUpKeepsCounter, ThirdRetry}
}

// String returns the directory of the program under sut/ that runs with f.
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-no-reset-on-entry", "mutant-hangup-keeps-counter", "mutant-third-retry"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("quidonc", &machine{f: f, state: putDown}) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("quidonc", &machine{f: f, state: putDown}) }

// The quiescent phases of the spec's State (the others, in which the
// service speaks, are passed through within one Input).
type phase int

const (
	putDown phase = iota
	welcome       // greeted, waiting for a number
	busy          // closed, until the user hangs up
)

type machine struct {
	f     Fault
	state phase
	tries int64 // the spec's TryCounter
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	switch {
	case msg.Action == "Call" && m.state == putDown:
		m.state = welcome
		return nil, true
	case msg.Action == "HangUp" && m.state != putDown:
		m.state = putDown
		if m.f != HangUpKeepsCounter {
			m.tries = 0
		}
		return nil, true
	case msg.Action == "Delay" && m.state == welcome:
		return m.retry(), true
	case msg.Action == "Enter" && m.state == welcome:
		return m.enter(msg)
	case (msg.Action == "Delay" || msg.Action == "Enter") && m.state == busy:
		return nil, true // the line is closed: ignored
	}
	return nil, false
}

func (m *machine) enter(msg jsonl.Message) ([]jsonl.Message, bool) {
	num, ok := msg.Args["num"].(string)
	if !ok {
		return nil, false
	}
	switch num {
	case "urgent":
		m.tries, m.state = 0, busy
		return []jsonl.Message{jsonl.Out("answer", "kind", "emergency", "left", 2-m.tries)}, true
	case "listed":
		if m.f != NoResetOnEntry {
			m.tries = 0
		}
		return []jsonl.Message{jsonl.Out("answer", "kind", "identity", "left", 2-m.tries)}, true
	case "invalid":
		return m.retry(), true
	}
	return nil, false
}

// retry counts a failed try: it asks again, or closes after the last one.
func (m *machine) retry() []jsonl.Message {
	limit := int64(2)
	if m.f == ThirdRetry {
		limit = 3
	}
	if m.tries < limit {
		m.tries++
		return []jsonl.Message{jsonl.Out("prompt", "try", m.tries)}
	}
	m.state = busy
	return []jsonl.Message{jsonl.Out("close")}
}
