package adapter

import (
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

func TestEncodeInput(t *testing.T) {
	color := &expr.Enum{Name: "Color", Values: []string{"red", "green"}}
	huge, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	in := Input{Action: "set", Args: map[string]expr.Value{
		"i": expr.IntValue(huge),
		"r": expr.RatValue(big.NewRat(7, 2)),
		"n": expr.RatValue(big.NewRat(4, 1)),
		"b": expr.BoolValue(true),
		"c": expr.EnumValue(color, 1),
	}}
	got := string(encodeInput(in))
	want := `{"action":"set","args":{"b":true,"c":"green","i":-123456789012345678901234567890,"n":4,"r":"7/2"}}` + "\n"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := string(encodeInput(Input{Action: "end"})); got != `{"action":"end"}`+"\n" {
		t.Errorf("no args: %s", got)
	}
}

func TestDecode(t *testing.T) {
	color := &expr.Enum{Name: "Color", Values: []string{"red", "green"}}
	a := &spec.Action{Name: "out", Dir: spec.Receive, Params: []*spec.Param{
		{Name: "i", Type: expr.IntType}, {Name: "r", Type: expr.RealType},
		{Name: "b", Type: expr.BoolType}, {Name: "c", Type: expr.EnumType(color)},
	}}
	for _, tt := range []struct {
		line string
		want string // the values, or the error
	}{
		{`{"action":"out","args":{"i":99999999999999999999,"r":"7/2","b":false,"c":"red"}}`, "i=99999999999999999999 r=3.5 b=false c=red"},
		{`{"action":"out","args":{"i":1e3,"r":2.5,"b":true,"c":"green"}}`, "i=1000 r=2.5 b=true c=green"},
		{`{"action":"out","args":{"i":-3,"r":4,"b":true,"c":"green"}}`, "i=-3 r=4 b=true c=green"},
		{`{"action":"out","args":{"i":1.5,"r":1,"b":true,"c":"red"}}`, "argument i of out: 1.5 is not a value of type int"},
		{`{"action":"out","args":{"i":1,"r":"x","b":true,"c":"red"}}`, `argument r of out: "x" is not a value of type real`},
		{`{"action":"out","args":{"i":1,"r":1,"b":1,"c":"red"}}`, "argument b of out: 1 is not a value of type bool"},
		{`{"action":"out","args":{"i":1,"r":1,"b":true,"c":"blue"}}`, `argument c of out: "blue" is not a value of type Color`},
		{`{"action":"out","args":{"i":null,"r":1,"b":true,"c":"red"}}`, "argument i of out: null is not a value of type int"},
		{`{"action":"out","args":{"i":1,"r":"1/0","b":true,"c":"red"}}`, "is not a value of type real"},
		{`{"action":"out","args":[]}`, `"args" is not an object`},
		{`{"action":7}`, `"action" is not a string`},
		{`{"action":"out","extra":1}`, `unknown field "extra"`},
		{`{"action":"out"} {"action":"out"}`, "text after the JSON object"},
	} {
		out, _, err := decodeLine([]byte(tt.line))
		var vals map[string]expr.Value
		if err == nil {
			vals, err = DecodeArgs(a, out.Args)
		}
		var got string
		if err != nil {
			got = err.Error()
		} else {
			got = formatBindings(a, vals)
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.line, got, tt.want)
		}
	}
}

func TestConvertGoValues(t *testing.T) {
	for _, tt := range []struct {
		raw  any
		t    expr.Type
		want string
	}{
		{2, expr.IntType, "2"},
		{int64(-5), expr.IntType, "-5"},
		{big.NewInt(12), expr.RealType, "12"},
		{big.NewRat(1, 3), expr.RealType, "1/3"},
		{json.Number("0.25"), expr.RealType, "0.25"},
		{expr.IntValue(big.NewInt(3)), expr.RealType, "3"},
	} {
		v, err := convertValue(tt.raw, tt.t)
		if err != nil || v.String() != tt.want || v.T != tt.t {
			t.Errorf("convertValue(%v, %s) = %v (%s), %v; want %s", tt.raw, tt.t, v, v.T, err, tt.want)
		}
	}
	if _, err := convertValue(big.NewRat(1, 3), expr.IntType); err == nil {
		t.Error("1/3 became an int")
	}
}

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		"":                           nil,
		"  ./sut  ":                  {"./sut"},
		`./sut -x 'a b' "c \"d\""`:   {"./sut", "-x", "a b", `c "d"`},
		`sh -c 'echo "$X"' a\ b`:     {"sh", "-c", `echo "$X"`, "a b"},
		`python3 -u sut.py --mode=m`: {"python3", "-u", "sut.py", "--mode=m"},
		`''`:                         {""},
	} {
		got, err := SplitCommand(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{`'open`, `"open`} {
		if _, err := SplitCommand(in); err == nil {
			t.Errorf("SplitCommand(%q): no error", in)
		}
	}
}

// formatBindings prints vals in the order of a's parameters: "p=2 q=3".
func formatBindings(a *spec.Action, vals map[string]expr.Value) string {
	var parts []string
	for _, p := range a.Params {
		if v, ok := vals[p.Name]; ok {
			parts = append(parts, p.Name+"="+v.String())
		}
	}
	return strings.Join(parts, " ")
}
