package spec

import "gopkg.in/yaml.v3"

// paramType reads the type of parameter name: a type (p: int), or a
// mapping {type: int, range: [lo, hi]}.
func (l *loader) paramType(m *Model, n *yaml.Node, name string) (Type, *Range, bool) {
	if n.Kind != yaml.MappingNode {
		t, ok := l.typeName(m, n)
		return t, nil, ok
	}
	var tn, rn *yaml.Node
	for _, kv := range l.mapping(n, "parameter "+name, []string{"type", "range"}) {
		if kv[0].Value == "type" {
			tn = kv[1]
		} else {
			rn = kv[1]
		}
	}
	if tn == nil {
		l.errorf(n, "parameter %s needs a type", name)
		return Type{}, nil, false
	}
	t, ok := l.typeName(m, tn)
	if !ok || rn == nil {
		return t, nil, ok
	}
	// A bad range is an error, but the parameter stays declared: its
	// uses are not "undeclared" too.
	if t != IntType {
		l.errorf(rn, "range is for int parameters, not %s (type %s)", name, t)
		return t, nil, true
	}
	r, _ := l.rangeOf(rn, name)
	return t, r, true
}

// typeNode writes a declared type: t, or {type: int, range: [lo, hi]}.
func typeNode(t Type, r *Range) *yaml.Node {
	if r == nil {
		return str(t.String())
	}
	s := flowSeq()
	s.Content = append(s.Content, bigIntNode(r.Lo), bigIntNode(r.Hi))
	return flow("type", str(t.String()), "range", s)
}
