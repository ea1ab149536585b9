// Package impl implements examples/vending/spec.yaml once for the reference
// SUT (sut/correct) and its mutants (sut/mutant-*): tea costs 40, coffee 60;
// coins of 10, 20 and 50; change is paid - price.
package impl

import "github.com/stg-tool/stg/examples/internal/jsonl"

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct        Fault = iota
	CoffeePrice          // coffee costs 50 instead of 60 (wrong constant: served too early, wrong change)
	NoChange             // serves the drink but keeps the change (missing output, unexpected quiescence)
	RefundLastCoin       // on cancel gives back only the last coin inserted (wrong value)
	StrictPrice          // serves only when more than the price is paid (off-by-one in paid >= price)
)

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) {
	paying := false // Idle or Paying
	choice := ""
	var price, paid int64
	var last int64 // the last coin inserted, ever (RefundLastCoin never resets it)
	prices := map[string]int64{"tea": 40, "coffee": 60}
	if f == CoffeePrice {
		prices["coffee"] = 50
	}
	jsonl.Serve("vending", func(msg jsonl.Message) bool {
		switch {
		case msg.Action == "choose" && !paying:
			drink, _ := msg.Args["drink"].(string)
			if prices[drink] == 0 {
				return false
			}
			choice, price, paid, paying = drink, prices[drink], 0, true
			return true
		case msg.Action == "coin" && paying:
			v, ok := msg.Int("value")
			if !ok || !v.IsInt64() {
				return false
			}
			value := v.Int64()
			if value != 10 && value != 20 && value != 50 {
				return false
			}
			paid += value
			last = value
			if paid > price || paid == price && f != StrictPrice {
				jsonl.Emit("serve", "drink", choice)
				if paid > price && f != NoChange {
					jsonl.Emit("change", "amount", paid-price)
				}
				paid, price, paying = 0, 0, false
			}
			return true
		case msg.Action == "cancel" && paying:
			if f == RefundLastCoin {
				jsonl.Emit("change", "amount", last)
			} else {
				jsonl.Emit("change", "amount", paid)
			}
			paid, price, paying = 0, 0, false
			return true
		}
		return false
	})
}
