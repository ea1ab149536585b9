package specfile

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
)

// LoadSymPurpose reads a symbolic purpose file.
func LoadSymPurpose(filename string) (*spec.SymPurpose, error) {
	data, err := ReadModelFile(filename)
	if err != nil {
		return nil, err
	}
	return ParseSymPurpose(filename, data)
}

var symPurposeKeys = []string{"kind", "name", "spec", "criterion", "accept"}

// ParseSymPurpose reads a symbolic purpose from data, as read from
// filename (used in positions). It checks the format only; the error,
// if any, is an ErrorList of FILE:LINE:COL messages.
func ParseSymPurpose(filename string, data []byte) (*spec.SymPurpose, error) {
	return parseSections(filename, data, spec.SymPurposeKind, symPurposeKeys, (*loader).symPurpose)
}

// parseSections reads data, as read from filename, as a file of kind
// want whose top-level keys are keys, and hands its root mapping and its
// sections (key -> value) to read. An internal error is recovered as an
// error naming the file; the error, if any, is an ErrorList of
// FILE:LINE:COL messages.
func parseSections[T any](filename string, data []byte, want spec.ModelKind, keys []string, read func(l *loader, root *yaml.Node, sec map[string]*yaml.Node) *T) (v *T, err error) {
	l := &loader{file: filename}
	defer func() {
		if e := internalError(filename, "the "+want.String(), recover()); e != nil {
			v, err = nil, e
		}
	}()
	root, kind, ok := l.header(data)
	if !ok {
		return nil, l.errs.Err()
	}
	if kind != want {
		l.errorf(root.Content[1], "this is a %s, not a %s", kind, want)
		return nil, l.errs.Err()
	}
	sec := map[string]*yaml.Node{}
	for _, kv := range l.mapping(root, want.String(), keys) {
		sec[kv[0].Value] = kv[1]
	}
	v = read(l, root, sec)
	if err := l.errs.Err(); err != nil {
		return nil, err
	}
	return v, nil
}

// fileName reads the name: section of a file (root its mapping).
func (l *loader) fileName(root *yaml.Node, sec map[string]*yaml.Node) string {
	n := sec["name"]
	if n == nil {
		l.errorf(root, "missing name")
		return ""
	}
	s, ok := l.scalar(n, "name")
	if ok && !nameRE.MatchString(s) {
		l.errorf(n, "name %q: use letters, digits, _, - and .", s)
	}
	return s
}

func (l *loader) symPurpose(root *yaml.Node, sec map[string]*yaml.Node) *spec.SymPurpose {
	p := &spec.SymPurpose{File: l.file, Name: l.fileName(root, sec)}
	if n := sec["spec"]; n == nil {
		l.errorf(root, "missing spec: the path of the spec file, relative to this one")
	} else if s, ok := l.scalar(n, "spec"); ok {
		if strings.TrimSpace(s) == "" {
			l.errorf(n, "empty spec path")
		}
		p.Spec, p.SpecPos = s, l.pos(n)
	}
	if n := sec["criterion"]; n != nil {
		p.Criterion = l.criterion(n)
	}
	if n := sec["accept"]; n == nil {
		l.errorf(root, "missing accept: a list of accept paths, each a list of transition names")
	} else {
		p.Accept = l.acceptPaths(n)
	}
	return p
}

