package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunRefusesBrokenTestcase: stg run validates its test case as stg
// check does and never starts the SUT for a broken one.
func TestRunRefusesBrokenTestcase(t *testing.T) {
	tests := []struct {
		name  string
		edits []string // old, new, old, new, ...
		want  string
	}{
		{"non-deterministic pair", []string{`"p != x"`, `"p >= x"`},
			"tc.yaml:15:5: non-deterministic: transition B -ok-> Fail and transition B -ok-> Pass (line 14)"},
		{"receive gap", []string{"  - {from: B, action: delta, to: Fail}\n", ""},
			"tc.yaml:14:5: test case location B is not complete for receive delta: no transition"},
		{"guard gap", []string{`"p != x"`, `"p > x"`},
			"tc.yaml:14:5: test case location B is not complete for receive ok: no guard holds, e.g. with p = "},
		{"verdict name", []string{"fail: [Fail]", "fail: [Fail, Oops]", "{from: A, action: ok, to: Fail}", "{from: A, action: ok, to: Oops}"},
			"tc.yaml:12:5: fail verdict location Oops must be named Fail"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tcModel
			for i := 0; i < len(tt.edits); i += 2 {
				src = strings.Replace(src, tt.edits[i], tt.edits[i+1], 1)
			}
			tc := writeFile(t, "tc.yaml", src)
			marker := filepath.Join(t.TempDir(), "started")
			code, out, errOut := stg(t, "run", tc, "--", "sh", "-c", "touch "+marker)
			if code != exitError || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr %q; want 3 and %q (stdout %q)", code, errOut, tt.want, out)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Errorf("the SUT was started")
			}
			// stg check says the same.
			if code, _, checkErr := stg(t, "check", tc); code != exitError || !strings.Contains(checkErr, tt.want) {
				t.Errorf("check: exit %d, stderr %q", code, checkErr)
			}
		})
	}
}

func TestCheckUndecided(t *testing.T) {
	hard := filepath.Join("..", "..", "check", "testdata", "hard.yaml") // Fermat, n = 3: undecided in 200ms
	code, out, errOut := stg(t, "check", hard, "--solver-timeout", "200ms")
	if code != exitPass {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(errOut, "hard.yaml:9:5: warning: the solver cannot decide whether transition A -in-> A and transition A -in-> A (line 8) both fire on in from A (solver: unknown") {
		t.Errorf("stderr %q", errOut)
	}
	if !strings.Contains(out, "deterministic as far as the solver can tell (1 check undecided, see the warnings)") {
		t.Errorf("stdout %q", out)
	}
	// generate cannot build on an undecided spec: an error, positioned.
	code, out, errOut = stg(t, "generate", hard, cmpPurposeFor(t), "--solver-timeout", "200ms")
	if code != exitError || out != "" || !strings.Contains(errOut, "hard.yaml:9:5: the solver cannot decide whether transition") {
		t.Errorf("generate: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// cmpPurposeFor returns a purpose that any spec with an input in accepts.
func cmpPurposeFor(t *testing.T) string {
	return writeFile(t, "p.yaml", "kind: purpose\nname: p\nvariables: {}\ninitial: {location: W}\naccept: [A]\ntransitions:\n  - {from: W, action: in, to: A}\n")
}
