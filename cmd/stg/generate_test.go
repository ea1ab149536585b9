package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerate(t *testing.T) {
	tests := []cliCase{
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
		{"annotate", []string{"generate", "--annotate", cmpSpec, cmpPurpose}, 0,
			[]string{"  - {from: 'Cmp,Wait', action: delta, to: Fail}\nanalysis:\n  domain: polyhedra\n  locations:\n    Rx,Wait: {reach: x == 0 && y == 0, coreach: x == 0 && y == 0}\n"}, nil},
		{"annotate go", []string{"generate", "--annotate", "--format", "go", cmpSpec, cmpPurpose}, 0,
			[]string{"analysis:\n  domain: polyhedra\n"}, nil},
		{"annotate dot", []string{"generate", "--annotate", "--format", "dot", cmpSpec, cmpPurpose}, 3, nil, []string{"--annotate writes the analysis into a YAML test case"}},
		{"one file", []string{"generate", cmpSpec}, 3, nil, []string{"needs SPEC and PURPOSE"}},
		{"swapped", []string{"generate", cmpPurpose, cmpSpec}, 3, nil, []string{"purpose.yaml is a purpose and ../../examples/cmp/spec.yaml a spec: the spec comes first: stg generate ../../examples/cmp/spec.yaml ../../examples/cmp/purpose.yaml"}},
		{"bad domain", []string{"generate", "--domain", "octagons", cmpSpec, cmpPurpose}, 3, nil, []string{"unknown --domain"}},
		{"bad format", []string{"generate", "--format", "xml", cmpSpec, cmpPurpose}, 3, nil, []string{"unknown --format"}},
		{"missing file", []string{"generate", "nowhere.yaml", cmpPurpose}, 3, nil, []string{"nowhere.yaml"}},
	}
	runCases(t, tests)
}

// cliCase is a command line with its exit code and what its stdout and
// stderr must contain.
type cliCase struct {
	name     string
	args     []string
	code     int
	inStdout []string
	inStderr []string
}

// runCases runs each case as a subtest.
func runCases(t *testing.T, tests []cliCase) {
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

// TestGenerateKeepsItsInputs: -o naming an input, however spelled, is
// refused and the input is left as it was.
func TestGenerateKeepsItsInputs(t *testing.T) {
	dir := t.TempDir()
	sp, tp := filepath.Join(dir, "spec.yaml"), filepath.Join(dir, "purpose.yaml")
	for _, c := range [][2]string{{cmpSpec, sp}, {cmpPurpose, tp}} {
		data, err := os.ReadFile(c[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(c[1], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(sp, filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(tp, filepath.Join(dir, "hard.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tt := range []struct{ out, input string }{
		{"spec.yaml", "spec.yaml"},
		{"./spec.yaml", "spec.yaml"},
		{filepath.Join(dir, "purpose.yaml"), "purpose.yaml"},
		{"link.yaml", "spec.yaml"},
		{"hard.yaml", "purpose.yaml"},
	} {
		before, _ := os.ReadFile(tt.input)
		code, out, errOut := stg(t, "generate", "spec.yaml", "purpose.yaml", "-o", tt.out)
		if code != exitError || out != "" || !strings.Contains(errOut, "-o "+tt.out+" is the input file") {
			t.Errorf("-o %s: exit %d, stdout %q, stderr %q; want 3 and a refusal", tt.out, code, out, errOut)
		}
		if after, _ := os.ReadFile(tt.input); !bytes.Equal(before, after) {
			t.Errorf("-o %s changed %s", tt.out, tt.input)
		}
	}
	// Another file is fine, new or old.
	for _, out := range []string{"tc.yaml", "tc.yaml"} {
		if code, _, errOut := stg(t, "generate", "spec.yaml", "purpose.yaml", "-o", out); code != 0 {
			t.Errorf("-o %s: exit %d, %s", out, code, errOut)
		}
	}
}

// counterSpec counts inc up to 3 and outputs its counter; a purpose
// that wants out(10) has a Pass that the graph reaches and no run does.
const counterSpec = `kind: spec
name: counter
variables: {x: int}
actions:
  inc: {dir: input}
  out: {dir: output, params: {v: int}}
initial: {location: A, condition: x == 0}
transitions:
  - {from: A, action: inc, guard: "x < 3", assign: {x: x + 1}, to: A}
  - {from: A, action: out, guard: "v == x", to: A}
`

func TestGeneratePassReachableWarning(t *testing.T) {
	sp := writeFile(t, "counter.yaml", counterSpec)
	tp := writeFile(t, "ten.yaml", "kind: purpose\nname: ten\nvariables: {}\ninitial: {location: W}\naccept: [A]\ntransitions:\n  - {from: W, action: out, guard: \"v == 10\", to: A}\n")
	const warning = "warning: test case ten: no run of at most 12 steps reaches Pass"
	tests := []struct {
		name     string
		args     []string
		code     int
		warns    bool
		inStderr string
	}{
		{"none, unreachable", []string{"generate", sp, tp, "--domain", "none"}, 0, true, ""},
		{"polyhedra sees it", []string{"generate", sp, tp}, 3, false, "purpose ten: Accept is unreachable"},
		{"none, cmp", []string{"generate", cmpSpec, cmpPurpose, "--domain", "none"}, 0, false, ""},
		{"interval, cmp", []string{"generate", cmpSpec, cmpPurpose, "--domain", "interval"}, 0, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := stg(t, tt.args...)
			if code != tt.code || strings.Contains(errOut, warning) != tt.warns || !strings.Contains(errOut, tt.inStderr) {
				t.Errorf("exit %d (want %d), stderr %q (warning: %v)", code, tt.code, errOut, tt.warns)
			}
			if code == 0 && !strings.HasPrefix(out, "kind: testcase") {
				t.Errorf("stdout %q", out)
			}
		})
	}
}
