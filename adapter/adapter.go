package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Input is a message from the tester to the SUT: an input action of the
// SUT (a send action of the test case) with typed arguments.
type Input struct {
	Action string
	Args   map[string]expr.Value
}

// Output is a message from the SUT to the tester, as the SUT wrote it.
// The runner checks it against the test case. Args values may be
//
//   - int, int64, *big.Int or json.Number for int parameters,
//   - *big.Rat, a json.Number or a string such as "7/2" or "2.5" for real
//     parameters (an integer also fits a real parameter),
//   - bool for bool parameters,
//   - a string naming the constant for enumerated parameters,
//   - or a expr.Value of the parameter's type.
type Output struct {
	Action string
	Args   map[string]any
	// At is when the adapter read the output from the SUT (zero when
	// unknown, as for an in-process SUT); the runner measures response
	// latencies with it.
	At time.Time
}

// An Adapter connects the runner to a SUT. Adapters are used by one
// goroutine at a time.
type Adapter interface {
	// Send delivers an input to the SUT. It fails with an error wrapping
	// ErrSUTUnavailable when the SUT cannot take it (it closed its input;
	// it ended: an *ExitError), and with ctx's error when ctx ends first
	// (a SUT that does not read its input blocks Send until then).
	Send(ctx context.Context, in Input) error
	// Receive returns the next output of the SUT, waiting at most wait
	// (0: only an output already there). It returns nil only when no
	// output came: for a stream, when a last read that does not wait,
	// after the wait, found no complete line, so that an output the SUT
	// has written is never taken for silence. After a positive wait, nil
	// is quiescence. An output that cannot be read returns an
	// *OutputError; a SUT that ended, an *ExitError. When ctx ends first
	// it returns ctx's error.
	Receive(ctx context.Context, wait time.Duration) (*Output, error)
	// Close releases the SUT (for a process: kills its process group).
	Close() error
}

// A Timed adapter talks to a SUT over a stream, where quiescence can only
// be decided by waiting. A Listener confirms a quiescence that would lead
// to Fail with a longer window, and gives a SUT that has not yet been
// heard from a start-up allowance. Adapters that are not Timed (InProcess)
// have exact quiescence: Receive returns nil at once when the SUT has
// nothing more to say.
type Timed interface {
	Adapter
	// Started returns when the SUT was started (or connected to) and
	// whether it has been heard from since: a readiness line
	// {"ready":true} or any output. Until then it may still be starting.
	Started() (at time.Time, heard bool)
}

// An ExitError reports a SUT that ended during a run: its process exited
// or was killed, or its connection was closed or reset. It wraps
// ErrSUTUnavailable.
type ExitError struct {
	What   string   // "exit status 1", "signal: killed", "connection reset by peer", ...
	Stderr []string // the SUT's last lines on its standard error, oldest first
}

func (e *ExitError) Error() string {
	s := "the SUT ended: " + expr.Printable(e.What)
	if len(e.Stderr) > 0 {
		lines := make([]string, len(e.Stderr))
		for i, l := range e.Stderr {
			lines[i] = expr.Printable(l) // no escape sequence reaches the terminal
		}
		s += "; its last lines on stderr:\n    " + strings.Join(lines, "\n    ")
	}
	return s
}

func (e *ExitError) Unwrap() error { return ErrSUTUnavailable }

// ErrSUTUnavailable reports a SUT that cannot be started or talked to.
var ErrSUTUnavailable = errors.New("SUT unavailable")

// unavailable returns an error wrapping ErrSUTUnavailable.
func unavailable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrSUTUnavailable, fmt.Sprintf(format, args...))
}

// An OutputError is an output of the SUT that the tester cannot read:
// not valid JSON, or not a message. It is an unspecified output: Fail.
type OutputError struct {
	Line string // the offending text (possibly cut)
	Msg  string
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("%s: %q", e.Msg, e.Line)
}

// maxLine bounds one message of the wire protocol.
const maxLine = 1 << 20

