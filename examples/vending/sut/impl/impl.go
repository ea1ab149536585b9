// Package impl implements examples/vending/spec.yaml once for the reference
// SUT (sut/correct) and its mutants (sut/mutant-*): tea costs 40, coffee 60;
// coins of 10, 20 and 50; change is paid - price. Run serves it as a
// process, New as an in-process SUT.
package impl

import (
	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct        Fault = iota
	CoffeePrice          // coffee costs 50 instead of 60 (wrong constant: served too early, wrong change)
	NoChange             // serves the drink but keeps the change (missing output, unexpected quiescence)
	RefundLastCoin       // on cancel gives back only the last coin inserted (wrong value)
	StrictPrice          // serves only when more than the price is paid (off-by-one in paid >= price)
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault {
	return []Fault{Correct, CoffeePrice, NoChange, RefundLastCoin, StrictPrice}
}

// String returns the directory of the program under sut/ that runs with f:
// "correct" or "mutant-...".
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-coffee-price", "mutant-no-change", "mutant-refund-last-coin", "mutant-strict-price"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("vending", newMachine(f)) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("vending", newMachine(f)) }

type machine struct {
	f           Fault
	paying      bool // Idle or Paying
	choice      string
	price, paid int64
	last        int64 // the last coin inserted, ever (RefundLastCoin never resets it)
	prices      map[string]int64
}

func newMachine(f Fault) *machine {
	m := &machine{f: f, prices: map[string]int64{"tea": 40, "coffee": 60}}
	if f == CoffeePrice {
		m.prices["coffee"] = 50
	}
	return m
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	switch {
	case msg.Action == "choose" && !m.paying:
		drink, _ := msg.Args["drink"].(string)
		if m.prices[drink] == 0 {
			return nil, false
		}
		m.choice, m.price, m.paid, m.paying = drink, m.prices[drink], 0, true
		return nil, true
	case msg.Action == "coin" && m.paying:
		v, ok := msg.Int("value")
		if !ok || !v.IsInt64() {
			return nil, false
		}
		value := v.Int64()
		if value != 10 && value != 20 && value != 50 {
			return nil, false
		}
		m.paid += value
		m.last = value
		return m.serve(), true
	case msg.Action == "cancel" && m.paying:
		refund := m.paid
		if m.f == RefundLastCoin {
			refund = m.last
		}
		m.paid, m.price, m.paying = 0, 0, false
		return []jsonl.Message{jsonl.Out("change", "amount", refund)}, true
	}
	return nil, false
}

// serve serves the drink and the change once the price is paid.
func (m *machine) serve() []jsonl.Message {
	if m.paid < m.price || m.paid == m.price && m.f == StrictPrice {
		return nil
	}
	outs := []jsonl.Message{jsonl.Out("serve", "drink", m.choice)}
	if m.paid > m.price && m.f != NoChange {
		outs = append(outs, jsonl.Out("change", "amount", m.paid-m.price))
	}
	m.paid, m.price, m.paying = 0, 0, false
	return outs
}
