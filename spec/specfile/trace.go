package specfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// TraceEvent is one line of a trace file (docs/reference.md#trace-files): a stimulus the
// tester sent, an output the SUT emitted, or quiescence observed.
//
//	{"dir":"send","action":"deposit","args":{"v":250}}
//	{"dir":"receive","action":"cash","args":{"v":50}}
//	{"dir":"receive","action":"delta"}
type TraceEvent struct {
	Send   bool   // dir send (tester -> SUT); false: dir receive
	Action string // Delta for quiescence
	// Args holds the arguments as raw JSON values, as in adapter.Output:
	// json.Number (exact, any size), string, bool, and, for an output
	// the SUT wrote with ill-typed arguments, nil, []any or
	// map[string]any; Args is nil without arguments. adapter.DecodeArgs
	// types them against an action (docs/reference.md#wire-protocol).
	Args map[string]any
	Line int // the line in the trace file, from 1 (0 when not read)
}

// ReadTrace reads a trace file in the JSON Lines format of docs/reference.md#trace-files,
// one event per line; blank lines are skipped and unknown fields (a time
// stamp, say) ignored. Numbers are kept exact as json.Number. The error
// is an ErrorList of FILE:LINE:COL messages, one per bad line, or the
// error of r.
func ReadTrace(filename string, r io.Reader) ([]TraceEvent, error) {
	br := bufio.NewReader(r)
	var events []TraceEvent
	var errs expr.ErrorList
	for n := 1; ; n++ {
		line, long, err := readTraceLine(br)
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", filename, err)
		}
		if long {
			errs.Add(expr.Pos{File: filename, Line: n, Col: 1}, "line longer than %d MiB, the limit of a trace line", MaxTraceLine>>20)
			if len(errs) >= maxTraceErrors {
				break
			}
		} else if text := bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(text)) > 0 {
			ev, e := parseTraceLine(text, expr.Pos{File: filename, Line: n})
			if e != nil {
				errs = append(errs, e)
			} else {
				events = append(events, ev)
			}
		}
		if err == io.EOF {
			break
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return events, nil
}

// MaxTraceLine bounds a line of a trace file: four times the longest
// line of the wire protocol, room for what stg adds to an event.
const MaxTraceLine = 4 << 20

// maxTraceErrors ends the reading of a trace with that many long lines.
const maxTraceErrors = 100

// readTraceLine reads a line of at most MaxTraceLine bytes; a longer one
// is skipped to its end (without keeping it) and reported by long.
func readTraceLine(br *bufio.Reader) (line []byte, long bool, err error) {
	for {
		part, err := br.ReadSlice('\n')
		if !long {
			if len(line)+len(part) > MaxTraceLine {
				long, line = true, nil
			} else {
				line = append(line, part...)
			}
		}
		if err != bufio.ErrBufferFull {
			return line, long, err
		}
	}
}

// traceLine decodes one line of a trace with the positions of its
// tokens.
type traceLine struct {
	text []byte
	pos  expr.Pos // the line; Col is set by at
	d    *json.Decoder
}

// at returns the position of the byte at offset off of the line; the
// column counts characters from 1.
func (l *traceLine) at(off int64) expr.Pos {
	off = max(0, min(off, int64(len(l.text))))
	p := l.pos
	p.Col = utf8.RuneCount(l.text[:off]) + 1
	return p
}

// next returns the offset of the next token: the decoder's offset past
// blanks and the separators , and :.
func (l *traceLine) next() int64 {
	off := l.d.InputOffset()
	for off < int64(len(l.text)) && bytes.IndexByte([]byte(" \t\r\n,:"), l.text[off]) >= 0 {
		off++
	}
	return off
}

// syntax reports the first syntax error of the line, if any. The
// offsets of a Decoder's syntax errors are not reliable when Token and
// Decode are mixed; those of a whole-line scan are.
func (l *traceLine) syntax() *expr.Error {
	var raw json.RawMessage // not any: 1e400 is valid JSON, not a float64
	err := json.Unmarshal(l.text, &raw)
	var se *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &se) && strings.HasPrefix(se.Error(), "unexpected end"):
		return l.errorf(int64(len(l.text)), "bad JSON: unexpected end of line")
	case errors.As(err, &se): // Offset counts the bad byte
		return l.errorf(se.Offset-1, "bad JSON: %v", se)
	}
	return l.errorf(0, "bad JSON: %v", err)
}

// fail turns a decoding error into a positioned one; syntax has
// reported syntax errors before.
func (l *traceLine) fail(err error) *expr.Error {
	return l.errorf(l.next(), "bad JSON: %v", err)
}

func (l *traceLine) errorf(off int64, format string, args ...any) *expr.Error {
	return &expr.Error{Pos: l.at(off), Msg: fmt.Sprintf(format, args...)}
}

// object reads a JSON object, calling field for each key with the
// offset of its value; field decodes the value.
func (l *traceLine) object(what string, field func(key string, valOff int64) *expr.Error) *expr.Error {
	start := l.next()
	tok, err := l.d.Token()
	if err != nil {
		return l.fail(err)
	}
	if tok != json.Delim('{') {
		return l.errorf(start, "%s must be a JSON object", what)
	}
	seen := map[string]bool{}
	for l.d.More() {
		keyOff := l.next()
		tok, err := l.d.Token()
		if err != nil {
			return l.fail(err)
		}
		key, ok := tok.(string)
		if !ok { // Token reports a non-string key as a syntax error
			return l.errorf(keyOff, "%s: keys must be strings", what)
		}
		if seen[key] {
			return l.errorf(keyOff, "duplicate field %q in %s", key, what)
		}
		seen[key] = true
		if e := field(key, l.next()); e != nil {
			return e
		}
	}
	if _, err := l.d.Token(); err != nil { // the closing brace
		return l.fail(err)
	}
	return nil
}

