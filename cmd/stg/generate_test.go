package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerate(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		inStdout []string
		inStderr []string
	}{
		{"yaml", []string{"generate", cmpSpec, cmpPurpose}, 0,
			[]string{"kind: testcase", "guard: p >= 3", "to: Pass"}, nil},
		{"flags after the files", []string{"generate", cmpSpec, cmpPurpose, "--format", "dot"}, 0,
			[]string{"digraph", "Pass"}, nil},
		{"go", []string{"generate", "--format", "go", "--package", "cmp_test", cmpSpec, cmpPurpose}, 0,
			[]string{"package cmp_test", "func TestCmpReachOk2(t *testing.T)"}, nil},
		{"none", []string{"generate", "--domain", "none", cmpSpec, cmpPurpose}, 0,
			[]string{"{from: 'Rx,Wait', action: in, assign: {x: p}, to: 'Ry,Wait'}"}, nil},
		{"explain", []string{"generate", "--explain", cmpSpec, cmpPurpose}, 0,
			nil, []string{"Ry,Wait\n    reach:   ", "x >= 3", "Rx,Wait\n    reach:   x == 0 && y == 0"}},
		{"one file", []string{"generate", cmpSpec}, 3, nil, []string{"needs SPEC and PURPOSE"}},
		{"swapped", []string{"generate", cmpPurpose, cmpSpec}, 3, nil, []string{"purpose.yaml:1:1: a purpose is read together with its spec"}},
		{"bad domain", []string{"generate", "--domain", "octagons", cmpSpec, cmpPurpose}, 3, nil, []string{"unknown --domain"}},
		{"bad format", []string{"generate", "--format", "xml", cmpSpec, cmpPurpose}, 3, nil, []string{"unknown --format"}},
		{"missing file", []string{"generate", "nowhere.yaml", cmpPurpose}, 3, nil, []string{"nowhere.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := stg(t, tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.code, errOut)
			}
			for _, w := range tt.inStdout {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.inStderr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
		})
	}
}

func TestGenerateOutputFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "tc.yaml")
	if code, _, errOut := stg(t, "generate", cmpSpec, cmpPurpose, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil || !strings.HasPrefix(string(data), "kind: testcase") {
		t.Fatalf("output file: %v %q", err, data)
	}
	// What generate writes, check reads back as a deterministic testcase.
	code, stdout, errOut := stg(t, "check", out)
	if code != 0 || !strings.Contains(stdout, "deterministic") {
		t.Errorf("check of the generated test case: exit %d, %s %s", code, stdout, errOut)
	}
}

func TestGenerateUnreachable(t *testing.T) {
	p := writeFile(t, "p.yaml", `kind: purpose
name: never
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: nok, guard: "p > 5", to: A}
`)
	code, out, errOut := stg(t, "generate", cmpSpec, p)
	if code != 3 || out != "" || !strings.Contains(errOut, "purpose never: Accept is unreachable") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
