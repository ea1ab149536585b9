// Package impl implements examples/atm/spec.yaml once for the reference SUT
// (sut/correct) and its mutants (sut/mutant-*): the ATM of Fig. 1 of the
// symbolic-execution paper, with a fee of 1 below 1000 and two withdrawals
// per deposit.
package impl

import (
	"fmt"
	"math/big"
	"os"

	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct         Fault = iota
	FeeThreshold          // also charges the fee when the account holds exactly 1000 (off-by-one in m < 1000)
	NoFee                 // never charges the fee of 1 below 1000 (wrong balance)
	SilentRefusal         // writes "no money" to stderr instead of sending noMoney (unexpected quiescence)
	ThirdWithdrawal       // pays out a third withdrawal after a deposit (off-by-one in cp <= 2)
)

var (
	one      = big.NewInt(1)
	thousand = big.NewInt(1000)
)

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) {
	m := new(big.Int) // the account
	cp := 0           // withdrawals since the last deposit
	maxWithdrawals := 2
	if f == ThirdWithdrawal {
		maxWithdrawals = 3
	}
	jsonl.Serve("atm", func(msg jsonl.Message) bool {
		switch msg.Action {
		case "withdraw":
			x, ok := msg.Int("amount")
			if !ok || x.Sign() <= 0 {
				return false
			}
			cp++
			if cp <= maxWithdrawals && x.Cmp(m) <= 0 {
				c := m.Cmp(thousand)
				fee := c < 0 || f == FeeThreshold && c == 0 // below 1000, a withdrawal costs 1
				m.Sub(m, x)
				if fee && f != NoFee {
					m.Sub(m, one)
				}
				jsonl.Emit("cash", "amount", x)
			} else if f == SilentRefusal {
				fmt.Fprintln(os.Stderr, "atm: no money")
			} else {
				jsonl.Emit("noMoney")
			}
		case "deposit":
			t, ok := msg.Int("amount")
			if !ok || t.Sign() <= 0 {
				return false
			}
			m.Add(m, t)
			cp = 0
		case "checkBalance":
			jsonl.Emit("balance", "sum", m)
		default:
			return false
		}
		return true
	})
}
