package specfile

import (
	"bytes"
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

const goodTrace = `{"dir":"send","action":"deposit","args":{"v":250, "huge": 1e400}}
{"time":"2025-01-01T00:00:00Z", "dir": "receive", "action": "cash", "args": {"v": 123456789012345678901234567890, "r": "7/2", "ok": true, "e": 1.5e-3}}

{"dir":"receive","action":"delta","args":null}` + "\r\n" + `{"dir":"send","action":"ask","extra":{"nested":[1,2]}}
{"dir":"receive","action":"cash","args":{"v":null,"w":[1,{"x":2.50}],"z":{}}}
`

func TestReadTrace(t *testing.T) {
	evs, err := ReadTrace("t.jsonl", strings.NewReader(goodTrace))
	if err != nil {
		t.Fatal(err)
	}
	want := []TraceEvent{
		{Send: true, Action: "deposit", Args: map[string]any{"v": json.Number("250"), "huge": json.Number("1e400")}, Line: 1},
		{Action: "cash", Args: map[string]any{"v": json.Number("123456789012345678901234567890"), "r": "7/2", "ok": true, "e": json.Number("1.5e-3")}, Line: 2},
		{Action: spec.Delta, Line: 4},
		{Send: true, Action: "ask", Line: 5},
		{Action: "cash", Args: map[string]any{"v": nil, "w": []any{json.Number("1"), map[string]any{"x": json.Number("2.50")}}, "z": map[string]any{}}, Line: 6},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("got  %#v\nwant %#v", evs, want)
	}
	var b bytes.Buffer
	for _, ev := range evs {
		if err := WriteTraceEvent(&b, ev); err != nil {
			t.Fatal(err)
		}
	}
	const written = `{"dir":"send","action":"deposit","args":{"huge":1e400,"v":250}}
{"dir":"receive","action":"cash","args":{"e":1.5e-3,"ok":true,"r":"7/2","v":123456789012345678901234567890}}
{"dir":"receive","action":"delta"}
{"dir":"send","action":"ask"}
{"dir":"receive","action":"cash","args":{"v":null,"w":[1,{"x":2.50}],"z":{}}}
`
	if b.String() != written {
		t.Errorf("written\n%s\nwant\n%s", b.String(), written)
	}
	back, err := ReadTrace("t.jsonl", &b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range back {
		back[i].Line = want[i].Line
	}
	if !reflect.DeepEqual(back, want) {
		t.Errorf("read back %#v", back)
	}
	if evs, err := ReadTrace("t.jsonl", strings.NewReader("")); err != nil || len(evs) != 0 {
		t.Errorf("empty trace: %v, %v", evs, err)
	}
}

func TestReadTraceErrors(t *testing.T) {
	tests := []struct {
		src  string
		want string // the first error
	}{
		{`{"dir":"send"`, `1:14: bad JSON: unexpected end of line`},
		{`{"dir":"send",,"action":"a"}`, `1:15: bad JSON: invalid character ','`},
		{`{"dir":"send" "action":"a"}`, `1:15: bad JSON: invalid character '"' after object key:value pair`},
		{`{5:1}`, `1:2: bad JSON: invalid character '5'`},
		{`[1]`, `1:1: a trace event must be a JSON object`},
		{`  "send"`, `1:3: a trace event must be a JSON object`},
		{`{"dir":"sent","action":"a"}`, `1:8: dir must be "send" or "receive"`},
		{`{"dir":null,"action":"a"}`, `1:8: dir must be "send" or "receive"`},
		{`{"action":"a"}`, `1:1: trace event without "dir"`},
		{`{"dir":"send"}`, `1:1: trace event without "action"`},
		{`{"dir":"send", "action": 5}`, `1:26: action must be a non-empty string`},
		{`{"dir":"send","action":""}`, `1:24: action must be a non-empty string`},
		{`{"dir":"send","action":"a","args":[1]}`, `1:35: args must be a JSON object`},
		{`{"dir":"send","action":"a","args":7}`, `1:35: args must be a JSON object`},
		{`{"dir":"send","action":"ä","args":{"v":1,"v":2}}`, `1:42: duplicate field "v" in args`},
		{`{"dir":"send","action":"a","args":{"v":1,"v":2}}`, `1:42: duplicate field "v" in args`},
		{`{"dir":"send","dir":"receive","action":"a"}`, `1:15: duplicate field "dir" in a trace event`},
		{`{"dir":"send","action":"delta"}`, `1:24: delta is quiescence observed: its dir is receive`},
		{`{"dir":"receive","action":"delta","args":{"v":1}}`, `1:42: delta has no arguments`},
		{`{"dir":"send","action":"a"} x`, `1:29: bad JSON: invalid character 'x' after top-level value`},
		{`{"dir":"send","action":"a"}{}`, `1:28: bad JSON: invalid character '{' after top-level value`},
		{`{"dir":"send","action":"a","x":tru}`, `1:35: bad JSON: invalid character '}' in literal true`},
		{"{\"dir\":\"send\",\"action\":\"a\"}\n\n{\"dir\":\"recv\",\"action\":\"b\"}", `3:8: dir must be "send" or "receive"`},
	}
	for _, tt := range tests {
		_, err := ReadTrace("t.jsonl", strings.NewReader(tt.src))
		list, ok := err.(expr.ErrorList)
		if !ok || len(list) == 0 {
			t.Errorf("%s: error %T %v", tt.src, err, err)
			continue
		}
		if got := list[0].Error(); !strings.HasPrefix(got, "t.jsonl:"+tt.want) {
			t.Errorf("%s:\ngot  %s\nwant t.jsonl:%s", tt.src, got, tt.want)
		}
	}
	// One error per bad line, all of them.
	_, err := ReadTrace("t.jsonl", strings.NewReader("[]\n{\"dir\":\"send\",\"action\":\"a\"}\n{}\n"))
	if list, ok := err.(expr.ErrorList); !ok || len(list) != 2 || list[1].Pos.Line != 3 {
		t.Errorf("errors %v", err)
	}
}

func TestWriteTraceEventValues(t *testing.T) {
	level := &expr.Enum{Name: "Level", Values: []string{"low", "high"}}
	ev := TraceEvent{Send: true, Action: "set", Args: map[string]any{
		"a": expr.IntValue(big.NewInt(-7)),
		"b": expr.RatValue(big.NewRat(7, 2)),
		"c": expr.RatValue(big.NewRat(4, 2)),
		"d": expr.BoolValue(false),
		"e": expr.EnumValue(level, 1),
		"f": 3,
		"g": int64(-4),
		"h": new(big.Int).Lsh(big.NewInt(1), 80),
		"i": big.NewRat(-1, 3),
		"j": `quote " and <tag>`,
		"k": 1.5,
	}}
	var b bytes.Buffer
	if err := WriteTraceEvent(&b, ev); err != nil {
		t.Fatal(err)
	}
	const want = `{"dir":"send","action":"set","args":{"a":-7,"b":"7/2","c":2,"d":false,"e":"high","f":3,"g":-4,"h":1208925819614629174706176,"i":"-1/3","j":"quote \" and \u003ctag\u003e","k":1.5}}` + "\n"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
	for _, bad := range []TraceEvent{
		{Action: ""},
		{Send: true, Action: spec.Delta},
		{Action: spec.Delta, Args: map[string]any{"v": 1}},
		{Action: "a", Args: map[string]any{"v": make(chan int)}},
		{Action: "a", Args: map[string]any{"v": json.Number("1x")}},
		{Action: "a", Args: map[string]any{"v": expr.Value{}}},
		{Action: "a", Args: map[string]any{"v": (*big.Int)(nil)}},
	} {
		var b bytes.Buffer
		if err := WriteTraceEvent(&b, bad); err == nil || b.Len() > 0 {
			t.Errorf("WriteTraceEvent(%+v) = %v, wrote %q", bad, err, b.String())
		}
	}
}

// FuzzReadTrace: any text either fails with an ErrorList whose every
// error has a position within the text, or gives events that write and
// read back the same (line numbers aside).
func FuzzReadTrace(f *testing.F) {
	for _, s := range []string{
		goodTrace, "", "\n\n", `{"dir":"send","action":"a","args":{"v":1e400}}`, `{"dir":"receive","action":"delta"}`,
		`{"dir":"send","action":"\u00e4\ud800","args":{"\u0000":"\xff"}}`, `{"dir":"send"`, "{\"dir\":\"send\",\"action\":\"a\"}\r\n\t\n[",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := ReadTrace("f.jsonl", bytes.NewReader(data))
		if err != nil {
			list, ok := err.(expr.ErrorList)
			if !ok || len(list) == 0 {
				t.Fatalf("error %T: %v", err, err)
			}
			lines := strings.Split(string(data), "\n")
			for _, e := range list {
				if e.Pos.File != "f.jsonl" || e.Pos.Line < 1 || e.Pos.Line > len(lines) || e.Pos.Col < 1 ||
					e.Pos.Col > len([]rune(lines[e.Pos.Line-1]))+1 {
					t.Fatalf("error outside the text: %v", e)
				}
			}
			return
		}
		var b bytes.Buffer
		for _, ev := range evs {
			if err := WriteTraceEvent(&b, ev); err != nil {
				t.Fatalf("WriteTraceEvent(%+v): %v", ev, err)
			}
		}
		back, err := ReadTrace("f.jsonl", bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, b.String())
		}
		if len(back) != len(evs) {
			t.Fatalf("%d events, %d read back", len(evs), len(back))
		}
		for i := range back {
			back[i].Line = evs[i].Line
		}
		if !reflect.DeepEqual(back, evs) {
			t.Fatalf("read back %#v\nwant %#v", back, evs)
		}
	})
}

// TestReadTraceLongLine: a line beyond MaxTraceLine is an error at its
// line and is not kept; the lines around it are read.
func TestReadTraceLongLine(t *testing.T) {
	long := `{"dir":"receive","action":"x","args":{"s":"` + strings.Repeat("a", MaxTraceLine) + "\"}}\n"
	text := `{"dir":"send","action":"a"}` + "\n" + long + `{"dir":"receive","action":"delta"}` + "\n"
	_, err := ReadTrace("t.jsonl", strings.NewReader(text))
	if err == nil || err.Error() != "t.jsonl:2:1: line longer than 4 MiB, the limit of a trace line" {
		t.Fatalf("ReadTrace = %v", err)
	}
	ok := `{"dir":"receive","action":"x","args":{"i":` + strings.Repeat("7", 20000) + "}}\n"
	evs, err := ReadTrace("t.jsonl", strings.NewReader(ok+ok))
	if err != nil || len(evs) != 2 || evs[1].Line != 2 {
		t.Fatalf("ReadTrace(20,000 digits) = %d events, %v", len(evs), err)
	}
}
