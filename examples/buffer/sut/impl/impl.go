// Package impl implements examples/buffer/spec.yaml once for the reference
// SUT (sut/correct) and its mutants (sut/mutant-*): a FIFO buffer of
// capacity 3.
package impl

import (
	"math/big"

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
)

const capacity = 3

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) {
	var q []*big.Int                    // oldest first
	room, partial := capacity, capacity // put stores while len(q) < room; status is partial while len(q) < partial
	if f == CapacityOffByOne {
		room = capacity + 1
	}
	if f == LevelOffByOne {
		partial = capacity - 1
	}
	jsonl.Serve("buffer", func(msg jsonl.Message) bool {
		switch msg.Action {
		case "put":
			v, ok := msg.Int("v")
			if !ok {
				return false
			}
			if len(q) < room {
				q = append(q, v)
				jsonl.Emit("stored", "n", len(q))
			} else {
				jsonl.Emit("full")
			}
		case "get":
			switch {
			case len(q) == 0:
				if f != SilentEmpty {
					jsonl.Emit("empty")
				}
			case f == LIFO:
				jsonl.Emit("item", "v", q[len(q)-1])
				q = q[:len(q)-1]
			default:
				jsonl.Emit("item", "v", q[0])
				q = q[1:]
			}
		case "status":
			switch {
			case len(q) == 0:
				jsonl.Emit("level", "l", "drained")
			case len(q) < partial:
				jsonl.Emit("level", "l", "partial")
			default:
				jsonl.Emit("level", "l", "filled")
			}
		default:
			return false
		}
		return true
	})
}
