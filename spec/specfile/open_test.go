package specfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
)

// TestOpen: Open says the kind of every kind of file and reads it once;
// a purpose and a tables file are then read with their model.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ex := filepath.Join("..", "..", "examples")
	for _, tt := range []struct {
		path string
		want spec.ModelKind
		set  func(f *File) bool // the value read
	}{
		{filepath.Join(ex, "cmp", "spec.yaml"), spec.SpecKind, func(f *File) bool { return f.Model != nil && f.Model.Name == "cmp" }},
		{filepath.Join(ex, "cmp", "purpose.yaml"), spec.PurposeKind, func(f *File) bool { return f.Model == nil && f.data != nil }},
		{write("t.yaml", baseTestcase), spec.TestcaseKind, func(f *File) bool { return f.Model != nil && f.Model.Kind == spec.TestcaseKind }},
		{filepath.Join("..", "..", "online", "testdata", "eta11.yaml"), spec.SymPurposeKind, func(f *File) bool { return f.SymPurpose != nil }},
		{filepath.Join(ex, "slot", "system.yaml"), spec.SystemKind, func(f *File) bool { return f.System != nil && len(f.System.Components) == 2 }},
		{filepath.Join(ex, "microgrid", "tables-1.yaml"), spec.TablesKind, func(f *File) bool { return f.data != nil }},
		{filepath.Join("..", "..", "online", "testdata", "example4.jsonl"), spec.TraceKind, func(f *File) bool { return len(f.Trace) > 0 }},
		{write("trace.txt", "\n"+`{"dir":"send","action":"a"}`+"\n"), spec.TraceKind, func(f *File) bool { return len(f.Trace) == 1 }},
		{write("empty.jsonl", ""), spec.TraceKind, func(f *File) bool { return f.Trace == nil }},
	} {
		f, err := Open(tt.path)
		if err != nil {
			t.Errorf("Open(%s): %v", tt.path, err)
			continue
		}
		if f.Kind != tt.want || f.Path != tt.path || !tt.set(f) {
			t.Errorf("Open(%s) = %s %+v; want a %s", tt.path, f.Kind, f, tt.want)
		}
	}
}

// TestOpenWithModel: a purpose and a tables file are read with their
// model; a File of another kind refuses.
func TestOpenWithModel(t *testing.T) {
	ex := filepath.Join("..", "..", "examples")
	sf, err := Open(filepath.Join(ex, "cmp", "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	pf, err := Open(filepath.Join(ex, "cmp", "purpose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := pf.Purpose(sf.Model); err != nil || p.Kind != spec.PurposeKind {
		t.Errorf("Purpose = %v, %v", p, err)
	}
	if _, err := sf.Purpose(sf.Model); err == nil || !strings.Contains(err.Error(), "a spec, not a purpose") {
		t.Errorf("a spec's Purpose: %v", err)
	}
	mg, err := Open(filepath.Join(ex, "microgrid", "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tf, err := Open(filepath.Join(ex, "microgrid", "tables-3.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := tf.AddTables(mg.Model); err != nil {
		t.Errorf("AddTables: %v", err)
	}
	if err := pf.AddTables(mg.Model); err == nil {
		t.Error("a purpose's AddTables succeeded")
	}
}

// TestOpenErrors: an unreadable file gives no File; a bad file of a
// known kind gives its kind and the parser's error.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if f, err := Open(filepath.Join(dir, "none.yaml")); f != nil || !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, %v", f, err)
	}
	for _, tt := range []struct {
		name, text string
		kind       spec.ModelKind
		msg        string
	}{
		{"bad.yaml", "kind: spec\nname: [\n", -1, "bad YAML"},
		{"nokind.yaml", "name: x\n", -1, "the first key of a model must be kind"},
		{"spec.yaml", "kind: spec\nname: s\nbogus: 1\n", spec.SpecKind, "bogus"},
		{"trace.jsonl", `{"dir":"sideways","action":"a"}` + "\n", spec.TraceKind, "dir must be"},
		{"json.yaml", `{"kind": "spec", "name": "j"}`, spec.SpecKind, "missing variables"},
		{"broken.txt", `{"dir":"send"` + "\n", spec.TraceKind, "trace"},
	} {
		p := filepath.Join(dir, tt.name)
		if err := os.WriteFile(p, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Open(p)
		if err == nil || (tt.msg != "trace" && !strings.Contains(err.Error(), tt.msg)) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.msg)
		}
		if tt.kind < 0 && f != nil || tt.kind >= 0 && (f == nil || f.Kind != tt.kind) {
			t.Errorf("%s: File %+v, want kind %v", tt.name, f, tt.kind)
		}
	}
}

// FuzzOpen: Open never panics, and a File it returns has a kind.
func FuzzOpen(f *testing.F) {
	for _, s := range []string{baseSpec, basePurpose, baseTestcase, "kind: tables\nfunctions: {}\n", `{"dir":"send","action":"a"}`, "{", "{kind", ""} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "f.yaml")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := Open(p)
		if file == nil && err == nil {
			t.Fatal("no File and no error")
		}
		if file != nil && (file.Kind < spec.SpecKind || file.Kind > spec.TraceKind) {
			t.Fatalf("kind %v", file.Kind)
		}
	})
}
