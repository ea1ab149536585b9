// Package impl implements examples/retry/spec.yaml once for the reference
// SUT (sut/correct) and its mutants (sut/mutant-*): a sender that
// retransmits a frame on timeout and gives up after 3 attempts.
package impl

import (
	"math/big"

	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct             Fault = iota
	AcceptsStaleAck           // takes an ack of an older frame for the current one (seq <= s instead of seq == s)
	GivesUpEarly              // gives up after 2 attempts instead of 3 (off-by-one in n < 3)
	ReportRetries             // reports the number of retries (attempts - 1) instead of attempts (wrong value)
	SeqKeptAfterFailure       // reuses the sequence number of a message it gave up on (wrong seq in the next frame)
)

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) {
	waiting := false  // Ready or Waiting (frames and reports are sent at once)
	d := new(big.Int) // the message being sent
	s := int64(0)     // its sequence number
	n := int64(0)     // frames sent for it
	maxAttempts := int64(3)
	if f == GivesUpEarly {
		maxAttempts = 2
	}
	frame := func() {
		n++
		jsonl.Emit("frame", "data", d, "seq", s, "attempt", n)
	}
	report := func(status string) {
		attempts := n
		if f == ReportRetries {
			attempts = n - 1
		}
		jsonl.Emit("report", "status", status, "attempts", attempts)
		if status == "delivered" || f != SeqKeptAfterFailure {
			s++
		}
		waiting = false
	}
	jsonl.Serve("retry", func(msg jsonl.Message) bool {
		switch {
		case msg.Action == "send" && !waiting:
			data, ok := msg.Int("data")
			if !ok {
				return false
			}
			d, n, waiting = data, 0, true
			frame()
			return true
		case msg.Action == "ack" && waiting:
			seq, ok := msg.Int("seq")
			if !ok {
				return false
			}
			c := seq.Cmp(big.NewInt(s))
			if c == 0 || f == AcceptsStaleAck && c < 0 {
				report("delivered")
			} // else a stale ack: ignored
			return true
		case msg.Action == "timeout" && waiting:
			if n < maxAttempts {
				frame()
			} else {
				report("failed")
			}
			return true
		}
		return false
	})
}