func (l *loader) criterion(n *yaml.Node) spec.Criterion {
	c := spec.Criterion{Pos: l.pos(n)}
	pairs := l.mapping(n, "criterion", []string{"length", "k-inclusion"})
	if n.Kind == yaml.MappingNode && len(n.Content) == 0 {
		l.errorf(n, "empty criterion: write {length: N} or {k-inclusion: K}")
	}
	for i, kv := range pairs {
		if i > 0 {
			l.errorf(kv[0], "a criterion is either length or k-inclusion, not both")
			break
		}
		s, ok := l.scalar(kv[1], kv[0].Value)
		if !ok {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || strconv.Itoa(v) != s {
			l.errorf(kv[1], "%s %q: want a positive integer", kv[0].Value, s)
			continue
		}
		if kv[0].Value == "length" {
			c.Length = v
		} else {
			c.Inclusion = v
		}
	}
	return c
}

func (l *loader) acceptPaths(n *yaml.Node) []spec.AcceptPath {
	items := l.sequence(n, "accept")
	if len(items) == 0 && (n.Kind == yaml.SequenceNode || n.Tag == "!!null") {
		l.errorf(n, "accept lists no path")
	}
	var paths []spec.AcceptPath
	seen := map[string]int{} // path key -> line
	for _, item := range items {
		a, ok := l.acceptPath(item)
		if !ok {
			continue
		}
		k := spec.PathKey(a.Names)
		if line, dup := seen[k]; dup {
			l.errorf(item, "duplicate accept path [%s] (first at line %d)", strings.Join(a.Names, ", "), line)
			continue
		}
		seen[k] = item.Line
		paths = append(paths, a)
	}
	return paths
}

func (l *loader) acceptPath(n *yaml.Node) (spec.AcceptPath, bool) {
	a := spec.AcceptPath{Pos: l.pos(n)}
	if n.Kind == yaml.MappingNode {
		return l.constrainedAcceptPath(n)
	}
	if n.Kind != yaml.SequenceNode {
		l.errorf(n, "an accept path must be a list of transition names, such as [a, b]")
		return a, false
	}
	if len(n.Content) == 0 {
		l.errorf(n, "empty accept path: the root is never an accept node")
		return a, false
	}
	ok := true
	for _, nn := range n.Content {
		s, isScalar := l.scalar(nn, "a transition name")
		switch {
		case !isScalar:
			ok = false
		case strings.TrimSpace(s) == "":
			l.errorf(nn, "empty transition name")
			ok = false
		}
		a.Names = append(a.Names, s)
		a.NamePos = append(a.NamePos, l.pos(nn))
	}
	return a, ok
}

// MarshalSymPurpose writes p in the format ParseSymPurpose reads:
// reading the result gives p back (positions aside), and writing that
// again gives the same text.
func MarshalSymPurpose(p *spec.SymPurpose) ([]byte, error) {
	if err := validate(p); err != nil {
		return nil, err
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) { root.Content = append(root.Content, str(k), v) }
	add("kind", str(spec.SymPurposeKind.String()))
	add("name", str(p.Name))
	add("spec", str(p.Spec))
	switch c := p.Criterion; {
	case c.Length > 0:
		add("criterion", flow("length", intNode(c.Length)))
	case c.Inclusion > 0:
		add("criterion", flow("k-inclusion", intNode(c.Inclusion)))
	}
	acc := &yaml.Node{Kind: yaml.SequenceNode}
	for _, a := range p.Accept {
		acc.Content = append(acc.Content, acceptNode(a))
	}
	add("accept", acc)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func intNode(v int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(v)}
}

// validate reports what would keep ParseSymPurpose from reading back
// what MarshalSymPurpose writes.
func validate(p *spec.SymPurpose) error {
	switch {
	case !nameRE.MatchString(p.Name):
		return fmt.Errorf("sympurpose name %q: use letters, digits, _, - and .", p.Name)
	case strings.TrimSpace(p.Spec) == "":
		return fmt.Errorf("sympurpose %s: empty spec path", p.Name)
	case p.Criterion.Length < 0 || p.Criterion.Inclusion < 0 || p.Criterion.Length > 0 && p.Criterion.Inclusion > 0:
		return fmt.Errorf("sympurpose %s: a criterion is one positive length or k-inclusion", p.Name)
	case len(p.Accept) == 0:
		return fmt.Errorf("sympurpose %s: no accept path", p.Name)
	}
	seen := map[string]bool{}
	for _, a := range p.Accept {
		if len(a.Names) == 0 {
			return fmt.Errorf("sympurpose %s: empty accept path", p.Name)
		}
		for _, s := range a.Names {
			if strings.TrimSpace(s) == "" {
				return fmt.Errorf("sympurpose %s: empty transition name in [%s]", p.Name, strings.Join(a.Names, ", "))
			}
		}
		k := spec.PathKey(a.Names)
		if seen[k] {
			return fmt.Errorf("sympurpose %s: duplicate accept path [%s]", p.Name, strings.Join(a.Names, ", "))
		}
		seen[k] = true
	}
	return nil
}

// constrainedAcceptPath reads {path: [...], constraint: EXPR}.
func (l *loader) constrainedAcceptPath(n *yaml.Node) (spec.AcceptPath, bool) {
	var a spec.AcceptPath
	hasPath := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		hasPath = hasPath || n.Content[i].Value == "path"
	}
	if !hasPath {
		l.errorf(n, "an accept path must be a list of transition names, such as [a, b], or {path: [a, b], constraint: EXPR}")
		return a, false
	}
	var pathNode *yaml.Node
	for _, kv := range l.mapping(n, "accept path", []string{"path", "constraint"}) {
		switch kv[0].Value {
		case "path":
			pathNode = kv[1]
		case "constraint":
			s, ok := l.scalar(kv[1], "constraint")
			if !ok {
				return a, false
			}
			if strings.TrimSpace(s) == "" {
				l.errorf(kv[1], "empty constraint")
				return a, false
			}
			a.Constraint, a.ConstraintPos = s, l.pos(kv[1])
		}
	}
	if pathNode == nil {
		return a, false
	}
	p, ok := l.acceptPath(pathNode)
	p.Constraint, p.ConstraintPos = a.Constraint, a.ConstraintPos
	return p, ok
}

// acceptNode writes a as a list, or {path, constraint} when it has a
// constraint.
func acceptNode(a spec.AcceptPath) *yaml.Node {
	if a.Constraint == "" {
		return strSeq(a.Names)
	}
	n := &yaml.Node{Kind: yaml.MappingNode}
	n.Content = append(n.Content, str("path"), strSeq(a.Names), str("constraint"), str(a.Constraint))
	return n
}
