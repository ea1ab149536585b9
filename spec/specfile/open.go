package specfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// File is a file of stg as Open read it: its kind and what it holds.
// Exactly one of Model, SymPurpose, System and Trace is set, by Kind,
// but for a purpose and a tables file, which are read with a model
// (File.Purpose, File.AddTables).
type File struct {
	Path       string
	Kind       spec.ModelKind
	Model      *spec.Model      // a spec or a test case
	SymPurpose *spec.SymPurpose // a symbolic purpose
	System     *spec.System     // a system, its components loaded
	Trace      []TraceEvent
	data       []byte // the text of a purpose or a tables file
}

// Open reads the file path once and says what it is: a trace (JSON
// Lines: a .jsonl file, or one whose first non-blank line opens a JSON
// object without a kind key; read by ReadTrace, without the model size
// bound), or a YAML file of the
// kind its first key states (spec, purpose, testcase, sympurpose,
// system or tables), read through ReadModelFile and parsed by its kind's
// parser. A file that cannot be read gives ReadModelFile's or os.Open's
// *os.PathError and a nil File. A file whose kind is known but whose
// content is wrong gives the File, with its Kind and Path only, and the
// parser's error (an ErrorList of FILE:LINE:COL messages).
func Open(path string) (*File, error) {
	trace, err := sniffTrace(path)
	if err != nil {
		return nil, err
	}
	if trace {
		return openTrace(path)
	}
	data, err := ReadModelFile(path)
	if err != nil {
		return nil, err
	}
	return openModelFile(path, data)
}

// openModelFile reads data, the text of the YAML file path, by the kind
// its first key states.
func openModelFile(path string, data []byte) (*File, error) {
	f := &File{Path: path}
	l := &loader{file: path}
	root := l.document(data) // parsed once: a large spec's YAML is most of its reading
	if root != nil && isTablesRoot(root) {
		f.Kind, f.data = spec.TablesKind, data
		return f, nil
	}
	if root == nil {
		return nil, l.errs.Err()
	}
	kind, ok := l.kind(root)
	if !ok {
		return nil, l.errs.Err()
	}
	f.Kind = kind
	var err error
	switch kind {
	case spec.PurposeKind:
		f.data = data
	case spec.SymPurposeKind:
		f.SymPurpose, err = ParseSymPurpose(path, data)
	case spec.SystemKind:
		f.System, err = ParseSystem(path, data)
	default:
		f.Model, err = l.parseModel(root, kind, nil)
	}
	if err != nil {
		return &File{Path: path, Kind: kind}, err
	}
	return f, nil
}

// Purpose reads the purpose file f with its spec sp (ParseModel).
func (f *File) Purpose(sp *spec.Model) (*spec.Model, error) {
	if f.Kind != spec.PurposeKind {
		return nil, &expr.Error{Pos: expr.Pos{File: f.Path}, Msg: "a " + f.Kind.String() + ", not a purpose"}
	}
	return ParseModel(f.Path, f.data, sp)
}

// AddTables adds the rows of the tables file f to the tables of m's
// functions, as LoadTables does.
func (f *File) AddTables(m *spec.Model) error {
	if f.Kind != spec.TablesKind {
		return &expr.Error{Pos: expr.Pos{File: f.Path}, Msg: "a " + f.Kind.String() + ", not a tables file"}
	}
	return parseTables(f.Path, f.data, m).Err()
}

// isTablesRoot reports whether the top-level mapping root states kind:
// tables on its first key.
func isTablesRoot(root *yaml.Node) bool {
	return len(root.Content) >= 2 && root.Content[0].Value == "kind" && root.Content[1].Value == "tables"
}

// sniffTrace reports whether the file path is a trace: a .jsonl file,
// or one whose first non-blank line is a JSON object (or the start of
// one) without a kind key (a model written as JSON has one).
func sniffTrace(path string) (bool, error) {
	if filepath.Ext(path) == ".jsonl" {
		return true, nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false, nil // ReadModelFile says what is wrong
	}
	br := bufio.NewReader(io.LimitReader(fh, MaxTraceLine))
	for {
		line, err := br.ReadBytes('\n')
		if t := bytes.TrimSpace(line); len(t) > 0 {
			return isTraceLine(t), nil
		}
		if err != nil {
			return false, nil
		}
	}
}

// isTraceLine reports whether line, not blank, is a JSON object without
// a kind key, or a broken line of a trace: it opens an object and does
// not mention kind.
func isTraceLine(line []byte) bool {
	if line[0] != '{' {
		return false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil {
		return !bytes.Contains(line, []byte("kind"))
	}
	_, kind := obj["kind"]
	return !kind
}

// openTrace reads the trace file path.
func openTrace(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	events, err := ReadTrace(path, fh)
	if err != nil {
		return &File{Path: path, Kind: spec.TraceKind}, err
	}
	return &File{Path: path, Kind: spec.TraceKind, Trace: events}, nil
}
