// Package impl implements examples/account/spec.yaml once for the
// reference SUT (sut/correct) and its mutant (sut/mutant-*): an account
// at a cash machine with deposits, a daily limit of 10 and no overdraft.
// Run serves it as a process, New as an in-process SUT.
package impl

import (
	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct           Fault = iota
	PaysBeyondBalance       // pays a withdrawal the balance does not cover (the daily limit still checked)
	numFaults
)

// The bounds of the spec.
const (
	maxAmount    = 10 // a deposit or a withdrawal
	maxDeposited = 30 // deposited in all
	dailyLimit   = 10
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault { return []Fault{Correct, PaysBeyondBalance} }

// String returns the directory of the program under sut/ that runs with f.
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-pays-beyond-balance"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("account", &machine{f: f}) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("account", &machine{f: f}) }

type machine struct {
	f                      Fault
	deposited, paid, today int64
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	switch msg.Action {
	case "deposit":
		a, ok := m.amount(msg)
		if !ok || m.deposited+a > maxDeposited {
			return nil, false
		}
		m.deposited += a
		return []jsonl.Message{jsonl.Out("ack", "balance", m.deposited-m.paid)}, true
	case "withdraw":
		a, ok := m.amount(msg)
		if !ok {
			return nil, false
		}
		return []jsonl.Message{m.withdraw(a)}, true
	case "newDay":
		m.today = 0
		return nil, true
	}
	return nil, false
}

func (m *machine) amount(msg jsonl.Message) (int64, bool) {
	n, ok := msg.Int("amount")
	if !ok || !n.IsInt64() || n.Int64() < 1 || n.Int64() > maxAmount {
		return 0, false
	}
	return n.Int64(), true
}

// withdraw pays a, or refuses it: for the balance first, then the limit.
func (m *machine) withdraw(a int64) jsonl.Message {
	if a > m.deposited-m.paid && m.f != PaysBeyondBalance {
		return jsonl.Out("refuse", "reason", "no_funds")
	}
	if m.today+a > dailyLimit {
		return jsonl.Out("refuse", "reason", "no_limit")
	}
	m.paid += a
	m.today += a
	return jsonl.Out("pay", "amount", a)
}
