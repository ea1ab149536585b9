// Mutant of examples/cmp/sut/correct: answers ok only when y-x >= 3 (off-by-one in the guard p >= 2).
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
	var x *big.Int // nil: waiting for x (Rx); else waiting for y (Ry)
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
			fmt.Fprintln(os.Stderr, "cmp: bad input:", err)
			continue
		}
		p, ok := intArg(msg, "p")
		if msg.Action != "in" || !ok {
			fmt.Fprintln(os.Stderr, "cmp: ignoring", line)
			continue
		}
		if x == nil {
			x = p
			continue
		}
		d := new(big.Int).Sub(p, x)
		if d.Cmp(big.NewInt(2)) > 0 {
			emit("ok", "p", d)
		} else {
			emit("nok", "p", d)
		}
		emit("end")
		x = nil
	}
}
