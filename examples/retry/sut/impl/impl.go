// Package impl implements examples/retry/spec.yaml once for the reference
// SUT (sut/correct) and its mutants (sut/mutant-*): a sender that
// retransmits a frame on timeout and gives up after 3 attempts. Run serves
// it as a process, New as an in-process SUT.
package impl

import (
	"math/big"

	"github.com/stg-tool/stg/adapter"
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
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault {
	return []Fault{Correct, AcceptsStaleAck, GivesUpEarly, ReportRetries, SeqKeptAfterFailure}
}

// String returns the directory of the program under sut/ that runs with f:
// "correct" or "mutant-...".
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-accepts-stale-ack", "mutant-gives-up-early", "mutant-report-retries", "mutant-seq-kept-after-failure"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("retry", newMachine(f)) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("retry", newMachine(f)) }

type machine struct {
	f           Fault
	waiting     bool     // Ready or Waiting (frames and reports are sent at once)
	d           *big.Int // the message being sent
	s           int64    // its sequence number
	n           int64    // frames sent for it
	maxAttempts int64
}

func newMachine(f Fault) *machine {
	m := &machine{f: f, d: new(big.Int), maxAttempts: 3}
	if f == GivesUpEarly {
		m.maxAttempts = 2
	}
	return m
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	switch {
	case msg.Action == "send" && !m.waiting:
		data, ok := msg.Int("data")
		if !ok {
			return nil, false
		}
		m.d, m.n, m.waiting = data, 0, true
		return m.frame(), true
	case msg.Action == "ack" && m.waiting:
		seq, ok := msg.Int("seq")
		if !ok {
			return nil, false
		}
		c := seq.Cmp(big.NewInt(m.s))
		if c == 0 || m.f == AcceptsStaleAck && c < 0 {
			return m.report("delivered"), true
		}
		return nil, true // a stale ack: ignored
	case msg.Action == "timeout" && m.waiting:
		if m.n < m.maxAttempts {
			return m.frame(), true
		}
		return m.report("failed"), true
	}
	return nil, false
}

func (m *machine) frame() []jsonl.Message {
	m.n++
	return []jsonl.Message{jsonl.Out("frame", "data", m.d, "seq", m.s, "attempt", m.n)}
}

func (m *machine) report(status string) []jsonl.Message {
	attempts := m.n
	if m.f == ReportRetries {
		attempts = m.n - 1
	}
	if status == "delivered" || m.f != SeqKeptAfterFailure {
		m.s++
	}
	m.waiting = false
	return []jsonl.Message{jsonl.Out("report", "status", status, "attempts", attempts)}
}
