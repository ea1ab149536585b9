package adapter

import (
	"errors"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// TestDecodeHugeInts: integers have any size on the wire and in traces
// (an int of more than 10,000 digits used to be "not a value of type
// int", hence Fail).
func TestDecodeHugeInts(t *testing.T) {
	a := &spec.Action{Name: "out", Dir: spec.Receive, Params: []*spec.Param{
		{Name: "i", Type: expr.IntType}, {Name: "r", Type: expr.RealType},
	}}
	for _, digits := range []int{10001, 100000} {
		n := "-" + strings.Repeat("9", digits)
		line := `{"action":"out","args":{"i":` + n + `,"r":` + n[1:] + `}}`
		out, _, err := decodeLine([]byte(line))
		if err != nil {
			t.Fatalf("%d digits: %v", digits, err)
		}
		vals, err := DecodeArgs(a, out.Args)
		if err != nil {
			t.Fatalf("%d digits: %v", digits, err)
		}
		if vals["i"].Int.String() != n || vals["r"].Rat.Num().String() != n[1:] {
			t.Errorf("%d digits: values changed", digits)
		}
		trace := `{"dir":"receive","action":"out","args":{"i":` + n + `,"r":` + n[1:] + "}}\n"
		evs, err := specfile.ReadTrace("t.jsonl", strings.NewReader(trace))
		if err != nil {
			t.Fatalf("%d digits, trace: %v", digits, err)
		}
		if vals, err := DecodeArgs(a, evs[0].Args); err != nil || vals["i"].Int.String() != n {
			t.Errorf("%d digits, trace: %v", digits, err)
		}
	}
	// Exponents stay bounded: big.Rat would build 10^(10^9).
	if _, ok := parseNumber("1e1000000000"); ok {
		t.Error("1e1000000000 was read")
	}
}

// TestDecodeDuplicateKeys: a key twice in a SUT's line (at any depth) is
// an error of that line; encoding/json would keep the last silently.
func TestDecodeDuplicateKeys(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"action":"ok","action":"nok"}`, `duplicate key "action"`},
		{`{"action":"ok","args":{"v":1,"v":2}}`, `duplicate key "v"`},
		{`{"action":"ok","args":{"v":[{"a":1,"a":1}]}}`, `duplicate key "a"`},
		{`{"ready":true,"ready":true}`, `duplicate key "ready"`},
		{`{"action":"ok","args":{"v":1,"\u001b[2J":2,"\u001b[2J":3}}`, `duplicate key "\x1b[2J"`},
		{`{"action":"ok","args":{"v":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}}`, "nested more than 64 deep"},
	} {
		_, _, err := decodeLine([]byte(tc.line))
		var oe *OutputError
		if !errors.As(err, &oe) || !strings.Contains(oe.Msg, tc.want) {
			t.Errorf("%s: %v, want an OutputError %q", tc.line, err, tc.want)
		}
	}
	for _, line := range []string{
		`{"action":"ok","args":{"v":1,"w":{"v":1}}}`,
		`{"action":"ok","args":{"a":[{"x":1},{"x":2}]}}`,
	} {
		if _, _, err := decodeLine([]byte(line)); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// TestControlBytesEscaped: text of the SUT that the adapter puts in its
// messages never carries raw control bytes.
func TestControlBytesEscaped(t *testing.T) {
	e := &ExitError{What: "exit status 1", Stderr: []string{"\x1b[31mboom\x00", "ok"}}
	if got := e.Error(); strings.ContainsAny(got, "\x1b\x00") || !strings.Contains(got, `\x1b[31mboom\x00`) {
		t.Errorf("ExitError: %q", got)
	}
	a := &spec.Action{Name: "out", Dir: spec.Receive}
	_, err := DecodeArgs(a, map[string]any{"\x1b]0;title\x07": 1})
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") {
		t.Errorf("DecodeArgs: %q", err)
	}
	_, _, err = decodeLine([]byte("{\"action\":\"ok\",\"\x1b[2J\":1}"))
	if err == nil || strings.ContainsAny(err.Error(), "\x1b") {
		t.Errorf("decodeLine: %q", err)
	}
}
