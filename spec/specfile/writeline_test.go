package specfile

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
)

// encodedFlowScalar returns yaml.v3's form of s as the value of a flow
// mapping (tagged: a !!str node, as str makes; otherwise untagged, as
// exprScalar makes).
func encodedFlowScalar(t *testing.T, s string, tagged bool) string {
	t.Helper()
	v := &yaml.Node{Kind: yaml.ScalarNode, Value: s}
	if tagged {
		v = str(s)
	}
	var buf bytes.Buffer
	if err := encodeYAML(&buf, flow("k", v)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "{k: ") || !strings.HasSuffix(out, "}\n") {
		t.Fatalf("unexpected encoding of %q: %q", s, out)
	}
	return out[len("{k: ") : len(out)-len("}\n")]
}

// TestFlowScalarTable: the forms written by hand for the scalars of
// test cases (location names with commas, guards, negative numbers)
// are the encoder's, and the scalars left to the encoder are the ones
// whose forms differ (quoted numbers, words read as booleans).
func TestFlowScalarTable(t *testing.T) {
	cases := []struct {
		s      string
		tagged bool
		want   string // "" when left to the encoder
	}{
		{"S0,W", true, "'S0,W'"},
		{"R12,W", true, "'R12,W'"},
		{"Pass", true, "Pass"},
		{"p >= 0 && p <= 100", false, "p >= 0 && p <= 100"},
		{"(r != a + b || r >= 150) && r < 150", false, "(r != a + b || r >= 150) && r < 150"},
		{"!(a && b)", false, "'!(a && b)'"},
		{"-1", false, "-1"},
		{"- 1", false, "'- 1'"},
		{"0", false, "0"},
		{"0", true, ""},
		{"true", true, ""},
		{"true", false, "true"},
		{"a[0] == 1", false, "'a[0] == 1'"},
		{"x % 2 == 0", false, "x % 2 == 0"},
		{"%x", false, "'%x'"},
		{" a", true, "' a'"},
		{"a ", false, "'a '"},
		{"a: b", false, ""},
		{"s == \"x\"", false, ""},
		{"", true, ""},
		{"...", false, "'...'"},
		{"--- a", false, "'--- a'"},
	}
	for _, c := range cases {
		b, ok := appendFlowScalar(nil, c.s, c.tagged)
		if c.want == "" {
			if ok {
				t.Errorf("%q (tagged %v): written by hand as %q, want it left to the encoder", c.s, c.tagged, b)
			}
			continue
		}
		if !ok || string(b) != c.want {
			t.Errorf("%q (tagged %v): got %q, %v; want %q", c.s, c.tagged, b, ok, c.want)
		}
		if enc := encodedFlowScalar(t, c.s, c.tagged); enc != c.want {
			t.Errorf("%q (tagged %v): the encoder writes %q, the table says %q", c.s, c.tagged, enc, c.want)
		}
	}
}

// TestFlowScalarRandom: on random strings over an alphabet of the
// bytes appendFlowScalar knows and of bytes it must refuse, every form
// it writes is the encoder's, and it writes most strings of its own
// bytes.
func TestFlowScalarRandom(t *testing.T) {
	const known = "ab Z09_()+-*/<>=!&|.,[]%"
	const other = ":#?'\"{}\t\n~@`\\é"
	rng := rand.New(rand.NewSource(1))
	written := 0
	for i := 0; i < 20000; i++ {
		alphabet := known
		if i%4 == 0 {
			alphabet += other
		}
		n := 1 + rng.Intn(8)
		var sb strings.Builder
		for j := 0; j < n; j++ {
			sb.WriteString(string([]rune(alphabet)[rng.Intn(len([]rune(alphabet)))]))
		}
		s, tagged := sb.String(), rng.Intn(2) == 0
		b, ok := appendFlowScalar(nil, s, tagged)
		if !ok {
			continue
		}
		written++
		if enc := encodedFlowScalar(t, s, tagged); string(b) != enc {
			t.Fatalf("%q (tagged %v): by hand %q, the encoder %q", s, tagged, b, enc)
		}
	}
	if written < 10000 {
		t.Fatalf("only %d of 20000 strings written by hand", written)
	}
}

// FuzzFlowScalar: whatever appendFlowScalar writes is the encoder's form.
func FuzzFlowScalar(f *testing.F) {
	for _, s := range []string{"S0,W", "p >= 0", "-1", "!(a)", "a[0]", "--- x", "true", " x"} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, tagged bool) {
		b, ok := appendFlowScalar(nil, s, tagged)
		if !ok {
			return
		}
		if enc := encodedFlowScalar(t, s, tagged); string(b) != enc {
			t.Fatalf("%q (tagged %v): by hand %q, the encoder %q", s, tagged, b, enc)
		}
	})
}

// TestTransitionLineIsEncoders: the transitions of the examples, of
// the golden test cases and of the stream cases that
// appendTransitionLine writes are written as the encoder writes them,
// and it writes most of them.
func TestTransitionLineIsEncoders(t *testing.T) {
	var models []*spec.Model
	for _, f := range writtenModels(t) {
		if m := loadForWrite(t, f); m != nil {
			models = append(models, m)
		}
	}
	for _, text := range streamCases() {
		m, err := ParseModel("case.yaml", []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	all, byHand := 0, 0
	for _, m := range models {
		for _, tr := range m.Transitions {
			all++
			line, ok := appendTransitionLine(nil, m, tr)
			if !ok {
				continue
			}
			byHand++
			var enc bytes.Buffer
			if err := encodeTransition(&enc, m, tr); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(line, enc.Bytes()) {
				t.Errorf("%s: %s -> %s: by hand %q, the encoder %q", m.Name, tr.From, tr.To, line, enc.Bytes())
			}
		}
	}
	if all < 100 || byHand*2 < all {
		t.Fatalf("%d of %d transitions written by hand", byHand, all)
	}
	t.Logf("%d of %d transitions written by hand", byHand, all)
}