// encodeInput writes in as one JSON line.
func encodeInput(in Input) []byte {
	var b bytes.Buffer
	name, _ := json.Marshal(in.Action)
	b.WriteString(`{"action":`)
	b.Write(name)
	if len(in.Args) > 0 {
		b.WriteString(`,"args":{`)
		names := slices.Sorted(maps.Keys(in.Args))
		for i, p := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(p)
			b.Write(k)
			b.WriteByte(':')
			b.Write(encodeValue(in.Args[p]))
		}
		b.WriteByte('}')
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// encodeValue writes v as JSON: integers as numbers of any size, reals as
// numbers when integral and as "N/D" strings otherwise, enum constants as
// strings, strings as JSON strings (a byte sequence that is not UTF-8
// has its invalid bytes replaced by U+FFFD, as encoding/json does).
func encodeValue(v expr.Value) []byte {
	switch v.T.Kind {
	case expr.Int:
		return []byte(v.Int.String())
	case expr.Real:
		if v.Rat.IsInt() {
			return []byte(v.Rat.Num().String())
		}
		s, _ := json.Marshal(v.Rat.String())
		return s
	case expr.Bool:
		if v.Bool {
			return []byte("true")
		}
		return []byte("false")
	case expr.EnumKind:
		s, _ := json.Marshal(v.T.Enum.Values[v.Enum])
		return s
	case expr.Str:
		s, _ := json.Marshal(v.Str)
		return s
	}
	return []byte("null")
}

// decodeLine reads one line of the wire protocol: an output, or the
// readiness line {"ready":true} (ready is then true and out nil).
func decodeLine(line []byte) (out *Output, ready bool, err error) {
	text := strings.TrimSpace(string(line))
	cut := text
	if len(cut) > 200 {
		cut = cut[:200] + "..."
	}
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var raw map[string]any
	if err := d.Decode(&raw); err != nil {
		return nil, false, &OutputError{Line: cut, Msg: "output is not a JSON object: " + err.Error()}
	}
	if d.More() {
		return nil, false, &OutputError{Line: cut, Msg: "output has text after the JSON object"}
	}
	if err := uniqueKeys(text); err != nil {
		return nil, false, &OutputError{Line: cut, Msg: err.Error()}
	}
	if r, ok := raw["ready"]; ok {
		if r != true || len(raw) != 1 {
			return nil, false, &OutputError{Line: cut, Msg: `a readiness line must be exactly {"ready":true}`}
		}
		return nil, true, nil
	}
	out = &Output{}
	for k, v := range raw {
		switch k {
		case "action":
			s, ok := v.(string)
			if !ok {
				return nil, false, &OutputError{Line: cut, Msg: `"action" is not a string`}
			}
			out.Action = s
		case "args":
			if v == nil {
				continue
			}
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false, &OutputError{Line: cut, Msg: `"args" is not an object`}
			}
			out.Args = m
		default:
			return nil, false, &OutputError{Line: cut, Msg: fmt.Sprintf("unknown field %q", k)}
		}
	}
	if out.Action == "" {
		return nil, false, &OutputError{Line: cut, Msg: `output has no "action"`}
	}
	return out, false, nil
}

