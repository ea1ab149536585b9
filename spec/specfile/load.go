package specfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// LoadFile reads a model file. A purpose needs the spec whose actions
// and variables it uses; for the other kinds spec may be nil.
func LoadFile(filename string, sp *spec.Model) (*spec.Model, error) {
	data, err := ReadModelFile(filename)
	if err != nil {
		return nil, err
	}
	return ParseModel(filename, data, sp)
}

// PeekKind returns the kind a model file declares, without checking
// the rest of it. A symbolic purpose gives SymPurposeKind, to be read
// with ParseSymPurpose rather than ParseModel.
func PeekKind(filename string, data []byte) (spec.ModelKind, error) {
	l := &loader{file: filename}
	_, k, ok := l.header(data)
	if !ok {
		return 0, l.errs.Err()
	}
	return k, nil
}

// ParseModel reads a model from data, as read from filename (used in
// positions). It checks names, types, and the rules of each kind that
// need no solver, except the naming of a test case's verdict locations
// (check.VerdictNames, which stg check and stg run add). The error, if
// any, is an ErrorList of FILE:LINE:COL messages.
func ParseModel(filename string, data []byte, sp *spec.Model) (*spec.Model, error) {
	l := &loader{file: filename}
	root, kind, ok := l.header(data)
	if !ok {
		return nil, l.errs.Err()
	}
	return l.parseModel(root, kind, sp)
}

// parseModel is ParseModel given the file's top-level mapping root and
// the kind its first key states, as l.header read them (l holds the
// errors found so far).
func (l *loader) parseModel(root *yaml.Node, kind spec.ModelKind, sp *spec.Model) (m *spec.Model, err error) {
	defer func() {
		if e := internalError(l.file, "the model", recover()); e != nil {
			m, err = nil, e
		}
	}()
	l.literal = kind == spec.TestcaseKind
	if kind == spec.SymPurposeKind {
		l.errorf(root.Content[1], "a sympurpose is not an ioSTS: it is read with its spec by stg verdict and stg purposes")
		return nil, l.errs.Err()
	}
	if kind == spec.SystemKind {
		l.errorf(root.Content[1], "a system is not an ioSTS: it is read by LoadSystem and composed by stg compose")
		return nil, l.errs.Err()
	}
	if kind == spec.PurposeKind {
		if sp == nil {
			l.errs.Add(l.pos(root), "a purpose is read together with its spec (stg check SPEC PURPOSE)")
			return nil, l.errs.Err()
		}
		if sp.Kind != spec.SpecKind {
			l.errs.Add(l.pos(root), "a purpose's first file must be a spec, not a %s", sp.Kind)
			return nil, l.errs.Err()
		}
	}
	if kind != spec.PurposeKind {
		sp = nil // only a purpose reads another model's names
	}
	m = l.model(root, kind, sp)
	if err := l.errs.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

type loader struct {
	file string
	errs expr.ErrorList
	// literal reads guards as written, without the implicit index
	// bounds of a[k], s[i] and s[i:j]: a test case is written by stg
	// with every bound it needs already in its guards (where the
	// selection may have simplified a bound away, or negated it in a
	// complement, adding it again would change the guard).
	literal bool
}

// internalError is the last guard of the loaders, which are written not
// to panic: r, recovered from a panic while reading what (or nil), as a
// message for the user rather than a stack trace.
func internalError(filename, what string, r any) error {
	if r == nil {
		return nil
	}
	return &expr.Error{Pos: expr.Pos{File: filename}, Msg: fmt.Sprintf("internal error reading %s: %v", what, r)}
}

// header parses the YAML and reads the kind on its first key; ok is
// false when either fails (the errors are in l.errs).
func (l *loader) header(data []byte) (root *yaml.Node, kind spec.ModelKind, ok bool) {
	if root = l.document(data); root == nil {
		return nil, 0, false
	}
	kind, ok = l.kind(root)
	return root, kind, ok
}

func (l *loader) pos(n *yaml.Node) expr.Pos {
	return expr.Pos{File: l.file, Line: n.Line, Col: n.Column}
}

func (l *loader) errorf(n *yaml.Node, format string, args ...any) {
	l.errs.Add(l.pos(n), format, args...)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// document parses the YAML and returns the top-level mapping.
func (l *loader) document(data []byte) *yaml.Node {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		err = nil // an empty file: said below
	}
	if err == nil {
		err = l.secondDocument(dec)
	}
	if err != nil {
		msg := err.Error()
		p := expr.Pos{File: l.file, Line: 1, Col: 1}
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			fmt.Sscan(m[1], &p.Line)
			msg = m[2]
		} else {
			msg = strings.TrimPrefix(msg, "yaml: ")
		}
		if hp, hint, ok := yamlQuoteHint(l.file, data, p.Line); ok { // yamlhint.go: an unquoted !, * or &
			p, msg = hp, msg+"; "+hint
		}
		l.errs.Add(p, "bad YAML: %s", msg)
		return nil
	}
	if n := yamlTagged(&doc); n != nil { // yamlhint.go: an unquoted !expr read as a tag
		l.errorf(n, "%s", taggedHint(n))
		return nil
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		l.errs.Add(expr.Pos{File: l.file, Line: 1, Col: 1}, "empty model file: expected a mapping starting with kind: spec, purpose or testcase")
		return nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		l.errorf(root, "a model is a YAML mapping starting with kind: spec, purpose or testcase")
		return nil
	}
	return root
}

