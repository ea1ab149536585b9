package expr

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns s with every character that could act on a terminal
// escaped, for messages and tables that show text from outside (a SUT's
// output, its standard error, a trace file): control characters (ESC,
// NUL, CR, the C1 controls, DEL) as Go escapes (\x1b, \x00, \r, \u009b),
// and bytes that are not UTF-8 as \xNN. Printable text, spaces and
// non-ASCII letters are kept; a string without such characters is
// returned as it is.
func Printable(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case escaped(r):
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\u009b'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || escaped(r) {
			return true
		}
		i += size
	}
	return false
}

// escaped reports whether r is escaped by Printable: a control
// character, or a format character that reorders text (U+202E).
func escaped(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}
