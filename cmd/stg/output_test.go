package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputDashIsStdout: -o - writes to stdout, as Unix tools read it,
// and leaves no file named "-".
func TestOutputDashIsStdout(t *testing.T) {
	ex, err := filepath.Abs(filepath.Join("..", "..", "examples", "cmp"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for _, args := range [][]string{
		{"generate", filepath.Join(ex, "spec.yaml"), filepath.Join(ex, "purpose.yaml"), "-o", "-"},
		{"dot", filepath.Join(ex, "spec.yaml"), "--output", "-"},
	} {
		code, out, errOut := stgCmd(t, args...)
		if code != exitPass || !strings.Contains(out, "cmp") {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error(`a file named "-" was written`)
	}
}
