package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stg runs the command line args (without "stg") and returns its exit
// code, stdout and stderr.
func stg(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"stg"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// writeFile writes a model into a temporary directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	cmpSpec    = filepath.Join("..", "..", "examples", "cmp", "spec.yaml")
	cmpPurpose = filepath.Join("..", "..", "examples", "cmp", "purpose.yaml")
)

func TestCheckCmp(t *testing.T) {
	code, out, errOut := stg(t, "check", cmpSpec, cmpPurpose)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"spec cmp: 4 locations (Rx initial, Ry, Cmp, End), 5 transitions,",
		"2 variables (x: int, y: int), 4 actions (in?(p: int), ok!(p: int), nok!(p: int), end!), deterministic\n",
		"purpose cmp-reach-ok2: 3 locations (Wait initial, Accept accept, Sink), 3 transitions, 0 variables\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout %q does not contain %q", out, want)
		}
	}
	code, out, _ = stg(t, "check", cmpSpec)
	if code != 0 || strings.Contains(out, "purpose") {
		t.Errorf("check SPEC: exit %d, %q", code, out)
	}
}

// The summary shows the range of a variable as a parameter's: "x: int in [lo, hi]".
func TestCheckPrintsRanges(t *testing.T) {
	code, out, errOut := stg(t, "check", filepath.Join("..", "..", "examples", "quidonc", "spec.yaml"))
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if want := "3 variables (HandSet: Hand, TryCounter: int in [0, 2], State: Phase)"; !strings.Contains(out, want) {
		t.Errorf("stdout %q does not contain %q", out, want)
	}
}

const ndSpec = `kind: spec
name: nd
variables: {x: int}
actions:
  in: {dir: input, params: {p: int}}
initial: {location: A, condition: x == 0}
transitions:
  - {from: A, action: in, guard: "p > 1", to: A}
  - {from: A, action: in, guard: "p < 3", assign: {x: p}, to: A}
`

const tcModel = `kind: testcase
name: tc
variables: {x: int}
actions:
  in:    {dir: send, params: {p: int}}
  ok:    {dir: receive, params: {p: int}}
  delta: {dir: receive}
initial: {location: A, condition: x == 0}
verdicts: {pass: [Pass], fail: [Fail]}
transitions:
  - {from: A, action: in, guard: "p >= 3", assign: {x: p}, to: B}
  - {from: A, action: ok, to: Fail}
  - {from: A, action: delta, to: A}
  - {from: B, action: ok, guard: "p == x", to: Pass}
  - {from: B, action: ok, guard: "p != x", to: Fail}
  - {from: B, action: delta, to: Fail}
`

func TestCheckErrors(t *testing.T) {
	bad := writeFile(t, "bad.yaml", strings.Replace(ndSpec, `"p > 1"`, `"p > zz"`, 1))
	tc := writeFile(t, "tc.yaml", tcModel)
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a substring, or "" for empty
		stderr string // a substring, or "" for empty
	}{
		{"non-deterministic", []string{"check", writeFile(t, "nd.yaml", ndSpec)}, 3, "",
			"nd.yaml:9:5: non-deterministic: transition A -in-> A and transition A -in-> A (line 8) both fire on in from A, e.g. with p = 2"},
		{"undeclared name", []string{"check", bad}, 3, "", "bad.yaml:8:39: undeclared name zz"},
		{"bad purpose", []string{"check", cmpSpec, writeFile(t, "p.yaml", "kind: purpose\nname: p\nvariables: {}\ninitial: {location: W}\naccept: [A]\ntransitions:\n  - {from: W, action: ok, assign: {x: p}, to: A}\n")},
			3, "", "p.yaml:7:36: a purpose cannot assign the spec's variable x"},
		{"purpose alone", []string{"check", cmpPurpose}, 3, "", "purpose.yaml:1:1: a purpose is read together with its spec (stg check SPEC PURPOSE)"},
		{"purpose first", []string{"check", cmpPurpose, cmpSpec}, 3, "", "purpose.yaml is a purpose and ../../examples/cmp/spec.yaml a spec: the spec comes first"},
		{"spec twice", []string{"check", cmpSpec, cmpSpec}, 3, "", "must be a purpose, not a spec"},
		{"missing file", []string{"check", filepath.Join(t.TempDir(), "nope.yaml")}, 3, "", "nope.yaml: cannot read: no such file or directory"},
		{"no arguments", []string{"check"}, 3, "", "stg check takes a spec"},
		{"too many arguments", []string{"check", cmpSpec, cmpPurpose, cmpPurpose}, 3, "", "stg check takes a spec"},
		{"testcase", []string{"check", tc}, 0,
			"testcase tc: 4 locations (A initial, B, Fail fail, Pass pass), 6 transitions, 1 variable (x: int), ", ""},
		{"testcase marks", []string{"check", tc}, 0, "3 actions (in!(p: int), ok?(p: int), delta?), deterministic", ""},
		{"testcase with purpose", []string{"check", tc, cmpPurpose}, 3, "", "must be a spec, not a testcase"},
		{"non-deterministic testcase", []string{"check", writeFile(t, "tc2.yaml", strings.Replace(tcModel, `"p != x"`, `"p >= x"`, 1))}, 3, "",
			"tc2.yaml:15:5: non-deterministic: transition B -ok-> Fail and transition B -ok-> Pass (line 14)"},
		{"incomplete testcase", []string{"check", writeFile(t, "tc3.yaml", strings.Replace(tcModel, "  - {from: B, action: delta, to: Fail}\n", "", 1))}, 3, "",
			"tc3.yaml:14:5: test case location B is not complete for receive delta: no transition"},
		{"empty initial condition", []string{"check", writeFile(t, "init.yaml", strings.Replace(ndSpec, "x == 0", "x == 0 && x == 1", 1))}, 3, "",
			"init.yaml:6:35: initial condition x == 0 && x == 1 has no solution"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := stg(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errOut)
			}
			for _, c := range []struct{ got, want, what string }{{out, tt.stdout, "stdout"}, {errOut, tt.stderr, "stderr"}} {
				if c.want == "" && c.got != "" || !strings.Contains(c.got, c.want) {
					t.Errorf("%s %q, want %q", c.what, c.got, c.want)
				}
			}
		})
	}
}

func TestCheckHelp(t *testing.T) {
	code, out, _ := stg(t, "check", "--help")
	if code != 0 || !strings.Contains(out, "Example:") || !strings.Contains(out, "stg check examples/cmp/spec.yaml examples/cmp/purpose.yaml") {
		t.Errorf("exit %d, help %q", code, out)
	}
}
