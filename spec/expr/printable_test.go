package expr

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, é ü 漢字", "plain text, é ü 漢字"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"a\x00b", `a\x00b`},
		{"line\r\nnext\ttab", `line\r\nnext\ttab`},
		{"c1 \u009b2J", `c1 \u009b2J`},
		{"del\x7f", `del\x7f`},
		{"bad \xff\xfe utf8", `bad \xff\xfe utf8`},
		{"rtl \u202eevil", `rtl \u202eevil`},
		{`back\slash`, `back\slash`},
		{"", ""},
	} {
		if got := Printable(tc.in); got != tc.want {
			t.Errorf("Printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzPrintable: the result is valid UTF-8 without control characters.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"", "abc", "\x1b[2J", "\x00\xff", "\u009b", "\u202e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := Printable(s)
		if !utf8.ValidString(p) {
			t.Fatalf("Printable(%q) = %q: not UTF-8", s, p)
		}
		for _, r := range p {
			if unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
				t.Fatalf("Printable(%q) = %q keeps %U", s, p, r)
			}
		}
	})
}