// secondDocument refuses a YAML document after the first: a model file
// holds one model, and the rest of the file would be ignored silently.
// It returns the decoder's error for a second document that is not YAML
// (bad YAML, reported as such).
func (l *loader) secondDocument(dec *yaml.Decoder) error {
	var next yaml.Node
	err := dec.Decode(&next)
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return err
	}
	n := &next
	if len(next.Content) > 0 {
		n = next.Content[0]
	}
	l.errorf(n, "a second YAML document (after ---): a model file holds one model; put each in a file of its own")
	return nil
}

func (l *loader) kind(root *yaml.Node) (spec.ModelKind, bool) {
	if len(root.Content) < 2 || root.Content[0].Value != "kind" {
		l.errorf(root, "the first key of a model must be kind: spec, purpose, testcase or sympurpose")
		return 0, false
	}
	v := root.Content[1]
	switch v.Value {
	case "spec":
		return spec.SpecKind, true
	case "purpose":
		return spec.PurposeKind, true
	case "testcase":
		return spec.TestcaseKind, true
	case "sympurpose":
		return spec.SymPurposeKind, true
	case "system":
		return spec.SystemKind, true
	}
	l.errorf(v, "unknown kind %q: want spec, purpose, testcase, sympurpose or system", v.Value)
	return 0, false
}

// keys per kind; order is the order of the sections in a written file.
var sections = map[spec.ModelKind][]string{
	spec.SpecKind:     {"kind", "name", "types", "functions", "tables", "variables", "invariant", "actions", "initial", "locations", "transitions"},
	spec.PurposeKind:  {"kind", "name", "types", "variables", "initial", "accept", "locations", "where", "transitions"},
	spec.TestcaseKind: {"kind", "name", "types", "functions", "variables", "actions", "initial", "verdicts", "locations", "transitions", "analysis"},
}

// mapping returns the key/value pairs of a mapping node, reporting
// duplicate keys and keys outside allowed (when allowed is not nil).
func (l *loader) mapping(n *yaml.Node, what string, allowed []string) [][2]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return nil
		}
		l.errorf(n, "%s must be a mapping", what)
		return nil
	}
	var pairs [][2]*yaml.Node
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			l.errorf(k, "%s: keys must be names", what)
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			l.errorf(k, "duplicate key %s in %s (first at line %d)", k.Value, what, prev.Line)
			continue
		}
		seen[k.Value] = k
		if allowed != nil && !slices.Contains(allowed, k.Value) {
			l.errorf(k, "unknown key %s in %s (allowed: %s)", k.Value, what, strings.Join(allowed, ", "))
			continue
		}
		pairs = append(pairs, [2]*yaml.Node{k, v})
	}
	return pairs
}

func (l *loader) scalar(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		l.errorf(n, "%s must be a single value", what)
		return "", false
	}
	return n.Value, true
}

