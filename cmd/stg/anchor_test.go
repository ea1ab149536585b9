package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerateImplDir: a test case written away from its spec keeps the
// directory the spec's impl: commands run in (dir:, relative to the test
// case's directory, absolute on stdout), so that stg run evaluates the
// microgrid's functions with impl/microgrid.py wherever the file is.
func TestGenerateImplDir(t *testing.T) {
	bin, _ := microgrid(t, "correct")
	specFile, err := filepath.Abs(filepath.Join("..", "..", "examples", "microgrid", "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	purpose := filepath.Join(dir, "low.yaml")
	text := "kind: purpose\nname: low\nvariables: {}\ninitial: {location: W}\naccept: [A]\ntransitions:\n" +
		"  - {from: W, action: out, guard: \"msg == ok && p <= 200.0\", to: A}\n"
	if err := os.WriteFile(purpose, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "tc", "low.tc.yaml")
	if err := os.Mkdir(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := stg(t, "generate", specFile, purpose, "-o", out); code != exitPass {
		t.Fatalf("generate: exit %d\n%s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Dir(out), filepath.Dir(specFile))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "dir: "+rel+"\n"); n != 2 {
		t.Errorf("%d functions with dir: %s in\n%s", n, rel, data)
	}
	if code, o, errOut := stg(t, "run", out, "--runs", "3", "--seed", "1", "-q", "--", bin); code != exitPass {
		t.Errorf("run: exit %d\n%s%s", code, o, errOut)
	}
	code, stdout, errOut := stg(t, "generate", specFile, purpose)
	if code != exitPass || strings.Count(stdout, "dir: "+filepath.Dir(specFile)+"\n") != 2 {
		t.Errorf("generate to stdout: exit %d, want dir: %s\n%s%s", code, filepath.Dir(specFile), stdout, errOut)
	}
}
