package spec

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// SymPurpose is a symbolic test purpose (docs/reference.md#trace-files; Def 13 of
// Gaston et al., the AGATHA paper): a set of accept nodes of the
// symbolic execution tree of a spec, each named by its path of
// transition names from the root.
//
//	kind: sympurpose
//	name: atm-TG2-eta11
//	spec: spec.yaml             # relative to this file
//	criterion: {length: 2}      # optional, informative
//	accept:
//	  - [deposit, ask, cash]
//
// ParseSymPurpose checks the file's format; Check checks the paths
// against the spec.
type SymPurpose struct {
	Name      string
	File      string // the file it was read from, or ""
	Spec      string // the spec's path as written, relative to File's directory
	SpecPos   Pos
	Criterion Criterion
	Accept    []AcceptPath
}

// Criterion says how a symbolic purpose was built. It is informative:
// nothing in stg depends on it. At most one of Length and Inclusion is
// non-zero; both are zero when the file has no criterion.
type Criterion struct {
	Length    int // {length: N}: the accept nodes of depth N (TG_n)
	Inclusion int // {k-inclusion: K}: the k-inclusion criterion
	Pos       Pos
}

// AcceptPath names an accept node by the transition names on its path
// from the root of the symbolic execution tree; Delta names quiescence.
type AcceptPath struct {
	Names   []string
	Pos     Pos   // the list
	NamePos []Pos // each name, when read from a file
	// Constraint is the accept node's external constraint, as written
	// ("" for none; see sympurposeec.go).
	Constraint    string
	ConstraintPos Pos
}

// String returns the path as its names separated by spaces.
func (a AcceptPath) String() string { return strings.Join(a.Names, " ") }

// SpecPath returns the path of the spec file: Spec, relative to the
// directory of File unless it is absolute.
func (p *SymPurpose) SpecPath() string {
	if filepath.IsAbs(p.Spec) || p.File == "" {
		return p.Spec
	}
	return filepath.Join(filepath.Dir(p.File), p.Spec)
}

