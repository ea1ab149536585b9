// Package impl implements examples/atm/spec.yaml once for the reference SUT
// (sut/correct) and its mutants (sut/mutant-*): the ATM of Fig. 1 of the
// symbolic-execution paper, with a fee of 1 below 1000 and two withdrawals
// per deposit. Run serves it as a process, New as an in-process SUT.
package impl

import (
	"fmt"
	"math/big"
	"os"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct         Fault = iota
	FeeThreshold          // also charges the fee when the account holds exactly 1000 (off-by-one in m < 1000)
	NoFee                 // never charges the fee of 1 below 1000 (wrong balance)
	SilentRefusal         // refuses without sending noMoney (unexpected quiescence; the process says "no money" on stderr)
	ThirdWithdrawal       // pays out a third withdrawal after a deposit (off-by-one in cp <= 2)
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault {
	return []Fault{Correct, FeeThreshold, NoFee, SilentRefusal, ThirdWithdrawal}
}

// String returns the directory of the program under sut/ that runs with f:
// "correct" or "mutant-...".
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-fee-threshold", "mutant-no-fee", "mutant-silent-refusal", "mutant-third-withdrawal"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("atm", newMachine(f, true)) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("atm", newMachine(f, false)) }

var (
	one      = big.NewInt(1)
	thousand = big.NewInt(1000)
)

type machine struct {
	f              Fault
	m              *big.Int // the account
	cp             int      // withdrawals since the last deposit
	maxWithdrawals int
	process        bool // the SilentRefusal mutant writes "no money" on stderr
}

func newMachine(f Fault, process bool) *machine {
	m := &machine{f: f, m: new(big.Int), maxWithdrawals: 2, process: process}
	if f == ThirdWithdrawal {
		m.maxWithdrawals = 3
	}
	return m
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	switch msg.Action {
	case "withdraw":
		x, ok := msg.Int("amount")
		if !ok || x.Sign() <= 0 {
			return nil, false
		}
		return m.withdraw(x), true
	case "deposit":
		t, ok := msg.Int("amount")
		if !ok || t.Sign() <= 0 {
			return nil, false
		}
		m.m.Add(m.m, t)
		m.cp = 0
		return nil, true
	case "checkBalance":
		return []jsonl.Message{jsonl.Out("balance", "sum", m.m)}, true
	}
	return nil, false
}

func (m *machine) withdraw(x *big.Int) []jsonl.Message {
	m.cp++
	if m.cp > m.maxWithdrawals || x.Cmp(m.m) > 0 {
		if m.f == SilentRefusal {
			if m.process {
				fmt.Fprintln(os.Stderr, "atm: no money")
			}
			return nil
		}
		return []jsonl.Message{jsonl.Out("noMoney")}
	}
	c := m.m.Cmp(thousand)
	fee := c < 0 || m.f == FeeThreshold && c == 0 // below 1000, a withdrawal costs 1
	m.m.Sub(m.m, x)
	if fee && m.f != NoFee {
		m.m.Sub(m.m, one)
	}
	return []jsonl.Message{jsonl.Out("cash", "amount", x)}
}
