package extfunc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
)

// encodeRequest writes the request line {"args":[...]} for f(args...),
// the cells of an array parameter as a nested array.
func encodeRequest(f *expr.Func, args []expr.Value) []byte {
	var b bytes.Buffer
	b.WriteString(`{"args":[`)
	k := 0
	for i, n := range paramLens(f) {
		if i > 0 {
			b.WriteByte(',')
		}
		if n == 0 {
			b.Write(adapter.EncodeValue(args[k]))
			k++
			continue
		}
		b.WriteByte('[')
		for j := 0; j < n; j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(adapter.EncodeValue(args[k]))
			k++
		}
		b.WriteByte(']')
	}
	b.WriteString("]}\n")
	return b.Bytes()
}

// decodeReply reads a reply line, {"result": VALUE} or {"error": "why"},
// and converts the result to type t.
func decodeReply(line []byte, t expr.Type) (expr.Value, error) {
	text := strings.TrimSpace(string(line))
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var raw map[string]json.RawMessage
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return expr.Value{}, fmt.Errorf(`malformed reply %s: want {"result": VALUE}`, quote(text))
	}
	if _, err := dec.Token(); err != io.EOF {
		return expr.Value{}, fmt.Errorf("malformed reply %s: more than one JSON value on the line", quote(text))
	}
	for k := range raw {
		if k != "result" && k != "error" {
			return expr.Value{}, fmt.Errorf("malformed reply %s: unknown field %q", quote(text), k)
		}
	}
	if e, ok := raw["error"]; ok {
		var msg string
		if err := json.Unmarshal(e, &msg); err != nil {
			msg = string(e)
		}
		return expr.Value{}, fmt.Errorf("implementation reports an error: %s", msg)
	}
	res, ok := raw["result"]
	if !ok {
		return expr.Value{}, fmt.Errorf("malformed reply %s: no result", quote(text))
	}
	rd := json.NewDecoder(bytes.NewReader(res))
	rd.UseNumber()
	var v any
	if err := rd.Decode(&v); err != nil {
		return expr.Value{}, fmt.Errorf("malformed reply %s: %v", quote(text), err)
	}
	val, err := adapter.DecodeValue(v, t)
	if err != nil {
		return expr.Value{}, fmt.Errorf("ill-typed result: %v", err)
	}
	return val, nil
}

// quote prints a reply for an error, shortened.
func quote(s string) string {
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return fmt.Sprintf("%q", s)
}
