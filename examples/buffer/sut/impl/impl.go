// Package impl implements examples/buffer/spec.yaml once for the reference
// SUT (sut/correct) and its mutants (sut/mutant-*): a FIFO buffer of
// capacity 3. Run serves it as a process, New as an in-process SUT.
package impl

import (
	"math/big"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct          Fault = iota
	CapacityOffByOne       // accepts a fourth value (len(q) <= capacity instead of <): stored instead of full
	LevelOffByOne          // status says filled with 2 values (wrong bound in the level)
	LIFO                   // get returns the newest value instead of the oldest (a stack, not a queue)
	SilentEmpty            // a get on the empty buffer answers nothing (missing empty: unexpected quiescence)
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault {
	return []Fault{Correct, CapacityOffByOne, LevelOffByOne, LIFO, SilentEmpty}
}

// String returns the directory of the program under sut/ that runs with f:
// "correct" or "mutant-...".
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-capacity-off-by-one", "mutant-level-off-by-one", "mutant-lifo", "mutant-silent-empty"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("buffer", newMachine(f)) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("buffer", newMachine(f)) }

const capacity = 3

type machine struct {
	f             Fault
	q             []*big.Int // oldest first
	room, partial int        // put stores while len(q) < room; status is partial while len(q) < partial
}

func newMachine(f Fault) *machine {
	m := &machine{f: f, room: capacity, partial: capacity}
	if f == CapacityOffByOne {
		m.room = capacity + 1
	}
	if f == LevelOffByOne {
		m.partial = capacity - 1
	}
	return m
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	var out jsonl.Message
	switch msg.Action {
	case "put":
		v, ok := msg.Int("v")
		if !ok {
			return nil, false
		}
		if len(m.q) >= m.room {
			out = jsonl.Out("full")
			break
		}
		m.q = append(m.q, v)
		out = jsonl.Out("stored", "n", len(m.q))
	case "get":
		switch {
		case len(m.q) == 0 && m.f == SilentEmpty:
			return nil, true
		case len(m.q) == 0:
			out = jsonl.Out("empty")
		case m.f == LIFO:
			out = jsonl.Out("item", "v", m.q[len(m.q)-1])
			m.q = m.q[:len(m.q)-1]
		default:
			out = jsonl.Out("item", "v", m.q[0])
			m.q = m.q[1:]
		}
	case "status":
		switch {
		case len(m.q) == 0:
			out = jsonl.Out("level", "l", "drained")
		case len(m.q) < m.partial:
			out = jsonl.Out("level", "l", "partial")
		default:
			out = jsonl.Out("level", "l", "filled")
		}
	default:
		return nil, false
	}
	return []jsonl.Message{out}, true
}
