package specfile

import (
	"bytes"
	"io"
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// A tables file gives known input/output tuples of a spec's external
// functions, beside the spec (spec key tables: FILE) or on the command
// line:
//
//	kind: tables
//	functions:
//	  INTGR: [[[123, 96], 228], [[148, 141], 300]]
//	  RISE: [[202, 0.7], [300, 2.42]]
//
// Each row is written as in a function's table: key (the arguments,
// an array argument nested or flattened, then the result).

// LoadTables reads the tables file path and adds its rows to the tables
// of m's functions. A row equal to a known one is dropped; a row that
// gives known inputs another result is an error. Errors are an
// ErrorList of FILE:LINE:COL messages; on error m may have been
// extended with the rows read before it.
func LoadTables(path string, m *spec.Model) error {
	data, err := ReadModelFile(path)
	if err != nil {
		return err
	}
	errs := parseTables(path, data, m)
	return errs.Err()
}

func parseTables(filename string, data []byte, m *spec.Model) (errs expr.ErrorList) {
	l := &loader{file: filename}
	defer func() {
		if e := internalError(filename, "the tables", recover()); e != nil {
			errs = expr.ErrorList{e.(*expr.Error)}
		}
	}()
	root := l.document(data)
	if root == nil {
		return l.errs
	}
	if len(root.Content) < 2 || root.Content[0].Value != "kind" || root.Content[1].Value != "tables" {
		l.errorf(root, "the first key of a tables file must be kind: tables")
		return l.errs
	}
	for _, kv := range l.mapping(root, "tables", []string{"kind", "functions"}) {
		if kv[0].Value != "functions" {
			continue
		}
		for _, fv := range l.mapping(kv[1], "functions", nil) {
			f := m.Func(fv[0].Value)
			switch {
			case f == nil:
				l.errorf(fv[0], "function %s is not declared by %s", fv[0].Value, m.Name)
				continue
			case !f.IsExternal():
				l.errorf(fv[0], "function %s is defined in the model: only external functions have tables", f.Name)
				continue
			}
			for _, rn := range l.sequence(fv[1], "table of "+f.Name) {
				l.addRow(f, rn)
			}
		}
	}
	return l.errs
}

// tablesFile reads the spec key tables: FILE, relative to the spec.
func (l *loader) tablesFile(m *spec.Model, n *yaml.Node) {
	s, ok := l.scalar(n, "tables")
	if !ok {
		return
	}
	m.Tables = s
	path := s
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(l.file), path)
	}
	data, err := ReadModelFile(path)
	if err != nil {
		l.errorf(n, "cannot read the tables file: %v", err)
		return
	}
	m.TablesPath = path
	l.errs = append(l.errs, parseTables(path, data, m)...)
}

// MarshalTables writes the tables of m's external functions as a
// tables file (the functions without rows are left out).
func MarshalTables(m *spec.Model) ([]byte, error) {
	fs := block()
	for _, f := range m.Funcs {
		if f.IsExternal() && len(f.Table) > 0 {
			fs.Content = append(fs.Content, str(f.Name), tableNode(f, f.Table))
		}
	}
	root := block()
	root.Content = append(root.Content, str("kind"), str("tables"), str("functions"), fs)
	var buf bytes.Buffer
	if err := encode(&buf, root); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func encode(w io.Writer, root *yaml.Node) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return err
	}
	return enc.Close()
}

// tableNode writes rows as a block list of flow rows, array arguments
// nested: [[123, 96], 228].
func tableNode(f *expr.Func, rows []expr.TableRow) *yaml.Node {
	t := &yaml.Node{Kind: yaml.SequenceNode}
	for _, r := range rows {
		rn := flowSeq()
		k := 0
		for _, size := range f.DeclaredLens() {
			if size == 0 {
				if k < len(r.Args) {
					rn.Content = append(rn.Content, valueNode(r.Args[k]))
				}
				k++
				continue
			}
			a := flowSeq()
			for i := 0; i < size && k < len(r.Args); i++ {
				a.Content = append(a.Content, valueNode(r.Args[k]))
				k++
			}
			rn.Content = append(rn.Content, a)
		}
		rn.Content = append(rn.Content, valueNode(r.Result))
		t.Content = append(t.Content, rn)
	}
	return t
}

// valueNode writes a value as a plain scalar: 228, 0.97, "7/3", true, ok.
func valueNode(v expr.Value) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: v.String()}
	if v.T.Kind == expr.Real && !v.Rat.IsInt() {
		if _, quotient := expr.RatText(v.Rat); quotient {
			n.Style = yaml.DoubleQuotedStyle
		}
	}
	return n
}