// value decodes the next JSON value.
func (l *traceLine) value() (any, *expr.Error) {
	var v any
	if err := l.d.Decode(&v); err != nil {
		return nil, l.fail(err)
	}
	return v, nil
}

func parseTraceLine(text []byte, pos expr.Pos) (TraceEvent, *expr.Error) {
	l := &traceLine{text: text, pos: pos, d: json.NewDecoder(bytes.NewReader(text))}
	l.d.UseNumber()
	ev := TraceEvent{Line: pos.Line}
	if e := l.syntax(); e != nil {
		return ev, e
	}
	var dirSeen bool
	var actionOff, argsOff int64
	e := l.object("a trace event", func(key string, off int64) *expr.Error {
		if key == "args" {
			argsOff = off
			return l.args(&ev)
		}
		v, e := l.value()
		if e != nil {
			return e
		}
		switch key {
		case "dir":
			dirSeen = true
			switch v {
			case "send":
				ev.Send = true
			case "receive":
			default:
				return l.errorf(off, `dir must be "send" or "receive"`)
			}
		case "action":
			s, ok := v.(string)
			if !ok || s == "" {
				return l.errorf(off, "action must be a non-empty string")
			}
			ev.Action, actionOff = s, off
		}
		return nil // unknown fields are ignored
	})
	switch {
	case e != nil:
		return ev, e
	case len(bytes.TrimSpace(text[l.d.InputOffset():])) > 0:
		return ev, l.errorf(l.next(), "text after the trace event")
	case !dirSeen:
		return ev, l.errorf(0, `trace event without "dir"`)
	case ev.Action == "":
		return ev, l.errorf(0, `trace event without "action"`)
	case ev.Action == spec.Delta && ev.Send:
		return ev, l.errorf(actionOff, "delta is quiescence observed: its dir is receive")
	case ev.Action == spec.Delta && len(ev.Args) > 0:
		return ev, l.errorf(argsOff, "delta has no arguments")
	}
	return ev, nil
}

// args reads the value of "args": null or an object. Its values are
// kept as they are: an ill-typed argument of an output is part of what
// happened (an unspecified output), not an error in the file.
func (l *traceLine) args(ev *TraceEvent) *expr.Error {
	if bytes.HasPrefix(l.text[l.next():], []byte("null")) {
		_, e := l.value()
		return e
	}
	m := map[string]any{}
	e := l.object("args", func(name string, _ int64) *expr.Error {
		v, e := l.value()
		m[name] = v
		return e
	})
	if e == nil && len(m) > 0 {
		ev.Args = m
	}
	return e
}

// WriteTraceEvent writes ev as one line of a trace file, which ReadTrace
// reads back as ev (Line aside). Args values may be the raw JSON values
// ReadTrace gives, Value, *big.Int, *big.Rat, or anything else
// encoding/json marshals; Values and big numbers are written as in the
// wire protocol (docs/reference.md#wire-protocol), reals that are not integers as strings
// "N/D".
func WriteTraceEvent(w io.Writer, ev TraceEvent) error {
	if ev.Action == "" {
		return errors.New("trace event without an action")
	}
	if ev.Action == spec.Delta && (ev.Send || len(ev.Args) > 0) {
		return errors.New("delta is quiescence observed: a receive without arguments")
	}
	var b bytes.Buffer
	dir := "receive"
	if ev.Send {
		dir = "send"
	}
	fmt.Fprintf(&b, `{"dir":%q,"action":%s`, dir, jsonString(ev.Action))
	if len(ev.Args) > 0 {
		b.WriteString(`,"args":{`)
		names := make([]string, 0, len(ev.Args))
		for k := range ev.Args {
			names = append(names, k)
		}
		slices.Sort(names)
		for i, k := range names {
			v, err := traceValue(ev.Args[k])
			if err != nil {
				return fmt.Errorf("argument %s of %s: %v", k, ev.Action, err)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(jsonString(k))
			b.WriteByte(':')
			b.WriteString(v)
		}
		b.WriteByte('}')
	}
	b.WriteString("}\n")
	_, err := w.Write(b.Bytes())
	return err
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// traceValue returns the JSON text of an argument value.
func traceValue(v any) (string, error) {
	switch x := v.(type) {
	case json.Number:
		if _, err := json.Marshal(x); err != nil {
			return "", fmt.Errorf("invalid number %q", string(x))
		}
		return string(x), nil
	case *big.Int:
		if x != nil {
			return x.String(), nil
		}
	case *big.Rat:
		if x != nil && x.IsInt() {
			return x.Num().String(), nil
		}
		if x != nil {
			return jsonString(x.String()), nil
		}
	case expr.Value:
		return valueJSON(x)
	default:
		if b, err := json.Marshal(x); err == nil {
			return string(b), nil
		}
	}
	return "", fmt.Errorf("cannot write %T %v", v, v)
}

func valueJSON(v expr.Value) (string, error) {
	switch v.T.Kind {
	case expr.Int:
		return traceValue(v.Int)
	case expr.Real:
		return traceValue(v.Rat)
	case expr.Bool:
		return fmt.Sprint(v.Bool), nil
	case expr.EnumKind:
		if v.T.Enum != nil && v.Enum >= 0 && v.Enum < len(v.T.Enum.Values) {
			return jsonString(v.T.Enum.Values[v.Enum]), nil
		}
	case expr.Str:
		return jsonString(v.Str), nil
	}
	return "", fmt.Errorf("invalid value")
}
