package specfile

import (
	"math/big"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// variables reads the variables: section. A variable is declared by its
// type (x: int) or by a mapping {type: int, range: [lo, hi]}; an array
// a: [N]T gives the N scalar variables a[0] ... a[N-1] (and an ArrayVar).
func (l *loader) variables(m *spec.Model, n *yaml.Node, ns names) {
	for _, kv := range l.mapping(n, "variables", nil) {
		name, ok := l.varName(kv[0]) // system.go: x, or a composed system's Int.x
		if !ok || !l.declare(ns, kv[0], name, "variable "+name) {
			continue
		}
		tn, rn := kv[1], (*yaml.Node)(nil)
		if kv[1].Kind == yaml.MappingNode {
			tn = nil
			for _, p := range l.mapping(kv[1], "variable "+name, []string{"type", "range"}) {
				switch p[0].Value {
				case "type":
					tn = p[1]
				case "range":
					rn = p[1]
				}
			}
			if tn == nil {
				l.errorf(kv[0], "variable %s needs a type", name)
				continue
			}
		}
		v := &spec.Variable{Name: name, Pos: l.pos(kv[0])}
		var size int
		if v.Type, size, ok = l.declType(m, tn); !ok {
			continue
		}
		// A bad range is an error, but the variable stays declared:
		// its uses are not "undeclared" too.
		if rn != nil && v.Type != expr.IntType {
			l.errorf(rn, "range is for int variables, not %s (type %s)", name, v.Type)
		} else if rn != nil {
			v.Range, _ = l.rangeOf(rn, name)
		}
		if size == 0 {
			m.Variables = append(m.Variables, v)
			continue
		}
		// An array: its cells are the variables.
		a := &expr.ArrayVar{Name: name, Len: size, Elem: v.Type, Range: v.Range, Pos: v.Pos}
		m.Arrays = append(m.Arrays, a)
		for i := 0; i < size; i++ {
			m.Variables = append(m.Variables, &spec.Variable{Name: a.Cell(i), Type: v.Type, Range: v.Range, Pos: v.Pos})
		}
	}
}

// rangeOf reads range: [lo, hi], two integer constants with lo <= hi.
func (l *loader) rangeOf(n *yaml.Node, name string) (*expr.Range, bool) {
	if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
		l.errorf(n, "range of %s must be a list [lo, hi] of two integers", name)
		return nil, false
	}
	r := &expr.Range{Pos: l.pos(n)}
	for i, b := range n.Content {
		v, ok := l.bigInt(b)
		if !ok {
			l.errorf(b, "bound %q of the range of %s is not an integer", b.Value, name)
			return nil, false
		}
		if i == 0 {
			r.Lo = v
		} else {
			r.Hi = v
		}
	}
	if r.Lo.Cmp(r.Hi) > 0 {
		l.errorf(n, "empty range of %s: %s > %s", name, r.Lo, r.Hi)
		return nil, false
	}
	return r, true
}

// bigInt reads an integer constant, as YAML writes it (-3, 0x10, 1_000).
func (l *loader) bigInt(n *yaml.Node) (*big.Int, bool) {
	// YAML reads an integer beyond 64 bits as a float (!!float): it is
	// an integer all the same when it has no point or exponent.
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!str" && n.Tag != "!!float") {
		return nil, false
	}
	v, ok := new(big.Int).SetString(n.Value, 0)
	return v, ok
}

// maxArrayLen bounds the length of an array type: its cells are
// separate variables.
const maxArrayLen = 1024

var arrayTypeRE = regexp.MustCompile(`^\[\s*([^\]]*)\]\s*(.*)$`)

// declType reads the type of a variable or a function parameter: a
// scalar type, or an array type [N]T (size N > 0; size 0 for a scalar).
func (l *loader) declType(m *spec.Model, n *yaml.Node) (t expr.Type, size int, ok bool) {
	s, ok := l.scalar(n, "a type")
	if !ok {
		return expr.Type{}, 0, false
	}
	a := arrayTypeRE.FindStringSubmatch(s)
	if a == nil {
		t, ok = l.typeName(m, n)
		return t, 0, ok
	}
	size, err := strconv.Atoi(a[1])
	if err != nil || size <= 0 || size > maxArrayLen {
		l.errorf(n, "array length %q in %s must be an integer constant from 1 to %d", a[1], s, maxArrayLen)
		return expr.Type{}, 0, false
	}
	if t, ok = scalarType(m, a[2]); !ok {
		l.errorf(n, "unknown element type %s in %s (want int, real, bool or a type declared under types:)", a[2], s)
		return expr.Type{}, 0, false
	}
	return t, size, true
}
