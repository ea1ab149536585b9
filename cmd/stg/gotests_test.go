package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	bufferSpec     = filepath.Join("..", "..", "examples", "buffer", "spec.yaml")
	bufferPurposes = []string{
		filepath.Join("..", "..", "examples", "buffer", "purpose.yaml"),
		filepath.Join("..", "..", "examples", "buffer", "purpose-fifo.yaml"),
	}
)

// TestGenerateGoPackage: the package of --format go does not depend on
// the purpose; it follows -o's directory.
func TestGenerateGoPackage(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "sut.go"), []byte("package buffer\n"), 0o644)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"generate", "--format", "go", cmpSpec, cmpPurpose}, "package stgtests"},
		{[]string{"generate", "--format", "go", cmpSpec, cmpPurpose, "-o", filepath.Join(dir, "cmp_test.go")}, "package buffer_test"},
		{[]string{"generate", "--format", "go", cmpSpec, cmpPurpose, "--package", "mine"}, "package mine"},
	} {
		code, out, errOut := stg(t, tt.args...)
		if o := tt.args[len(tt.args)-1]; strings.HasSuffix(o, ".go") {
			data, _ := os.ReadFile(o)
			out = string(data)
		}
		if code != 0 || errOut != "" || !strings.Contains(out, tt.want) {
			t.Errorf("stg %s: exit %d, stderr %q, want %q", strings.Join(tt.args, " "), code, errOut, tt.want)
		}
	}
	code, _, errOut := stg(t, "generate", "--format", "go", cmpSpec, cmpPurpose, "-o", filepath.Join(dir, "cmp.go"))
	if code != 0 || !strings.Contains(errOut, "cmp.go does not end in _test.go: go test will not run it (name it e.g. "+filepath.Join(dir, "cmp_test.go")+")") {
		t.Errorf("-o cmp.go: exit %d, stderr %q", code, errOut)
	}
}

// TestGenerateSeveral: several purposes make one table-driven Go file,
// or one YAML file each in -o DIR.
func TestGenerateSeveral(t *testing.T) {
	args := append([]string{"generate", "--format", "go", bufferSpec}, bufferPurposes...)
	code, out, errOut := stg(t, args...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"package stgtests", "func TestBuffer(t *testing.T)", `{"buffer-full", ` + "`kind: testcase", `{"buffer-fifo", `, "func runBuffer("} {
		if !strings.Contains(out, want) {
			t.Errorf("%q is missing from\n%s", want, out)
		}
	}
	dir := t.TempDir()
	args = append([]string{"generate", bufferSpec, "-o", dir}, bufferPurposes...)
	if code, out, errOut := stg(t, args...); code != 0 || out != "" || errOut != "" {
		t.Fatalf("-o DIR: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, name := range []string{"buffer-full.tc.yaml", "buffer-fifo.tc.yaml"} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !strings.HasPrefix(string(data), "kind: testcase") {
			t.Errorf("%s: %v", name, err)
		}
	}
	args = append([]string{"generate", bufferSpec}, bufferPurposes...)
	if code, _, errOut := stg(t, args...); code != 3 || !strings.Contains(errOut, "several purposes are written with --format go") {
		t.Errorf("several purposes to stdout as YAML: exit %d, %q", code, errOut)
	}
	args = []string{"generate", "--format", "go", bufferSpec, bufferPurposes[0], bufferSpec}
	if code, _, errOut := stg(t, args...); code != 3 || !strings.Contains(errOut, "must be a purpose, not a spec") {
		t.Errorf("a spec among the purposes: exit %d, %q", code, errOut)
	}
}
