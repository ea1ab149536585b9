// Package impl implements examples/tank/spec.yaml once for the reference
// SUT (sut/correct) and its mutants (sut/mutant-*): a 9-litre tank filled
// 1 to 3 litres at a time, drained at once, whose gauge reports the level
// and whether it is high (7 litres or more). Run serves it as a process,
// New as an in-process SUT.
package impl

import (
	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct        Fault = iota
	DrainLeavesOne       // a drain leaves 1 litre in the tank
	HighAt8              // the gauge says high from 8 litres, not 7
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault { return []Fault{Correct, DrainLeavesOne, HighAt8} }

// String returns the directory of the program under sut/ that runs with f.
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-drain-leaves-one", "mutant-high-at-8"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("tank", &machine{f: f}) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("tank", &machine{f: f}) }

type machine struct {
	f     Fault
	level int64
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	switch msg.Action {
	case "fill":
		n, ok := msg.Int("n")
		if !ok || !n.IsInt64() || n.Int64() < 1 || n.Int64() > 3 || m.level+n.Int64() > 9 {
			return nil, false
		}
		m.level += n.Int64()
		return nil, true
	case "drain":
		m.level = 0
		if m.f == DrainLeavesOne {
			m.level = 1
		}
		return nil, true
	case "read":
		high := m.level >= 7
		if m.f == HighAt8 {
			high = m.level >= 8
		}
		return []jsonl.Message{jsonl.Out("gauge", "v", m.level, "high", high)}, true
	}
	return nil, false
}
