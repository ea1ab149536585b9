// Package jsonl is the plumbing shared by the example SUTs. Each example
// writes its system once, as a Machine: a state machine that takes one
// input message and returns the output messages it causes. The same
// machine then runs
//
//   - as a process, with Serve: JSON Lines on stdin and stdout as described
//     in docs/reference.md#wire-protocol (numbers kept as json.Number, so integers of any size
//     survive; one output line per write; diagnostics on stderr, prefixed
//     with the SUT's name), optionally after a start-up delay read from the
//     environment variable STG_EXAMPLE_DELAY;
//   - in the tester's process, with Adapt: an adapter.SUT whose quiescence
//     is exact (an input that causes no output leaves it quiescent).
package jsonl

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
)

// Message is one message of the protocol: {"action":"in","args":{"p":5}}.
// In an input, integer arguments are json.Numbers and enumeration
// constants are strings; an output may also carry int, int64 and
// *big.Int values.
type Message struct {
	Action string         `json:"action"`
	Args   map[string]any `json:"args,omitempty"`
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

// Out returns an output message, an action and its arguments given as
// name, value pairs: Out("ok", "p", d) is {"action":"ok","args":{"p":...}}.
// A *big.Int argument is copied, so the machine may go on changing it.
func Out(action string, kv ...any) Message {
	m := Message{Action: action}
	if len(kv) > 0 {
		m.Args = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			v := kv[i+1]
			if b, ok := v.(*big.Int); ok {
				v = new(big.Int).Set(b)
			}
			m.Args[kv[i].(string)] = v
		}
	}
	return m
}

// A Machine is an example system as a state machine. Input takes one input
// message and returns the outputs it causes, in order (none: the system is
// then quiescent). It returns ok false, and changes nothing, when it does
// not take the message: an unknown action, an action not enabled in its
// state, or ill-formed arguments.
type Machine interface {
	Input(Message) (outs []Message, ok bool)
}

// DelayVariable names the environment variable that Serve reads for a
// start-up delay, in time.ParseDuration's syntax ("3s", "500ms").
const DelayVariable = "STG_EXAMPLE_DELAY"

// Serve runs m as a process: after the start-up delay of DelayVariable, if
// set, it reads one input message per line from stdin until stdin ends and
// writes each output as one line on stdout. Blank lines are skipped; a
// line that is not a JSON message is reported on stderr as "name: bad
// input: ..." and skipped, and so, as "name: ignoring LINE", is a message
// that m does not take. Serve exits the process with status 2 on a bad
// delay and 1 when stdout cannot be written.
func Serve(name string, m Machine) {
	if d := os.Getenv(DelayVariable); d != "" {
		delay, err := time.ParseDuration(d)
		if err != nil || delay < 0 {
			fmt.Fprintf(os.Stderr, "%s: bad %s=%q: want a duration such as 3s\n", name, DelayVariable, d)
			os.Exit(2)
		}
		time.Sleep(delay)
	}
	if err := serve(name, m, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

// serve is Serve on the given streams.
func serve(name string, m Machine, in io.Reader, out, diag io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		msg, err := decode(line)
		if err != nil {
			fmt.Fprintln(diag, name+": bad input:", err)
			continue
		}
		outs, ok := m.Input(msg)
		if !ok {
			fmt.Fprintln(diag, name+": ignoring", line)
			continue
		}
		for _, o := range outs {
			b, err := json.Marshal(o)
			if err != nil {
				return err
			}
			if _, err := out.Write(append(b, '\n')); err != nil {
				return err
			}
		}
	}
	return sc.Err()
}

// message is Message under the name that decoding errors have always shown
// on stderr ("Go struct field message.action").
type message Message

func decode(line string) (Message, error) {
	var msg message
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&msg); err != nil {
		return Message{}, err
	}
	return Message(msg), nil
}

// Adapt returns m as an in-process SUT. Arguments reach m as they would
// over the wire (integers and reals as json.Numbers, enumeration constants
// as strings). An input that m does not take is an error of the SUT: a
// test case derived from the spec never sends one.
func Adapt(name string, m Machine) adapter.SUT { return sut{name, m} }

type sut struct {
	name string
	m    Machine
}

func (s sut) Input(action string, args map[string]expr.Value) ([]adapter.Output, error) {
	msg := Message{Action: action, Args: make(map[string]any, len(args))}
	for k, v := range args {
		a, err := wireValue(v)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %s of %s: %v", s.name, k, action, err)
		}
		msg.Args[k] = a
	}
	outs, ok := s.m.Input(msg)
	if !ok {
		return nil, fmt.Errorf("%s: ignoring %s%v: not an input it takes in its state", s.name, action, args)
	}
	r := make([]adapter.Output, len(outs))
	for i, o := range outs {
		r[i] = adapter.Output{Action: o.Action, Args: o.Args}
	}
	return r, nil
}

// wireValue is v as decoding its wire form with json.Decoder.UseNumber
// gives it.
func wireValue(v expr.Value) (any, error) {
	switch v.T.Kind {
	case expr.Int:
		return json.Number(v.Int.String()), nil
	case expr.Real:
		if v.Rat.IsInt() {
			return json.Number(v.Rat.Num().String()), nil
		}
		return v.Rat.RatString(), nil
	case expr.Bool:
		return v.Bool, nil
	case expr.EnumKind:
		return v.T.Enum.Values[v.Enum], nil
	case expr.Str:
		return v.Str, nil
	}
	return nil, errors.New("value of unknown type " + v.T.String())
}
