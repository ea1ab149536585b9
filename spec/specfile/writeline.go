package specfile

import (
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// A field is a key and a scalar of a transition's flow mapping; tagged
// is a !!str scalar (str), otherwise it is untagged (an expression,
// exprScalar).
type field struct {
	key, value string
	tagged     bool
}

// transitionFields returns what a transition's item holds, in order:
// the fields before assign:, the assignments, and the to: field. The
// tree writer (transitionNode) and the line writer
// (appendTransitionLine) both write these.
func transitionFields(m *spec.Model, t *spec.Transition) (head, assign []field, to field) {
	if t.Name != "" {
		head = append(head, field{"name", t.Name, true})
	}
	head = append(head, field{"from", t.From, true}, field{"action", t.Action, true})
	if t.Guard != nil && !expr.IsTrue(t.Guard) {
		head = append(head, field{"guard", expr.Format(t.Guard), false})
	}
	for _, kv := range m.AssignmentTexts(t.Assign) {
		assign = append(assign, field{kv[0], kv[1], false})
	}
	return head, assign, field{"to", t.To, true}
}

// appendTransitionLine appends to b the item of the transitions: section
// that the YAML encoder writes for t ("  - {from: ..., to: ...}\n"),
// built by hand: encoding a large test case's transitions one by one
// with yaml.v3 cost as much as half of its generation. ok is false, and
// b is returned unchanged, when some scalar of t is not one whose YAML
// form appendFlowScalar knows; the caller then encodes t with yaml.v3.
// TestTransitionLineIsEncoders and FuzzFlowScalar compare both.
func appendTransitionLine(b []byte, m *spec.Model, t *spec.Transition) ([]byte, bool) {
	head, assign, to := transitionFields(m, t)
	out, ok := appendFields(append(b, "  - {"...), head)
	if ok && len(assign) > 0 {
		out, ok = appendFields(append(out, "assign: {"...), assign)
		out = append(out[:len(out)-2], "}, "...)
	}
	if ok {
		out, ok = appendFields(out, []field{to})
	}
	if !ok {
		return b, false
	}
	return append(out[:len(out)-2], "}\n"...), true
}

// appendFields appends "key: value, " for each of fs, or reports false
// when a key or a value is not one appendFlowScalar knows (or a key is
// longer than maxFlowKey).
func appendFields(b []byte, fs []field) ([]byte, bool) {
	for _, f := range fs {
		var ok bool
		if len(f.key) > maxFlowKey {
			return b, false
		}
		if b, ok = appendFlowScalar(b, f.key, true); !ok {
			return b, false
		}
		if b, ok = appendFlowScalar(append(b, ": "...), f.value, f.tagged); !ok {
			return b, false
		}
		b = append(b, ", "...)
	}
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
