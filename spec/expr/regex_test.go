package expr

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// randPattern writes a random pattern of the supported subset over the
// letters a, b.
func randPattern(r *rand.Rand, d int) string {
	if d == 0 {
		return []string{"a", "b", ".", "[ab]", "[^a]", `\w`, `\d`, "ab"}[r.Intn(8)]
	}
	x, y := randPattern(r, d-1), randPattern(r, d-1)
	switch r.Intn(9) {
	case 0:
		return x + y
	case 1:
		return "(" + x + "|" + y + ")"
	case 2:
		return "(" + x + ")*"
	case 3:
		return "(?:" + x + ")+"
	case 4:
		return "(" + x + ")?"
	case 5:
		return "(" + x + "){1,2}"
	case 6:
		return "(" + x + "){2}"
	case 7:
		return x + "|" + y
	}
	return x + y + "(" + y + "){0,}"
}

func randText(r *rand.Rand, alphabet string, n int) string {
	var b strings.Builder
	for i := r.Intn(n + 1); i > 0; i-- {
		b.WriteByte(alphabet[r.Intn(len(alphabet))])
	}
	return b.String()
}

// TestRegexAgreesWithGo: on ASCII strings, the translated pattern
// (whole-string semantics, evaluated over bytes) matches exactly when
// Go's regexp.MatchString (search semantics) does, anchored or not.
func TestRegexAgreesWithGo(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 600; i++ {
		p := randPattern(r, 3)
		switch i % 4 {
		case 1:
			p = "^" + p
		case 2:
			p = p + "$"
		case 3:
			p = "^" + p + "$"
		}
		re, err := CompileRegex(p)
		if err != nil {
			t.Fatalf("CompileRegex(%q): %v", p, err)
		}
		goRE := regexp.MustCompile(p)
		for k := 0; k < 20; k++ {
			s := randText(r, "ab1\n_", 6)
			if got, want := re.MatchString(s), goRE.MatchString(s); got != want {
				t.Fatalf("pattern %q on %q: translation %v, Go %v", p, s, got, want)
			}
		}
	}
}

func TestRegexErrors(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		off     int
		msg     string
	}{
		{`a\bc`, 1, `word boundaries`},
		{`(?i)abc`, 0, `flag group "(?i)"`},
		{`a(?m)b`, 1, `flag group`},
		{`a^b`, 1, `only at the start and the end`},
		{`a(?=b)`, 1, `lookaround`}, {`(?P<x>a)$`, 0, ``},
		{`(a)\1`, 3, `invalid escape`},
		{`[éa]`, 0, `ASCII characters only`},
		{`a{2000}`, 1, `invalid repeat count`},
		{`(ab`, 0, `missing closing )`},
	} {
		_, err := CompileRegex(tt.pattern)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("CompileRegex(%q): %v", tt.pattern, err)
			}
			continue
		}
		re, ok := err.(*RegexError)
		if !ok {
			t.Errorf("CompileRegex(%q) = %v, want a RegexError", tt.pattern, err)
			continue
		}
		if re.Offset != tt.off || !strings.Contains(re.Msg, tt.msg) {
			t.Errorf("CompileRegex(%q) = %d: %s, want %d: ...%s", tt.pattern, re.Offset, re.Msg, tt.off, tt.msg)
		}
	}
}

// FuzzCompileRegex: any pattern is translated or refused without a
// panic; a translated pattern agrees with Go's regexp on ASCII text.
func FuzzCompileRegex(f *testing.F) {
	for _, s := range []string{"^[A-Z][a-z]*$", `\d{2,3}`, "a|b*", "(?s).", `[^\n]+$`, `(?:ab)?c`} {
		f.Add(s, "Ab12")
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		re, err := CompileRegex(pattern)
		if err != nil {
			return
		}
		goRE, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("translated %q, which Go refuses: %v", pattern, err)
		}
		if len(text) > 12 {
			text = text[:12]
		}
		for i := 0; i < len(text); i++ {
			if text[i] >= 0x80 {
				return
			}
		}
		if got, want := re.MatchString(text), goRE.MatchString(text); got != want {
			t.Fatalf("pattern %q on %q: translation %v, Go %v", pattern, text, got, want)
		}
	})
}
