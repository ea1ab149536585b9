// Package impl implements examples/cmp/spec.yaml once for the reference SUT
// (sut/correct) and its mutants (sut/mutant-*): it reads two numbers x and
// y, answers ok(y-x) if y-x >= 2 and nok(y-x) otherwise, then end.
package impl

import (
	"math/big"

	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct     Fault = iota
	NoEnd             // never sends end after the answer (unexpected quiescence)
	OkThreshold       // answers ok only when y-x >= 3 (off-by-one in the guard p >= 2)
	WrongDiff         // answers x-y instead of y-x (wrong value)
)

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) {
	var x *big.Int // nil: waiting for x (Rx); else waiting for y (Ry)
	jsonl.Serve("cmp", func(msg jsonl.Message) bool {
		p, ok := msg.Int("p")
		if msg.Action != "in" || !ok {
			return false
		}
		if x == nil {
			x = p
			return true
		}
		d := new(big.Int).Sub(p, x)
		if f == WrongDiff {
			d.Sub(x, p)
		}
		c := d.Cmp(big.NewInt(2))
		if c >= 0 && !(f == OkThreshold && c == 0) {
			jsonl.Emit("ok", "p", d)
		} else {
			jsonl.Emit("nok", "p", d)
		}
		if f != NoEnd {
			jsonl.Emit("end")
		}
		x = nil
		return true
	})
}
