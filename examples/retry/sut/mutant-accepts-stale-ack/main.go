// Mutant of examples/retry/sut/correct: takes an ack of an older frame for the current one (seq <= s instead of seq == s).
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
	waiting := false  // Ready or Waiting (frames and reports are sent at once)
	d := new(big.Int) // the message being sent
	s := int64(0)     // its sequence number
	n := int64(0)     // frames sent for it
	frame := func() {
		n++
		emit("frame", "data", d, "seq", s, "attempt", n)
	}
	report := func(status string) {
		emit("report", "status", status, "attempts", n)
		s++
		waiting = false
	}
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
			fmt.Fprintln(os.Stderr, "retry: bad input:", err)
			continue
		}
		switch {
		case msg.Action == "send" && !waiting:
			data, ok := intArg(msg, "data")
			if !ok {
				break
			}
			d, n, waiting = data, 0, true
			frame()
			continue
		case msg.Action == "ack" && waiting:
			seq, ok := intArg(msg, "seq")
			if !ok {
				break
			}
			if seq.Cmp(big.NewInt(s)) <= 0 {
				report("delivered")
			} // else a stale ack: ignored
			continue
		case msg.Action == "timeout" && waiting:
			if n < 3 {
				frame()
			} else {
				report("failed")
			}
			continue
		}
		fmt.Fprintln(os.Stderr, "retry: ignoring", line)
	}
}
