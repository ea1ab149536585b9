package extfunc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
)

// TestInferSignatures: a tables file's rows give each function a
// signature, column by column.
func TestInferSignatures(t *testing.T) {
	for _, tt := range []struct {
		rows string
		want string // expr.Func.String of each function, in order
	}{
		{"F: [[1, 2], [3, 4]]", "F(int) int"},
		{"F: [[1, 2], [3, 4.5]]", "F(int) real"},
		{"F: [[1, \"1/3\"]]", "F(int) real"},
		{"F: [[true, x]]", "F(bool) string"},
		{"F: [[[1, 2], 3]]", "F([2]int) int"},
		{"F: []\nG: [[1, 2, 3]]", "F() int; G(int, int) int"},
	} {
		fs := InferSignatures([]byte("kind: tables\nfunctions:\n  " + strings.ReplaceAll(tt.rows, "\n", "\n  ") + "\n"))
		var got []string
		for _, f := range fs {
			got = append(got, f.String())
		}
		if strings.Join(got, "; ") != tt.want {
			t.Errorf("%s: got %q, want %q", tt.rows, strings.Join(got, "; "), tt.want)
		}
	}
}

// TestCheckTables: without a spec, the rows are checked against the
// signatures they show; two rows with equal inputs and different
// results conflict.
func TestCheckTables(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		rows, err string
		n         int // rows of F
	}{
		{"F: [[1, 2], [3, 4]]", "", 2},
		{"F: [[1, 2], [1, 3]]", "conflicts", 0},
		{"F: [[1, 2], [1, 2, 3]]", "t.yaml:3:", 0},
	} {
		path := filepath.Join(dir, "t.yaml")
		if err := os.WriteFile(path, []byte("kind: tables\nfunctions:\n  "+tt.rows+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		fs, err := CheckTables(path, nil)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.rows, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.rows, err)
		case len(fs) != 1 || len(fs[0].Table) != tt.n:
			t.Errorf("%s: %v", tt.rows, fs)
		}
	}
	if _, err := CheckTables(filepath.Join(dir, "none.yaml"), nil); err == nil || !strings.Contains(err.Error(), "none.yaml: cannot read: ") {
		t.Errorf("a missing file: %v", err)
	}
}

// FuzzCheckTables: no tables file makes CheckTables panic or hang.
func FuzzCheckTables(f *testing.F) {
	for _, name := range []string{"tables-1.yaml", "tables-3.yaml"} {
		if b, err := os.ReadFile(filepath.Join("..", "examples", "microgrid", name)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("kind: tables\nfunctions:\n  F: [[[1, 2], [3]], [x, y], [], [[]], 1]\n  G: {a: 1}\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "t.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		CheckTables(path, nil)
		CheckTables(path, &spec.Model{Name: "m"})
	})
}
