package specfile

import (
	"bytes"
	"fmt"
	"io"
	"math/big"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Marshal writes m in the YAML format of docs/reference.md#model-files. Reading the
// result with ParseModel gives back the same model.
func Marshal(m *spec.Model) ([]byte, error) {
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write writes m as YAML to w. The transitions, most of a large test
// case, are written one at a time as they are converted (see
// writeTransitions): no tree of the whole model is built.
func Write(w io.Writer, m *spec.Model) error {
	if len(m.Transitions) == 0 {
		return writeTree(w, m)
	}
	if err := encodeYAML(w, headerNode(m)); err != nil {
		return err
	}
	if err := writeTransitions(w, m); err != nil {
		return err
	}
	return writeAnalysis(w, m) // analysisload.go
}

// writeTree writes m as YAML to w from one tree of nodes: the reference
// form, which Write's output equals byte for byte.
func writeTree(w io.Writer, m *spec.Model) error {
	root := headerNode(m)
	ts := &yaml.Node{Kind: yaml.SequenceNode}
	for _, t := range m.Transitions {
		ts.Content = append(ts.Content, transitionNode(m, t))
	}
	if len(ts.Content) == 0 {
		ts.Style = yaml.FlowStyle
	}
	root.Content = append(root.Content, str("transitions"), ts)
	if a := analysisNode(m); a != nil { // analysisload.go
		root.Content = append(root.Content, str("analysis"), a)
	}
	return encodeYAML(w, root)
}

// writeTransitions writes the transitions: section of m, one item at a
// time: by hand (appendTransitionLine) where it knows the encoder's
// form, by the encoder otherwise (encodeTransition).
func writeTransitions(w io.Writer, m *spec.Model) error {
	const key = "transitions:\n"
	if _, err := io.WriteString(w, key); err != nil {
		return err
	}
	var buf bytes.Buffer
	var line []byte
	for _, t := range m.Transitions {
		var ok bool
		if line, ok = appendTransitionLine(line[:0], m, t); ok { // writeline.go
			if _, err := w.Write(line); err != nil {
				return err
			}
			continue
		}
		buf.Reset()
		if err := encodeTransition(&buf, m, t); err != nil {
			return err
		}
		if _, err := w.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// encodeTransition writes the item of the transitions: section that
// yaml.v3 encodes for t, in the context it has in the whole document
// (the only key of a mapping, a block sequence of one item), so that its
// indentation and line breaks are those of writeTree; the key's line is
// dropped.
func encodeTransition(buf *bytes.Buffer, m *spec.Model, t *spec.Transition) error {
	const key = "transitions:\n"
	var doc bytes.Buffer
	one := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{transitionNode(m, t)}}
	if err := encodeYAML(&doc, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{str("transitions"), one}}); err != nil {
		return err
	}
	b := doc.Bytes()
	if !bytes.HasPrefix(b, []byte(key)) {
		return fmt.Errorf("spec: unexpected YAML for a transition: %q", b)
	}
	buf.Write(b[len(key):])
	return nil
}

func encodeYAML(w io.Writer, root *yaml.Node) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return err
	}
	return enc.Close()
}

// headerNode returns the mapping of m's sections but transitions:.
func headerNode(m *spec.Model) *yaml.Node {
	root := &yaml.Node{Kind: yaml.MappingNode}
	add := func(k string, v *yaml.Node) { root.Content = append(root.Content, str(k), v) }
	add("kind", str(m.Kind.String()))
	add("name", str(m.Name))
	if len(m.Enums) > 0 {
		types := block()
		for _, e := range m.Enums {
			vals := flowSeq()
			for _, c := range e.Values {
				vals.Content = append(vals.Content, str(c))
			}
			types.Content = append(types.Content, str(e.Name), vals)
		}
		add("types", types)
	}
	if len(m.Funcs) > 0 {
		fs := block()
		for _, f := range m.Funcs {
			fs.Content = append(fs.Content, str(f.Name), funcNode(m, f))
		}
		add("functions", fs)
	}
	if m.Tables != "" {
		add("tables", str(m.Tables))
	}
	vars := flow()
	if m.Kind != spec.PurposeKind && len(m.Variables) > 3 {
		vars = block()
	}
	for _, v := range m.Variables {
		if a, i := m.ArrayOf(v.Name); a != nil {
			if i == 0 {
				vars.Content = append(vars.Content, str(a.Name), arrayType(a))
			}
			continue
		}
		vars.Content = append(vars.Content, str(v.Name), varType(v))
	}
	add("variables", vars)
	if m.Invariant != nil {
		add("invariant", exprScalar(m.Invariant))
	}
	if m.Kind != spec.PurposeKind {
		acts := block()
		for _, a := range m.Actions {
			an := flow("dir", str(a.Dir.String()))
			if len(a.Params) > 0 {
				ps := flow()
				for _, p := range a.Params {
					ps.Content = append(ps.Content, str(p.Name), typeNode(p.Type, p.Range)) // ranges.go
				}
				an.Content = append(an.Content, str("params"), ps)
			}
			acts.Content = append(acts.Content, str(a.Name), an)
		}
		add("actions", acts)
	}
	in := flow("location", str(m.Initial.Location))
	if m.Initial.Condition != nil && !expr.IsTrue(m.Initial.Condition) {
		in.Content = append(in.Content, str("condition"), exprScalar(m.Initial.Condition))
	}
	add("initial", in)
	if m.Kind == spec.PurposeKind {
		add("accept", strSeq(m.Accept))
	}
	if m.Kind == spec.TestcaseKind {
		v := flow()
		for _, kv := range []struct {
			k    string
			locs []string
		}{{"pass", m.Verdicts.Pass}, {"fail", m.Verdicts.Fail}, {"inconc", m.Verdicts.Inconc}} {
			if len(kv.locs) > 0 {
				v.Content = append(v.Content, str(kv.k), strSeq(kv.locs))
			}
		}
		add("verdicts", v)
	}
	// Write the locations only when their order is not the order of
	// first appearance, or some location would otherwise be lost.
	if !sameStrings(m.Locations, appearanceOrder(m)) {
		add("locations", strSeq(m.Locations))
	}
	return root
}

