package specfile

import (
	"strings"
	"testing"
)

// TestYAMLQuoteHint: an unquoted guard that starts with !, * or & gets
// a message that points at it and says to quote it.
func TestYAMLQuoteHint(t *testing.T) {
	const head = "kind: spec\nname: s\nvariables: {x: int, ready: bool}\nactions:\n  a: {dir: input}\ninitial: {location: A}\ntransitions:\n"
	for _, tt := range []struct{ transitions, want string }{
		{"  - {from: A, action: a, guard: !ready, to: A}\n", "m.yaml:8:33: bad YAML: did not find expected ',' or '}'; the value of guard starts with !, which YAML reads as a tag: quote it: guard: '!ready'"},
		{"  - from: A\n    action: a\n    guard: !(x > 0)\n    to: A\n", "m.yaml:10:12: bad YAML: did not find expected comment or line break; the value of guard starts with !, which YAML reads as a tag: quote it: guard: '!(x > 0)'"},
		{"  - from: A\n    action: a\n    guard: !ready\n    to: A\n", "m.yaml:10:12: bad YAML: !ready is read as the YAML tag !ready, not as text: quote the expression that starts with !: '!ready'"},
		{"  - from: A\n    action: a\n    guard: *x > 0\n    to: A\n", "m.yaml:10:12: bad YAML: did not find expected comment or line break; the value of guard starts with *, which YAML reads as an alias: quote it: guard: '*x > 0'"},
		{"  - from: A\n    action: a\n    guard: *x\n    to: A\n", "m.yaml:10:12: bad YAML: unknown anchor 'x' referenced; the value of guard starts with *, which YAML reads as an alias"},
		{"  - from: A\n    action: a\n    assign: {x: &x > 0}\n    to: A\n", "m.yaml:10:17: bad YAML: found character that cannot start any token; the value of x starts with &, which YAML reads as an anchor: quote it: x: '&x > 0'"},
	} {
		_, err := ParseModel("m.yaml", []byte(head+tt.transitions), nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v\nwant %s", tt.transitions, err, tt.want)
		}
	}
	// Quoted, they read.
	src := head + "  - {from: A, action: a, guard: '!ready', to: A}\n  - {from: A, action: a, guard: \"!(x > 0) && ready\", to: A}\n"
	if _, err := ParseModel("m.yaml", []byte(src), nil); err != nil && strings.Contains(err.Error(), "YAML") {
		t.Errorf("quoted: %v", err)
	}
	// Another YAML error gets no hint.
	if _, err := ParseModel("m.yaml", []byte(head+"  - {from: A, action: a, to: A\n"), nil); err == nil || strings.Contains(err.Error(), "quote it") {
		t.Errorf("unclosed flow mapping: %v", err)
	}
}
