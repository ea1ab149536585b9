// Package jsonl is the protocol plumbing shared by the example SUTs: JSON
// Lines on stdin and stdout as described in FORMAT.md §4. Serve reads one
// input message per line (numbers kept as json.Number, so integers of any
// size survive) until stdin ends, Message.Int reads an integer argument as
// a *big.Int, and Emit writes one output message per line, flushed at once.
// Diagnostics go to stderr, prefixed with the SUT's name.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"strings"
)

// Message is one input message: {"action":"in","args":{"p":5}}.
type Message struct {
	Action string         `json:"action"`
	Args   map[string]any `json:"args"`
}

// Int returns the integer argument name, of any size; ok is false when it
// is missing or not a base-10 integer.
func (m Message) Int(name string) (v *big.Int, ok bool) {
	n, ok := m.Args[name].(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Int).SetString(string(n), 10)
}

// message is Message under the name that decoding errors have always shown
// on stderr ("Go struct field message.action").
type message Message

var (
	outLine bytes.Buffer // the output line being written
	out     = json.NewEncoder(&outLine)
)

// Emit writes one output line, an action and its arguments given as name,
// value pairs, and flushes it in a single write; Emit("ok", "p", d) writes
// {"action":"ok","args":{"p":...}}. The process exits with status 1 if
// stdout cannot be written.
func Emit(action string, kv ...any) {
	m := map[string]any{"action": action}
	if len(kv) > 0 {
		args := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			args[kv[i].(string)] = kv[i+1]
		}
		m["args"] = args
	}
	outLine.Reset()
	if err := out.Encode(m); err != nil {
		os.Exit(1)
	}
	if _, err := os.Stdout.Write(outLine.Bytes()); err != nil {
		os.Exit(1)
	}
}

// Serve calls handle with each input message read from stdin and returns
// when stdin ends. Blank lines are skipped; a line that is not a JSON
// message is reported on stderr as "name: bad input: ..." and skipped, and
// so, as "name: ignoring LINE", is a message for which handle returns false.
func Serve(name string, handle func(Message) bool) {
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
			fmt.Fprintln(os.Stderr, name+": bad input:", err)
			continue
		}
		if !handle(Message(msg)) {
			fmt.Fprintln(os.Stderr, name+": ignoring", line)
		}
	}
}
