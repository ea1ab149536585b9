package adapter

import (
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// FuzzDecodeOutput feeds arbitrary SUT output lines through the wire
// decoding: it must never panic, and what it accepts must have the
// action's parameter types and survive encoding and decoding again.
func FuzzDecodeOutput(f *testing.F) {
	level := &expr.Enum{Name: "Level", Values: []string{"low", "high"}}
	act := &spec.Action{Name: "out", Dir: spec.Receive, Params: []*spec.Param{
		{Name: "n", Type: expr.IntType},
		{Name: "r", Type: expr.RealType},
		{Name: "b", Type: expr.BoolType},
		{Name: "l", Type: expr.EnumType(level)},
	}}
	for _, s := range []string{
		`{"action":"out","args":{"n":5,"r":"7/2","b":true,"l":"low"}}`,
		`{"action":"out","args":{"n":123456789012345678901234567890,"r":2.5,"b":false,"l":"high"}}`,
		`{"action":"out","args":{"n":1e3,"r":-0.125,"b":false,"l":"high"}}`,
		`{"action":"out","args":{"n":1.5,"r":"x","b":1,"l":"mid"}}`,
		`{"action":"out"}`, `{"action":5}`, `[]`, `{`, `{"action":"out","args":{"n":1e999999999}}`,
		`{"action":"out","args":{"r":"1/0"}}`, `{"action":"out","extra":1}`,
		`{"ready":true}`, `{"ready":false}`, `{"ready":true,"action":"out"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		out, ready, err := decodeLine(line)
		if ready {
			if out != nil || err != nil {
				t.Fatalf("%s: readiness with %v, %v", line, out, err)
			}
			return
		}
		if err != nil {
			return
		}
		if out.Action != act.Name {
			return
		}
		vals, err := DecodeArgs(act, out.Args)
		if err != nil {
			return
		}
		for _, p := range act.Params {
			v, ok := vals[p.Name]
			if !ok || v.T != p.Type {
				t.Fatalf("%s: parameter %s decoded as %v", line, p.Name, v)
			}
		}
		// Round trip: what the tester understood is what it would write.
		again, _, err := decodeLine(encodeInput(Input{Action: act.Name, Args: vals}))
		if err != nil {
			t.Fatalf("re-encoded %s does not decode: %v", line, err)
		}
		vals2, err := DecodeArgs(act, again.Args)
		if err != nil {
			t.Fatalf("re-encoded %s: %v", line, err)
		}
		for k, v := range vals {
			if !v.Equal(vals2[k]) {
				t.Fatalf("%s: %s = %v, then %v", line, k, v, vals2[k])
			}
		}
	})
}
