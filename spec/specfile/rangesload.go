package specfile

import (
	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// paramType reads the type of parameter name: a type (p: int), or a
// mapping {type: int, range: [lo, hi]}.
func (l *loader) paramType(m *spec.Model, n *yaml.Node, name string) (expr.Type, *expr.Range, bool) {
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
		return expr.Type{}, nil, false
	}
	t, ok := l.typeName(m, tn)
	if !ok || rn == nil {
		return t, nil, ok
	}
	// A bad range is an error, but the parameter stays declared: its
	// uses are not "undeclared" too.
	if t != expr.IntType {
		l.errorf(rn, "range is for int parameters, not %s (type %s)", name, t)
		return t, nil, true
	}
	r, _ := l.rangeOf(rn, name)
	return t, r, true
}

// typeNode writes a declared type: t, or {type: int, range: [lo, hi]}.
func typeNode(t expr.Type, r *expr.Range) *yaml.Node {
	if r == nil {
		return str(t.String())
	}
	s := flowSeq()
	s.Content = append(s.Content, bigIntNode(r.Lo), bigIntNode(r.Hi))
	return flow("type", str(t.String()), "range", s)
}
