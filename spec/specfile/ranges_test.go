package specfile

import (
	"math/big"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// TestParamRange: a parameter's range is read, written back and kept by
// a round trip; ParamRanges and Admits state it.
func TestParamRange(t *testing.T) {
	m := roundTrip(t, "testdata/ext/ranges.yaml")
	set, show := m.Action("set"), m.Action("show")
	if r := set.Params[0].Range; r == nil || r.Lo.Int64() != 0 || r.Hi.Int64() != 2 {
		t.Fatalf("set(n): range %v", r)
	}
	if got := expr.Format(show.ParamRanges(nil)); got != "0 <= n && n <= 2" {
		t.Errorf("ParamRanges = %s", got)
	}
	if !expr.IsTrue(m.Action("a").ParamRanges(nil)) {
		t.Errorf("a has no parameter, yet a range")
	}
	sym := &expr.Ident{Name: "set#1.n", Kind: expr.VarIdent, T: expr.IntType}
	if got := expr.Format(set.ParamRanges([]*expr.Ident{sym})); !strings.Contains(got, "set#1.n <= 2") {
		t.Errorf("ParamRanges over a symbol = %s", got)
	}
	out, err := Marshal(m)
	if err != nil || !strings.Contains(string(out), "n: {type: int, range: [0, 2]}") {
		t.Errorf("written: %v\n%s", err, out)
	}
	for _, tt := range []struct {
		v    int64
		want string
	}{{0, ""}, {2, ""}, {3, "3 is outside the range [0, 2]"}, {-1, "-1 is outside the range [0, 2]"}} {
		err := set.Params[0].Admits(expr.Value{T: expr.IntType, Int: big.NewInt(tt.v)})
		if got := errString(err); got != tt.want {
			t.Errorf("Admits(%d) = %q, want %q", tt.v, got, tt.want)
		}
	}
	if err := show.Params[1].Admits(expr.Value{T: expr.BoolType, Bool: true}); err != nil {
		t.Errorf("a parameter without range admits every value: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestParamRangeErrors: a range on a parameter is checked as one on a
// variable, FILE:LINE:COL.
func TestParamRangeErrors(t *testing.T) {
	const head = "kind: spec\nname: r\nvariables: {}\nactions:\n"
	const tail = "initial: {location: A}\ntransitions:\n  - {from: A, action: in, to: A}\n"
	for _, tt := range []struct{ param, want string }{
		{"{type: bool, range: [0, 1]}", "r.yaml:5:52: range is for int parameters, not p (type bool)"},
		{"{type: int, range: [2, 1]}", "r.yaml:5:51: empty range of p: 2 > 1"},
		{"{type: int, range: [a, 1]}", "r.yaml:5:52: bound \"a\" of the range of p is not an integer"},
		{"{range: [0, 1]}", "r.yaml:5:32: parameter p needs a type"},
		{"{type: int, size: 3}", "r.yaml:5:44: unknown key size in parameter p (allowed: type, range)"},
	} {
		src := head + "  in: {dir: input, params: {p: " + tt.param + "}}\n" + tail
		_, err := ParseModel("r.yaml", []byte(src), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %s", tt.param, err, tt.want)
		}
	}
}

// TestAssuming: the model an analysis sees once j is proved: the initial
// condition conjoined with j, each guard with j before and after (set:
// TryCounter := n), m unchanged.
func TestAssuming(t *testing.T) {
	m := roundTrip(t, "testdata/ext/ranges.yaml")
	if m.Assuming(expr.True()) != m {
		t.Errorf("Assuming(true) is not m")
	}
	c := m.Assuming(m.RangeConstraint())
	if got := expr.Format(c.Transitions[1].Guard); got != "0 <= TryCounter && TryCounter <= 2 && (0 <= n && n <= 2)" {
		t.Errorf("guard of set: %s", got)
	}
	if got := expr.Format(c.Initial.Condition); !strings.Contains(got, "0 <= TryCounter && TryCounter <= 2") {
		t.Errorf("initial condition: %s", got)
	}
	if !expr.IsTrue(m.Transitions[1].Guard) || c.Transitions[1] == m.Transitions[1] {
		t.Errorf("m was changed")
	}
}

// TestWithParamRanges: the guards conjoined with their parameters'
// ranges, once (idempotent, as on a test case written with them), m
// unchanged, and m itself when no parameter has a range.
func TestWithParamRanges(t *testing.T) {
	m := roundTrip(t, "testdata/ext/ranges.yaml")
	c := m.WithParamRanges()
	if c.Transitions[0] != m.Transitions[0] {
		t.Errorf("a (no parameter) was copied")
	}
	for i, want := range []string{"", "0 <= n && n <= 2", "n == TryCounter && ok && 0 <= n && n <= 2"} {
		if i > 0 {
			if got := expr.Format(c.Transitions[i].Guard); got != want {
				t.Errorf("transition %d: guard %s, want %s", i, got, want)
			}
		}
	}
	again := c.WithParamRanges()
	if again != c {
		t.Errorf("WithParamRanges is not idempotent: %s", expr.Format(again.Transitions[2].Guard))
	}
	if !expr.IsTrue(m.Transitions[1].Guard) {
		t.Errorf("m was changed: %s", expr.Format(m.Transitions[1].Guard))
	}
	plain, err := ParseModel("p.yaml", []byte("kind: spec\nname: p\nvariables: {}\nactions: {in: {dir: input, params: {p: int}}}\ninitial: {location: A}\ntransitions:\n  - {from: A, action: in, to: A}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.WithParamRanges() != plain {
		t.Errorf("a model without ranges was copied")
	}
}
