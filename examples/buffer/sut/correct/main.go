// Command correct implements examples/buffer/spec.yaml: a FIFO buffer of
// capacity 3.
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

const capacity = 3

func main() {
	var q []*big.Int // oldest first
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
			fmt.Fprintln(os.Stderr, "buffer: bad input:", err)
			continue
		}
		switch msg.Action {
		case "put":
			v, ok := intArg(msg, "v")
			if !ok {
				break
			}
			if len(q) < capacity {
				q = append(q, v)
				emit("stored", "n", len(q))
			} else {
				emit("full")
			}
			continue
		case "get":
			if len(q) > 0 {
				emit("item", "v", q[0])
				q = q[1:]
			} else {
				emit("empty")
			}
			continue
		case "status":
			switch {
			case len(q) == 0:
				emit("level", "l", "drained")
			case len(q) < capacity:
				emit("level", "l", "partial")
			default:
				emit("level", "l", "filled")
			}
			continue
		}
		fmt.Fprintln(os.Stderr, "buffer: ignoring", line)
	}
}