// transitionNode returns t as a flow mapping.
func transitionNode(m *spec.Model, t *spec.Transition) *yaml.Node {
	head, assign, to := transitionFields(m, t) // writeline.go
	tn := flow()
	add := func(n *yaml.Node, fs ...field) {
		for _, f := range fs {
			v := &yaml.Node{Kind: yaml.ScalarNode, Value: f.value}
			if f.tagged {
				v = str(f.value)
			}
			n.Content = append(n.Content, str(f.key), v)
		}
	}
	add(tn, head...)
	if len(assign) > 0 {
		as := flow()
		add(as, assign...)
		tn.Content = append(tn.Content, str("assign"), as)
	}
	add(tn, to)
	return tn
}

// appearanceOrder is the location order the loader derives when no
// locations: section is written.
func appearanceOrder(m *spec.Model) []string {
	var locs []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			locs = append(locs, s)
		}
	}
	add(m.Initial.Location)
	for _, t := range m.Transitions {
		add(t.From)
		add(t.To)
	}
	if m.Kind == spec.TestcaseKind {
		for _, l := range m.Verdicts.Pass {
			add(l)
		}
		for _, l := range m.Verdicts.Fail {
			add(l)
		}
		for _, l := range m.Verdicts.Inconc {
			add(l)
		}
	}
	return locs
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// expr is a scalar holding an expression: untagged, so that "0" and
// "true" are written plainly; the encoder still quotes what plain YAML
// cannot hold ("!(a && b)", "a: b").
func exprScalar(e expr.Expr) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: expr.Format(e)}
}

func block() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func flow(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

func flowSeq() *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle} }

func strSeq(xs []string) *yaml.Node {
	n := flowSeq()
	for _, x := range xs {
		n.Content = append(n.Content, str(x))
	}
	return n
}

// varType writes a variable's declaration: its type, or
// {type: int, range: [lo, hi]}.
func varType(v *spec.Variable) *yaml.Node { return typeNode(v.Type, v.Range) }

func bigIntNode(v *big.Int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: v.String()}
}

// funcNode writes a function's declaration; the rows read from the
// spec's tables file stay there.
func funcNode(m *spec.Model, f *expr.Func) *yaml.Node {
	var ps *yaml.Node
	if f.ParamNames != nil {
		ps = flow()
	} else {
		ps = flowSeq()
	}
	k := 0
	for _, size := range f.DeclaredLens() {
		if k >= len(f.Params) {
			break
		}
		t := f.Params[k].String()
		if size > 0 {
			t = expr.ArrayTypeText(size, f.Params[k])
		}
		if f.ParamNames != nil && k < len(f.ParamNames) {
			name := f.ParamNames[k]
			if size > 0 {
				name = strings.TrimSuffix(name, "[0]")
			}
			ps.Content = append(ps.Content, str(name))
		}
		ps.Content = append(ps.Content, str(t))
		k += max(size, 1)
	}
	n := flow("params", ps, "result", str(f.Result.String()))
	if f.Def != nil {
		n.Content = append(n.Content, str("def"), exprScalar(f.Def))
	}
	var rows []expr.TableRow
	for _, r := range f.Table {
		if m.TablesPath == "" || r.Pos.File != m.TablesPath {
			rows = append(rows, r)
		}
	}
	if len(rows) > 0 {
		n.Style = 0 // a block mapping holds the block list of rows
		n.Content = append(n.Content, str("table"), tableNode(f, rows))
	}
	if f.Impl != "" {
		n.Content = append(n.Content, str("impl"), str(f.Impl))
		if f.ImplDir != "" {
			n.Content = append(n.Content, str("dir"), str(f.ImplDir))
		}
	}
	return n
}

// arrayType writes an array's declaration: [N]T, or {type: [N]T,
// range: [lo, hi]}.
func arrayType(a *expr.ArrayVar) *yaml.Node {
	t := str(expr.ArrayTypeText(a.Len, a.Elem))
	if a.Range == nil {
		return t
	}
	r := flowSeq()
	r.Content = append(r.Content, bigIntNode(a.Range.Lo), bigIntNode(a.Range.Hi))
	return flow("type", t, "range", r)
}
