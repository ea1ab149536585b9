// Mutant of examples/vending/sut/correct: on cancel gives back only the last coin inserted (wrong value).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strings"
)

type message struct {
	Action string         `json:"action"`
	Args   map[string]any `json:"args"`
}

var out = json.NewEncoder(os.Stdout)

// emit writes one output line: an action and its arguments as name, value pairs.
func emit(action string, kv ...any) {
	m := map[string]any{"action": action}
	if len(kv) > 0 {
		args := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			args[kv[i].(string)] = kv[i+1]
		}
		m["args"] = args
	}
	if err := out.Encode(m); err != nil {
		os.Exit(1)
	}
}

func intArg(msg message, name string) (*big.Int, bool) {
	n, ok := msg.Args[name].(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Int).SetString(string(n), 10)
}

func main() {
	paying := false // Idle or Paying
	choice := ""
	var price, paid, last int64
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var msg message
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&msg); err != nil {
			fmt.Fprintln(os.Stderr, "vending: bad input:", err)
			continue
		}
		switch {
		case msg.Action == "choose" && !paying:
			drink, _ := msg.Args["drink"].(string)
			prices := map[string]int64{"tea": 40, "coffee": 60}
			if prices[drink] == 0 {
				break
			}
			choice, price, paid, paying = drink, prices[drink], 0, true
			continue
		case msg.Action == "coin" && paying:
			v, ok := intArg(msg, "value")
			if !ok || !v.IsInt64() {
				break
			}
			value := v.Int64()
			if value != 10 && value != 20 && value != 50 {
				break
			}
			paid += value
			last = value
			if paid >= price {
				emit("serve", "drink", choice)
				if paid > price {
					emit("change", "amount", paid-price)
				}
				paid, price, paying = 0, 0, false
			}
			continue
		case msg.Action == "cancel" && paying:
			emit("change", "amount", last)
			paid, price, paying = 0, 0, false
			continue
		}
		fmt.Fprintln(os.Stderr, "vending: ignoring", line)
	}
}
