// Package impl implements examples/cmp/spec.yaml once for the reference SUT
// (sut/correct) and its mutants (sut/mutant-*): it reads two numbers x and
// y, answers ok(y-x) if y-x >= 2 and nok(y-x) otherwise, then end. Run
// serves it as a process, New as an in-process SUT.
package impl

import (
	"math/big"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct     Fault = iota
	NoEnd             // never sends end after the answer (unexpected quiescence)
	OkThreshold       // answers ok only when y-x >= 3 (off-by-one in the guard p >= 2)
	WrongDiff         // answers x-y instead of y-x (wrong value)
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault { return []Fault{Correct, NoEnd, OkThreshold, WrongDiff} }

// String returns the directory of the program under sut/ that runs with f:
// "correct" or "mutant-...".
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-no-end", "mutant-ok-threshold", "mutant-wrong-diff"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("cmp", &machine{f: f}) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("cmp", &machine{f: f}) }

type machine struct {
	f Fault
	x *big.Int // nil: waiting for x (Rx); else waiting for y (Ry)
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	p, ok := msg.Int("p")
	if msg.Action != "in" || !ok {
		return nil, false
	}
	if m.x == nil {
		m.x = p
		return nil, true
	}
	d := new(big.Int).Sub(p, m.x)
	if m.f == WrongDiff {
		d.Sub(m.x, p)
	}
	m.x = nil
	var outs []jsonl.Message
	c := d.Cmp(big.NewInt(2))
	if c >= 0 && !(m.f == OkThreshold && c == 0) {
		outs = append(outs, jsonl.Out("ok", "p", d))
	} else {
		outs = append(outs, jsonl.Out("nok", "p", d))
	}
	if m.f != NoEnd {
		outs = append(outs, jsonl.Out("end"))
	}
	return outs, true
}
