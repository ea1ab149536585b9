// Mutant of examples/atm/sut/correct: also charges the fee when the account holds exactly 1000 (off-by-one in m < 1000).
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

var (
	one      = big.NewInt(1)
	thousand = big.NewInt(1000)
)

func main() {
	m := new(big.Int) // the account
	cp := 0           // withdrawals since the last deposit
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
			fmt.Fprintln(os.Stderr, "atm: bad input:", err)
			continue
		}
		switch msg.Action {
		case "withdraw":
			x, ok := intArg(msg, "amount")
			if !ok || x.Sign() <= 0 {
				fmt.Fprintln(os.Stderr, "atm: ignoring", line)
				continue
			}
			cp++
			if cp <= 2 && x.Cmp(m) <= 0 {
				fee := m.Cmp(thousand) <= 0 // below 1000, a withdrawal costs 1
				m.Sub(m, x)
				if fee {
					m.Sub(m, one)
				}
				emit("cash", "amount", x)
			} else {
				emit("noMoney")
			}
		case "deposit":
			t, ok := intArg(msg, "amount")
			if !ok || t.Sign() <= 0 {
				fmt.Fprintln(os.Stderr, "atm: ignoring", line)
				continue
			}
			m.Add(m, t)
			cp = 0
		case "checkBalance":
			emit("balance", "sum", m)
		default:
			fmt.Fprintln(os.Stderr, "atm: ignoring", line)
		}
	}
}
