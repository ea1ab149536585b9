package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or writes it there under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update if the change is right):\n%s", path, got)
	}
}

func TestDotGolden(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
	}{
		{"cmp-spec.dot", []string{"dot", cmpSpec}},
		{"cmp-purpose.dot", []string{"dot", "--spec", cmpSpec, cmpPurpose}},
		{"cmp-purpose.dot", []string{"dot", cmpSpec, cmpPurpose}},
		{"cmp-purpose.dot", []string{"dot", cmpPurpose, "--spec", cmpSpec, "--format", "dot"}},
		{"testcase.dot", []string{"dot", "TESTCASE"}},
		{"testcase.all-edges.dot", []string{"dot", "TESTCASE", "--all-edges"}},
		// A purpose alone is drawn with the spec of its directory.
		{"cmp-purpose.dot", []string{"dot", cmpPurpose}},
	}
	tc := writeFile(t, "tc.yaml", tcModel)
	for _, tt := range tests {
		for i, a := range tt.args {
			if a == "TESTCASE" {
				tt.args[i] = tc
			}
		}
		code, out, errOut := stg(t, tt.args...)
		if code != 0 || errOut != "" {
			t.Errorf("stg %s: exit %d, stderr %q", strings.Join(tt.args, " "), code, errOut)
			continue
		}
		golden(t, tt.golden, out)
	}
}

func TestDotOutputFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cmp.dot")
	code, stdout, errOut := stg(t, "dot", cmpSpec, "-o", out)
	if code != 0 || stdout != "" || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(data), `digraph "cmp" {`) {
		t.Errorf("%s: %v %q", out, err, data)
	}
}

func TestDotErrors(t *testing.T) {
	bad := writeFile(t, "bad.yaml", strings.Replace(ndSpec, `"p > 1"`, `"p > 1 +"`, 1))
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"purpose without spec in its directory", []string{"dot", "PURPOSE-ALONE"}, "purpose.yaml: a purpose is drawn with its spec, and its directory has none: stg dot --spec SPEC"},
		{"purpose and spec swapped", []string{"dot", cmpPurpose, cmpSpec}, "purpose.yaml is a purpose and ../../examples/cmp/spec.yaml a spec: the spec comes first: stg dot ../../examples/cmp/spec.yaml ../../examples/cmp/purpose.yaml"},
		{"spec given for a spec", []string{"dot", "--spec", cmpSpec, cmpSpec}, "this must be a purpose, not a spec"},
		{"--spec is a purpose", []string{"dot", "--spec", cmpPurpose, cmpPurpose}, "a purpose is read together with its spec"},
		{"malformed model", []string{"dot", bad}, "bad.yaml:8:42: syntax error"},
		{"missing file", []string{"dot", "nope.yaml"}, "nope.yaml: cannot read"},
		{"unknown format", []string{"dot", cmpSpec, "--format", "pdf"}, `unknown format "pdf"`},
		{"unknown flag", []string{"dot", cmpSpec, "--colour"}, "flag provided but not defined: --colour"},
		{"flag without value", []string{"dot", cmpSpec, "-o"}, "flag needs an argument: -o"},
		{"no model", []string{"dot"}, "stg dot takes one model"},
	}
	alone := writeFile(t, "purpose.yaml", cmpPurposeText(t))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i, a := range tt.args {
				if a == "PURPOSE-ALONE" {
					tt.args[i] = alone
				}
			}
			code, out, errOut := stg(t, tt.args...)
			if code != 3 || out != "" || !strings.Contains(errOut, tt.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 3 and %q", code, out, errOut, tt.stderr)
			}
		})
	}
}

func TestDotGraphviz(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		code, _, errOut := stg(t, "dot", cmpSpec, "--format", "svg")
		if code != 3 || !strings.Contains(errOut, "Graphviz's dot is not installed; use --format dot") {
			t.Errorf("without Graphviz: exit %d, %q", code, errOut)
		}
		t.Skip("Graphviz is not installed")
	}
	code, out, errOut := stg(t, "dot", cmpSpec, "--format", "svg")
	if code != 0 || !strings.Contains(out, "<svg") || !strings.Contains(out, "?in(p)") || !strings.Contains(out, "/ x := p") {
		t.Errorf("svg: exit %d, stderr %q", code, errOut)
	}
	png := filepath.Join(t.TempDir(), "p.png")
	code, _, errOut = stg(t, "dot", "--spec", cmpSpec, cmpPurpose, "--format", "png", "-o", png)
	data, _ := os.ReadFile(png)
	if code != 0 || !strings.HasPrefix(string(data), "\x89PNG") {
		t.Errorf("png: exit %d, stderr %q", code, errOut)
	}
}

func TestDotHelp(t *testing.T) {
	code, out, _ := stg(t, "dot", "--help")
	if code != 0 || !strings.Contains(out, "Example:") || !strings.Contains(out, "--format") {
		t.Errorf("exit %d, help %q", code, out)
	}
}

func cmpPurposeText(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(cmpPurpose)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