// LoadSymPurpose reads a symbolic purpose file.
func LoadSymPurpose(filename string) (*SymPurpose, error) {
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
func ParseSymPurpose(filename string, data []byte) (*SymPurpose, error) {
	return parseSections(filename, data, SymPurposeKind, symPurposeKeys, (*loader).symPurpose)
}

// parseSections reads data, as read from filename, as a file of kind
// want whose top-level keys are keys, and hands its root mapping and its
// sections (key -> value) to read. An internal error is recovered as an
// error naming the file; the error, if any, is an ErrorList of
// FILE:LINE:COL messages.
func parseSections[T any](filename string, data []byte, want ModelKind, keys []string, read func(l *loader, root *yaml.Node, sec map[string]*yaml.Node) *T) (v *T, err error) {
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

func (l *loader) symPurpose(root *yaml.Node, sec map[string]*yaml.Node) *SymPurpose {
	p := &SymPurpose{File: l.file, Name: l.fileName(root, sec)}
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

func (l *loader) criterion(n *yaml.Node) Criterion {
	c := Criterion{Pos: l.pos(n)}
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

func (l *loader) acceptPaths(n *yaml.Node) []AcceptPath {
	items := l.sequence(n, "accept")
	if len(items) == 0 && (n.Kind == yaml.SequenceNode || n.Tag == "!!null") {
		l.errorf(n, "accept lists no path")
	}
	var paths []AcceptPath
	seen := map[string]int{} // path key -> line
	for _, item := range items {
		a, ok := l.acceptPath(item)
		if !ok {
			continue
		}
		k := pathKey(a.Names)
		if line, dup := seen[k]; dup {
			l.errorf(item, "duplicate accept path [%s] (first at line %d)", strings.Join(a.Names, ", "), line)
			continue
		}
		seen[k] = item.Line
		paths = append(paths, a)
	}
	return paths
}

func (l *loader) acceptPath(n *yaml.Node) (AcceptPath, bool) {
	a := AcceptPath{Pos: l.pos(n)}
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

// pathKey is a map key for a path (names are length-prefixed, so no
// two paths share a key).
func pathKey(names []string) string {
	var b strings.Builder
	for _, s := range names {
		fmt.Fprintf(&b, "%d:%s\x00", len(s), s)
	}
	return b.String()
}

// MarshalSymPurpose writes p in the format ParseSymPurpose reads:
// reading the result gives p back (positions aside), and writing that
// again gives the same text.
func MarshalSymPurpose(p *SymPurpose) ([]byte, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	root := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) { root.Content = append(root.Content, str(k), v) }
	add("kind", str(SymPurposeKind.String()))
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
func (p *SymPurpose) validate() error {
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
		k := pathKey(a.Names)
		if seen[k] {
			return fmt.Errorf("sympurpose %s: duplicate accept path [%s]", p.Name, strings.Join(a.Names, ", "))
		}
		seen[k] = true
	}
	return nil
}

// Check checks the accept paths against the spec m, syntactically
// (without a solver), by the rules of Def 13:
//
//   - each name is the name of a transition of m, or Delta;
//   - the names chain: the first transition leaves m's initial location,
//     each next one leaves the target of the previous, and Delta, which
//     ends a path, is followed by nothing;
//   - the last step is an output or Delta (every accept node is the
//     target of an output transition);
//   - no path is a strict prefix of another (no accept node is an
//     ancestor of another).
//
// names gives a transition's name (nil: its Name field), so that names
// generated for unnamed transitions are accepted. Whether a path is
// feasible (its path condition satisfiable) is left to the symbolic
// execution. The error, if any, is an ErrorList positioned in p's file.
func (p *SymPurpose) Check(m *Model, names func(*Transition) string) error {
	if names == nil {
		names = func(t *Transition) string { return t.Name }
	}
	var errs ErrorList
	if m.Kind != SpecKind {
		errs.Add(p.SpecPos, "%s is a %s, not a spec", m.Name, m.Kind)
		return errs.Err()
	}
	known := map[string]string{} // name -> the location it leaves
	for _, t := range m.Transitions {
		if n := names(t); known[n] == "" {
			known[n] = t.From
		}
	}
	for _, a := range p.Accept {
		p.checkPath(m, a, names, known, &errs)
	}
	p.checkAncestors(&errs)
	return errs.Err()
}

// checkPath follows one accept path from m's initial location.
func (p *SymPurpose) checkPath(m *Model, a AcceptPath, names func(*Transition) string, known map[string]string, errs *ErrorList) {
	at := m.Initial.Location
	var last *Transition
	for i, name := range a.Names {
		pos := a.namePos(i)
		if i > 0 && a.Names[i-1] == Delta {
			errs.Add(pos, "%s follows delta: quiescence ends an accept path", name)
			return
		}
		if name == Delta {
			last = nil
			continue
		}
		var cands []*Transition
		for _, t := range m.Outgoing(at) {
			if names(t) == name {
				cands = append(cands, t)
			}
		}
		switch {
		case len(cands) == 1:
			last, at = cands[0], cands[0].To
			continue
		case len(cands) > 1:
			errs.Add(pos, "transition name %s is ambiguous: %d transitions of %s leave %s with it (%s, %s)",
				name, len(cands), m.Name, at, cands[0].Pos, cands[1].Pos)
		case known[name] != "" && i == 0:
			errs.Add(pos, "transition %s leaves %s, not the initial location %s", name, known[name], at)
		case known[name] != "":
			errs.Add(pos, "transition %s leaves %s, not %s, the target of %s", name, known[name], at, a.Names[i-1])
		default:
			errs.Add(pos, "%s is not the name of a transition of %s", name, m.Name)
		}
		return
	}
	if last != nil {
		if act := m.Action(last.Action); act == nil || act.Dir != Output {
			errs.Add(a.namePos(len(a.Names)-1), "accept path [%s] ends with %s, not with an output or delta: every accept node is the target of an output (Def 13)",
				strings.Join(a.Names, ", "), a.Names[len(a.Names)-1])
		}
	}
}

// checkAncestors reports the paths that extend another accept path.
func (p *SymPurpose) checkAncestors(errs *ErrorList) {
	full := map[string]int{}
	for i, a := range p.Accept {
		full[pathKey(a.Names)] = i
	}
	for _, a := range p.Accept {
		for n := len(a.Names) - 1; n > 0; n-- {
			if j, ok := full[pathKey(a.Names[:n])]; ok {
				anc := p.Accept[j]
				errs.Add(a.Pos, "accept path [%s] extends accept path [%s] (line %d): no accept node is an ancestor of another (Def 13)",
					strings.Join(a.Names, ", "), strings.Join(anc.Names, ", "), anc.Pos.Line)
				break
			}
		}
	}
}

// namePos returns the position of the i-th name, or of the path.
func (a AcceptPath) namePos(i int) Pos {
	if i < len(a.NamePos) && a.NamePos[i].IsValid() {
		return a.NamePos[i]
	}
	return a.Pos
}