// DecodeArgs checks the arguments of an output against the signature of
// a and converts them to values. The error says what is wrong.
func DecodeArgs(a *spec.Action, args map[string]any) (map[string]expr.Value, error) {
	vals := make(map[string]expr.Value, len(a.Params))
	for _, p := range a.Params {
		raw, ok := args[p.Name]
		if !ok {
			return nil, fmt.Errorf("missing argument %s of %s", p.Name, a.Name)
		}
		v, err := convertValue(raw, p.Type)
		if err == nil {
			err = p.Admits(v) // a range is part of the type (spec/ranges.go)
		}
		if err != nil {
			return nil, fmt.Errorf("argument %s of %s: %v", p.Name, a.Name, err)
		}
		vals[p.Name] = v
	}
	if len(args) > len(a.Params) {
		var extra []string
		for k := range args {
			if _, ok := vals[k]; !ok {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra)
		return nil, fmt.Errorf("%s has no parameter %s", a.Name, expr.Printable(strings.Join(extra, ", ")))
	}
	return vals, nil
}

// convertValue converts a Go or JSON value to a value of type t.
func convertValue(raw any, t expr.Type) (expr.Value, error) {
	bad := func() (expr.Value, error) {
		return expr.Value{}, fmt.Errorf("%s is not a value of type %s", describeRaw(raw), t)
	}
	switch x := raw.(type) {
	case expr.Value:
		if x.T == t {
			return x, nil
		}
		if t == expr.RealType && x.T == expr.IntType {
			return expr.RatValue(new(big.Rat).SetInt(x.Int)), nil
		}
		return bad()
	case int:
		return convertNumber(new(big.Rat).SetInt64(int64(x)), t, bad)
	case int64:
		return convertNumber(new(big.Rat).SetInt64(x), t, bad)
	case *big.Int:
		if x == nil {
			return bad()
		}
		return convertNumber(new(big.Rat).SetInt(x), t, bad)
	case *big.Rat:
		if x == nil {
			return bad()
		}
		return convertNumber(new(big.Rat).Set(x), t, bad)
	case json.Number:
		r, ok := parseNumber(string(x))
		if !ok {
			return bad()
		}
		return convertNumber(r, t, bad)
	case bool:
		if t == expr.BoolType {
			return expr.BoolValue(x), nil
		}
		return bad()
	case string:
		switch t.Kind {
		case expr.Str:
			return expr.StringValue(x), nil
		case expr.EnumKind:
			if i := t.Enum.Index(x); i >= 0 {
				return expr.EnumValue(t.Enum, i), nil
			}
		case expr.Real:
			if r, ok := parseNumber(x); ok {
				return expr.RatValue(r), nil
			}
		}
		return bad()
	}
	return bad()
}

func convertNumber(r *big.Rat, t expr.Type, bad func() (expr.Value, error)) (expr.Value, error) {
	switch t.Kind {
	case expr.Int:
		if !r.IsInt() {
			return bad()
		}
		return expr.IntValue(new(big.Int).Set(r.Num())), nil
	case expr.Real:
		return expr.RatValue(r), nil
	}
	return bad()
}

// parseNumber reads a decimal, an exponent form or a quotient "7/2",
// refusing absurd exponents (big.Rat would try to build them). Digits
// are not counted: integers have any size, bounded only by the length
// of a line of the protocol (maxLine) or of a trace.
func parseNumber(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		var exp int
		if _, err := fmt.Sscan(s[i+1:], &exp); err != nil || exp > 1000 || exp < -1000 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

func describeRaw(raw any) string {
	switch x := raw.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", x)
	case json.Number:
		return string(x)
	case expr.Value:
		return x.String() + " (" + x.T.String() + ")"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprint(raw)
}

// maxDepth bounds the nesting of a SUT's line: arguments are scalars or
// arrays of scalars.
const maxDepth = 64

// uniqueKeys reports a key that an object of the JSON text (valid JSON,
// decoded before) has twice: encoding/json keeps the last silently, so
// {"action":"ok","action":"nok"} would be read as nok.
func uniqueKeys(text string) error {
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	return uniqueIn(d, 0)
}

// uniqueIn reads the next value of d, checking its objects' keys.
func uniqueIn(d *json.Decoder, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("output nested more than %d deep", maxDepth)
	}
	tok, err := d.Token()
	if err != nil {
		return fmt.Errorf("output is not a JSON object: %v", err)
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return fmt.Errorf("output is not a JSON object: %v", err)
			}
			key, _ := k.(string)
			if seen[key] {
				return fmt.Errorf("duplicate key %q in the output", key)
			}
			seen[key] = true
			if err := uniqueIn(d, depth+1); err != nil {
				return err
			}
		}
		_, err = d.Token()
	case json.Delim('['):
		for d.More() {
			if err := uniqueIn(d, depth+1); err != nil {
				return err
			}
		}
		_, err = d.Token()
	}
	if err != nil {
		return fmt.Errorf("output is not a JSON object: %v", err)
	}
	return nil
}
