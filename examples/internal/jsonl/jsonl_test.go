package jsonl

import (
	"math/big"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// echo answers in(p) with out(p) and out(p+1), takes quiet silently, and
// does not take anything else.
type echo struct{}

func (echo) Input(m Message) ([]Message, bool) {
	switch m.Action {
	case "quiet":
		return nil, true
	case "in":
		p, ok := m.Int("p")
		if !ok {
			return nil, false
		}
		q := new(big.Int).Add(p, big.NewInt(1))
		return []Message{Out("out", "p", p), Out("out", "p", q)}, true
	}
	return nil, false
}

func TestServe(t *testing.T) {
	big30 := "1" + strings.Repeat("0", 30)
	tests := []struct {
		name, in, out, diag string
	}{
		{"answers", `{"action":"in","args":{"p":5}}`, `{"action":"out","args":{"p":5}}` + "\n" + `{"action":"out","args":{"p":6}}` + "\n", ""},
		{"big integers", `{"action":"in","args":{"p":` + big30 + `}}`, `{"action":"out","args":{"p":` + big30 + `}}` + "\n" + `{"action":"out","args":{"p":` + big30[:30] + `1}}` + "\n", ""},
		{"quiescent", `{"action":"quiet"}`, "", ""},
		{"blank lines", "\n  \n", "", ""},
		{"bad input", `{"action":`, "", "echo: bad input: unexpected EOF\n"},
		{"not taken", `{"action":"other"}`, "", `echo: ignoring {"action":"other"}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, diag strings.Builder
			if err := serve("echo", echo{}, strings.NewReader(tt.in+"\n"), &out, &diag); err != nil {
				t.Fatal(err)
			}
			if out.String() != tt.out || diag.String() != tt.diag {
				t.Errorf("got output %q, diagnostics %q; want %q, %q", out.String(), diag.String(), tt.out, tt.diag)
			}
		})
	}
}

func TestAdapt(t *testing.T) {
	sut := Adapt("echo", echo{})
	outs, err := sut.Input("in", map[string]expr.Value{"p": expr.IntValue(big.NewInt(-7))})
	if err != nil || len(outs) != 2 || outs[0].Action != "out" || outs[1].Args["p"].(*big.Int).Int64() != -6 {
		t.Errorf("in(-7): got %v, %v; want out(-7), out(-6)", outs, err)
	}
	if outs, err := sut.Input("quiet", nil); err != nil || len(outs) != 0 {
		t.Errorf("quiet: got %v, %v; want no output (quiescence)", outs, err)
	}
	if _, err := sut.Input("other", nil); err == nil {
		t.Errorf("other: no error for an input the machine does not take")
	}
}

// TestOutCopies checks that an output keeps the value it was given when
// the machine changes its state afterwards.
func TestOutCopies(t *testing.T) {
	v := big.NewInt(1)
	m := Out("balance", "sum", v)
	v.SetInt64(2)
	if got := m.Args["sum"].(*big.Int).Int64(); got != 1 {
		t.Errorf("got %d, want 1", got)
	}
}