func (l *loader) sequence(n *yaml.Node, what string) []*yaml.Node {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		l.errorf(n, "%s must be a list", what)
		return nil
	}
	return n.Content
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.\-]*$`)

var reserved = map[string]bool{
	"true": true, "false": true, "int": true, "real": true, "bool": true, spec.Delta: true,
	// the built-in functions
	"ite": true, "min": true, "max": true, "abs": true, "len": true, "string": true,
}

// goKeywords cannot be names in expressions read by go/parser.
var goKeywords = map[string]bool{
	"break": true, "case": true, "chan": true, "const": true, "continue": true, "default": true,
	"defer": true, "else": true, "fallthrough": true, "for": true, "func": true, "go": true, "goto": true,
	"if": true, "import": true, "interface": true, "map": true, "package": true, "range": true,
	"return": true, "select": true, "struct": true, "switch": true, "type": true, "var": true,
}

func (l *loader) ident(n *yaml.Node, what string) (string, bool) {
	s := n.Value
	switch {
	case !expr.IsIdent(s):
		l.errorf(n, "%s %q is not an identifier (letters, digits, _; not starting with a digit)", what, s)
	case goKeywords[s]:
		l.errorf(n, "%s %q is a keyword of the expression language", what, s)
	case reserved[s]:
		l.errorf(n, "%s %q is reserved", what, s)
	default:
		return s, true
	}
	return s, false
}

// names records the declared names of one namespace (types, variables,
// parameters, enum constants) to report clashes.
type names map[string]string // name -> "variable x at 3:5"

func (l *loader) declare(ns names, n *yaml.Node, name, what string) bool {
	if prev, ok := ns[name]; ok {
		l.errorf(n, "%s is already declared as %s", what, prev)
		return false
	}
	ns[name] = fmt.Sprintf("%s (line %d)", what, n.Line)
	return true
}

func (l *loader) model(root *yaml.Node, kind spec.ModelKind, sp *spec.Model) *spec.Model {
	m := &spec.Model{Kind: kind, File: l.file, Spec: sp}
	sec := map[string]*yaml.Node{}
	allowed := sections[kind]
	if kind == spec.PurposeKind {
		// Accept actions: here, to say why a purpose has none.
		allowed = append(allowed[:len(allowed):len(allowed)], "actions")
	}
	var actionsKey *yaml.Node
	for _, kv := range l.mapping(root, kind.String(), allowed) {
		sec[kv[0].Value] = kv[1]
		if kv[0].Value == "actions" {
			actionsKey = kv[0]
		}
	}
	if n := sec["name"]; n != nil {
		if s, ok := l.scalar(n, "name"); ok {
			if !nameRE.MatchString(s) {
				l.errorf(n, "name %q: use letters, digits, _, - and .", s)
			}
			m.Name = s
		}
	} else {
		l.errorf(root, "missing name")
	}

	// One namespace for everything an expression can name.
	ns := names{}
	if sp != nil {
		for _, e := range sp.Enums {
			ns[e.Name] = "a type of the spec"
			for _, c := range e.Values {
				ns[c] = "a constant of the spec's type " + e.Name
			}
		}
		for _, v := range sp.Variables {
			ns[v.Name] = "a variable of the spec"
		}
		for _, a := range sp.Actions {
			for _, p := range a.Params {
				ns[p.Name] = "a parameter of the spec's action " + a.Name
			}
		}
	}
	if n := sec["types"]; n != nil {
		l.types(m, n, ns)
	}
	if n := sec["functions"]; n != nil {
		l.functions(m, n)
	}
	if n := sec["tables"]; n != nil {
		l.tablesFile(m, n)
	}
	if n := sec["variables"]; n != nil {
		l.variables(m, n, ns)
	} else if kind != spec.PurposeKind {
		l.errorf(root, "missing variables (write variables: {} for none)")
	}
	if n := sec["invariant"]; n != nil {
		m.Invariant = l.predicate(n, m.ParamScope(nil), "invariant")
	}

	switch kind {
	case spec.PurposeKind:
		m.Actions = sp.Actions
		if actionsKey != nil {
			l.errorf(actionsKey, "a purpose uses its spec's actions and declares none")
		}
	default:
		if n := sec["actions"]; n != nil {
			l.actions(m, n, ns)
		} else {
			l.errorf(root, "missing actions")
		}
	}

	locs := map[string]bool{}
	addLoc := func(s string) {
		if !locs[s] {
			locs[s] = true
			m.Locations = append(m.Locations, s)
		}
	}
	if n := sec["locations"]; n != nil {
		for _, ln := range l.sequence(n, "locations") {
			if s, ok := l.location(ln); ok {
				if locs[s] {
					l.errorf(ln, "duplicate location %s", s)
				}
				addLoc(s)
			}
		}
	}
	if n := sec["initial"]; n != nil {
		m.Initial = l.initial(m, n)
		if m.Initial.Location != "" {
			addLoc(m.Initial.Location)
		}
	} else {
		l.errorf(root, "missing initial: {location: L}")
	}
	m.Initial.Condition = orTrue(m.Initial.Condition)

	if kind == spec.PurposeKind {
		l.purposeLTS(m, sec["where"], sec["transitions"])
	}
	if n := sec["transitions"]; n != nil {
		for _, tn := range l.sequence(n, "transitions") {
			if t := l.transition(m, tn); t != nil {
				addLoc(t.From)
				addLoc(t.To)
				m.Transitions = append(m.Transitions, t)
			}
		}
	}
	if kind == spec.PurposeKind {
		n := sec["accept"]
		if n == nil {
			l.errorf(root, "missing accept: a purpose needs at least one Accept location")
		} else {
			for _, an := range l.sequence(n, "accept") {
				if s, ok := l.location(an); ok {
					if !locs[s] {
						l.errorf(an, "accept location %s is not a location of the purpose", s)
					}
					m.Accept = append(m.Accept, s)
				}
			}
			if len(m.Accept) == 0 && len(l.errs) == 0 {
				l.errorf(n, "accept lists no location")
			}
		}
	}
	if kind == spec.TestcaseKind {
		if n := sec["verdicts"]; n != nil {
			l.verdicts(m, n, addLoc)
		}
		for _, t := range m.Transitions {
			if v := m.Verdict(t.From); v != "" {
				l.errs.Add(t.Pos, "verdict location %s (%s) has an outgoing transition", t.From, v)
			}
		}
		if n := sec["analysis"]; n != nil {
			l.analysis(m, n) // analysisload.go
		}
	}
	return m
}

func orTrue(e expr.Expr) expr.Expr {
	if e == nil {
		return expr.True()
	}
	return e
}

func (l *loader) location(n *yaml.Node) (string, bool) {
	s, ok := l.scalar(n, "a location")
	if ok && strings.TrimSpace(s) == "" {
		l.errorf(n, "empty location name")
		return "", false
	}
	return s, ok
}

func (l *loader) types(m *spec.Model, n *yaml.Node, ns names) {
	for _, kv := range l.mapping(n, "types", nil) {
		name, ok := l.ident(kv[0], "type")
		if !ok || !l.declare(ns, kv[0], name, "type "+name) {
			continue
		}
		e := &expr.Enum{Name: name, Pos: l.pos(kv[0])}
		vals := l.sequence(kv[1], "the constants of type "+name)
		for _, vn := range vals {
			c, ok := l.ident(vn, "enum constant")
			if !ok || !l.declare(ns, vn, c, "constant "+c+" of type "+name) {
				continue
			}
			e.Values = append(e.Values, c)
		}
		if len(vals) == 0 && (kv[1].Kind == yaml.SequenceNode || kv[1].Tag == "!!null") {
			l.errorf(kv[1], "type %s has no constants", name)
		}
		if len(e.Values) > 0 {
			m.Enums = append(m.Enums, e)
		}
	}
}

func (l *loader) typeName(m *spec.Model, n *yaml.Node) (expr.Type, bool) {
	s, ok := l.scalar(n, "a type")
	if !ok {
		return expr.Type{}, false
	}
	if t, ok := scalarType(m, s); ok {
		return t, true
	}
	l.errorf(n, "unknown type %s (want int, real, bool, string or a type declared under types:)", s)
	return expr.Type{}, false
}

// scalarType returns the type named s.
func scalarType(m *spec.Model, s string) (expr.Type, bool) {
	switch s {
	case "int":
		return expr.IntType, true
	case "real":
		return expr.RealType, true
	case "bool":
		return expr.BoolType, true
	case "string":
		return expr.StringType, true
	}
	if e := m.Enum(s); e != nil {
		return expr.EnumType(e), true
	}
	if m.Spec != nil {
		if e := m.Spec.Enum(s); e != nil {
			return expr.EnumType(e), true
		}
	}
	return expr.Type{}, false
}

func (l *loader) actions(m *spec.Model, n *yaml.Node, ns names) {
	for _, kv := range l.mapping(n, "actions", nil) {
		name := kv[0].Value
		if name == spec.Delta {
			if m.Kind != spec.TestcaseKind {
				l.errorf(kv[0], "delta is reserved for quiescence: the tool adds it, a spec never declares it")
				continue
			}
		} else if !expr.IsIdent(name) {
			// Action names never occur in expressions, so Go keywords
			// (select, go) are fine; they must still be identifiers for
			// the generated code and the wire protocol.
			l.errorf(kv[0], "action %q is not an identifier (letters, digits, _; not starting with a digit)", name)
			continue
		}
		a := &spec.Action{Name: name, Pos: l.pos(kv[0])}
		dirSeen := false
		// Parameters live for one transition: they only clash with the
		// global names, not with other actions' parameters.
		params := names{}
		for _, p := range l.mapping(kv[1], "action "+name, []string{"dir", "params"}) {
			switch p[0].Value {
			case "dir":
				d, ok := l.scalar(p[1], "dir")
				if !ok {
					continue
				}
				dirSeen = true
				dirs := map[string]spec.Dir{"input": spec.Input, "output": spec.Output, "internal": spec.Internal}
				if m.Kind == spec.TestcaseKind {
					dirs = map[string]spec.Dir{"send": spec.Send, "receive": spec.Receive}
				}
				dir, ok := dirs[d]
				if !ok {
					want := "input, output or internal"
					if m.Kind == spec.TestcaseKind {
						want = "send or receive"
					}
					l.errorf(p[1], "action %s: unknown dir %q (want %s)", name, d, want)
					continue
				}
				a.Dir = dir
			case "params":
				for _, pp := range l.mapping(p[1], "params of "+name, nil) {
					pn, ok := l.ident(pp[0], "parameter")
					if !ok {
						continue
					}
					if prev, clash := ns[pn]; clash {
						l.errorf(pp[0], "parameter %s of action %s shadows %s", pn, name, prev)
						continue
					}
					if !l.declare(params, pp[0], pn, "parameter "+pn) {
						continue
					}
					if pp[1].Kind == yaml.ScalarNode && strings.HasPrefix(strings.TrimSpace(pp[1].Value), "[") {
						l.errorf(pp[1], "parameter %s of action %s: array types are allowed for variables and function parameters, not action parameters", pn, name)
						continue
					}
					t, rng, ok := l.paramType(m, pp[1], pn) // ranges.go
					if !ok {
						continue
					}
					a.Params = append(a.Params, &spec.Param{Name: pn, Type: t, Range: rng, Pos: l.pos(pp[0])})
				}
			}
		}
		if !dirSeen {
			l.errorf(kv[0], "action %s has no dir", name)
		}
		if name == spec.Delta && (a.Dir != spec.Receive || len(a.Params) > 0) {
			l.errorf(kv[0], "delta is quiescence: a receive without parameters")
		}
		if m.Action(name) == nil {
			m.Actions = append(m.Actions, a)
		}
	}
}

func (l *loader) initial(m *spec.Model, n *yaml.Node) spec.Initial {
	in := spec.Initial{Pos: l.pos(n)}
	for _, kv := range l.mapping(n, "initial", []string{"location", "condition"}) {
		switch kv[0].Value {
		case "location":
			if s, ok := l.location(kv[1]); ok {
				in.Location = s
			}
		case "condition":
			in.Condition = l.predicate(kv[1], m.ParamScope(nil), "initial condition")
		}
	}
	if in.Location == "" && (n.Kind == yaml.MappingNode || n.Tag == "!!null") {
		l.errorf(n, "initial needs a location")
	}
	return in
}

func (l *loader) verdicts(m *spec.Model, n *yaml.Node, addLoc func(string)) {
	for _, kv := range l.mapping(n, "verdicts", []string{"pass", "fail", "inconc"}) {
		var locs []string
		for _, ln := range l.sequence(kv[1], "verdicts "+kv[0].Value) {
			if s, ok := l.location(ln); ok {
				if m.Verdict(s) != "" || slices.Contains(locs, s) {
					l.errorf(ln, "location %s has two verdicts", s)
				}
				locs = append(locs, s)
				addLoc(s)
			}
		}
		switch kv[0].Value {
		case "pass":
			m.Verdicts.Pass = locs
		case "fail":
			m.Verdicts.Fail = locs
		case "inconc":
			m.Verdicts.Inconc = locs
		}
	}
}

// exprPos returns the position of the first character of a scalar's
// text (after an opening quote).
func (l *loader) exprPos(n *yaml.Node) expr.Pos {
	p := l.pos(n)
	switch n.Style {
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		p.Col++
	case yaml.LiteralStyle, yaml.FoldedStyle:
		p.Line++
	}
	return p
}

// guarded reads an expression and the condition under which its array
// indexes are in range (ParseGuarded).
func (l *loader) guarded(n *yaml.Node, scope *expr.Scope, what string) (expr.Expr, expr.Expr) {
	s, ok := l.scalar(n, what)
	if !ok {
		return nil, nil
	}
	if strings.TrimSpace(s) == "" {
		l.errorf(n, "%s is empty", what)
		return nil, nil
	}
	e, def, err := expr.ParseGuarded(s, l.exprPos(n), scope)
	if err != nil {
		l.errs = append(l.errs, err.(expr.ErrorList)...)
		return nil, nil
	}
	return e, def
}

// predicate reads a predicate, conjoined with its index bounds.
func (l *loader) predicate(n *yaml.Node, scope *expr.Scope, what string) expr.Expr {
	e, def := l.guarded(n, scope, what)
	if e != nil && e.Type() != expr.BoolType {
		l.errorf(n, "%s %s has type %s, want bool", what, expr.Format(e), e.Type())
		return nil
	}
	if e == nil || l.literal {
		return e
	}
	return expr.Guard(e, def)
}

var transitionKeys = []string{"from", "action", "guard", "assign", "to", "name"}

func (l *loader) transition(m *spec.Model, n *yaml.Node) *spec.Transition {
	t := &spec.Transition{Pos: l.pos(n)}
	f := map[string]*yaml.Node{}
	for _, kv := range l.mapping(n, "a transition", transitionKeys) {
		f[kv[0].Value] = kv[1]
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	ok := true
	for _, k := range []string{"from", "action", "to"} {
		if f[k] == nil {
			l.errorf(n, "transition without %s", k)
			ok = false
		}
	}
	if !ok {
		return nil
	}
	t.From, ok = l.location(f["from"])
	if !ok {
		return nil
	}
	if t.To, ok = l.location(f["to"]); !ok {
		return nil
	}
	if nn := f["name"]; nn != nil {
		t.Name, _ = l.scalar(nn, "name")
	}
	an := f["action"]
	if t.Action, ok = l.scalar(an, "action"); !ok {
		return nil
	}
	var act *spec.Action
	switch {
	case t.Action == spec.Otherwise && m.Kind == spec.PurposeKind:
		// "*": any action not matched by another transition; its guard
		// may read variables only.
	case t.Action == spec.Delta && m.Kind == spec.PurposeKind:
		act = &spec.Action{Name: spec.Delta, Dir: spec.Output}
	default:
		act = m.Action(t.Action)
		if act == nil {
			if t.Action == spec.Delta {
				l.errorf(an, "delta is reserved for quiescence: the tool adds it, a spec never uses it")
			} else {
				l.errorf(an, "unknown action %s", t.Action)
			}
			return nil
		}
	}
	scope := m.ParamScope(act)
	t.Guard = expr.True()
	if g := f["guard"]; g != nil {
		e := l.predicate(g, scope, "guard")
		if e == nil {
			return nil
		}
		t.Guard = e
	}
	if an := f["assign"]; an != nil {
		l.assignments(m, t, an, scope)
	}
	return t
}
