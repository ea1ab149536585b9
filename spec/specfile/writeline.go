package specfile

import (
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// appendTransitionLine appends to b the item of the transitions: section
// that the YAML encoder writes for t ("  - {from: ..., to: ...}\n"),
// built by hand: encoding a large test case's transitions one by one
// with yaml.v3 cost as much as half of its generation. ok is false, and
// b is returned unchanged, when some scalar of t is not one whose YAML
// form appendFlowScalar knows; the caller then encodes t with yaml.v3.
// TestTransitionLineIsEncoders and FuzzFlowScalar compare both.
func appendTransitionLine(b []byte, m *spec.Model, t *spec.Transition) ([]byte, bool) {
	orig := b
	b = append(b, "  - {"...)
	ok := true
	pair := func(key, value string, tagged bool) {
		if ok {
			b = append(b, key...)
			b = append(b, ": "...)
			b, ok = appendFlowScalar(b, value, tagged)
			b = append(b, ", "...)
		}
	}
	if t.Name != "" {
		pair("name", t.Name, true)
	}
	pair("from", t.From, true)
	pair("action", t.Action, true)
	if t.Guard != nil && !expr.IsTrue(t.Guard) {
		pair("guard", expr.Format(t.Guard), false)
	}
	if ok && len(t.Assign) > 0 {
		b = append(b, "assign: {"...)
		for i, kv := range m.AssignmentTexts(t.Assign) {
			if i > 0 {
				b = append(b, ", "...)
			}
			if len(kv[0]) > maxFlowKey {
				ok = false
				break
			}
			if b, ok = appendFlowScalar(b, kv[0], true); !ok {
				break
			}
			b = append(b, ": "...)
			if b, ok = appendFlowScalar(b, kv[1], false); !ok {
				break
			}
		}
		b = append(b, "}, "...)
	}
	pair("to", t.To, true)
	if !ok {
		return orig, false
	}
	b = append(b[:len(b)-2], "}\n"...)
	return b, true
}

// maxFlowKey bounds the keys written by hand: the encoder writes a key
// longer than 128 bytes as a complex key ("? key"), which
// appendTransitionLine does not.
const maxFlowKey = 100

// appendFlowScalar appends s as yaml.v3 writes a scalar inside a flow
// mapping (with an unbounded line width, as encodeYAML's encoder has),
// for the scalars whose bytes are letters, digits, spaces and the
// characters _ ( ) + - * / < > = ! & | . , [ ] %: plain, or single-quoted
// where plain YAML cannot hold them (a flow indicator, a leading or
// trailing space). tagged is a !!str scalar (str), which the encoder
// double-quotes when its plain form would read as another type; those,
// the empty string and any other byte give ok false.
func appendFlowScalar(b []byte, s string, tagged bool) ([]byte, bool) {
	if s == "" || (tagged && mayResolve(s)) {
		return b, false
	}
	plain := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == ' ':
			if i == 0 || i == len(s)-1 {
				plain = false // a leading or trailing space
			}
		case c == ',' || c == '[' || c == ']':
			plain = false // a flow indicator anywhere
		case c == '_' || c == '(' || c == ')' || c == '+' || c == '/' || c == '<' || c == '=' || c == '.':
		case c == '-' || c == '*' || c == '!' || c == '&' || c == '|' || c == '>' || c == '%':
		default:
			return b, false
		}
	}
	if plain && startsIndicator(s) {
		plain = false
	}
	if plain {
		return append(b, s...), true
	}
	b = append(b, '\'')
	b = append(b, s...)
	return append(b, '\''), true
}

// startsIndicator reports whether s, made of appendFlowScalar's bytes,
// begins as yaml.v3's emitter reads an indicator: one of ! & * | > %,
// a dash followed by a space or nothing, or --- or ... .
func startsIndicator(s string) bool {
	switch s[0] {
	case '!', '&', '*', '|', '>', '%':
		return true
	case '-':
		if len(s) == 1 || s[1] == ' ' {
			return true
		}
	}
	return len(s) >= 3 && (s[:3] == "---" || s[:3] == "...")
}

// mayResolve reports whether yaml.v3 may read s, written plainly, as
// something other than a string: it begins as a number, a special
// float or a null does, or it is one of the words of true, false and
// null. (It over-approximates: the caller then leaves s to the
// encoder.)
func mayResolve(s string) bool {
	switch s[0] {
	case '+', '-', '.', '~', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return true
	}
	return false
}
