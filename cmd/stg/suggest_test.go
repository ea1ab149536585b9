package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnknownCommand(t *testing.T) {
	for _, tt := range []struct{ arg, want string }{
		{"genrate", `unknown command "genrate"; did you mean stg generate?`},
		{"chekc", "did you mean stg check?"},
		{"dto", "did you mean stg dot?"},
		{"sym", "did you mean stg symex?"},
		{"xyzzy", `unknown command "xyzzy" (see stg --help)`},
	} {
		code, out, errOut := stg(t, tt.arg)
		if code != 3 || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("stg %s: exit %d, stdout %q, stderr %q; want 3 and %q", tt.arg, code, out, errOut, tt.want)
		}
	}
	if code, out, _ := stg(t); code != 0 || !strings.Contains(out, "USAGE") {
		t.Errorf("stg alone: exit %d, %q", code, out)
	}
}

func TestVersion(t *testing.T) {
	code, out, errOut := stg(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "stg version ") || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestDurationHint(t *testing.T) {
	tc := filepath.Join("..", "..", "runner", "testdata", "cmp.yaml")
	for _, flag := range []string{"--quiescence", "--confirm"} {
		code, _, errOut := stg(t, "run", tc, flag, "200", "--", "true")
		if code != 3 || !strings.Contains(errOut, "did you mean 200ms") {
			t.Errorf("stg run %s 200: exit %d, %q", flag, code, errOut)
		}
	}
}

// TestCheckOtherwiseSwallows: stg check warns about a "*" that takes
// the only way to Accept, naming it.
func TestCheckOtherwiseSwallows(t *testing.T) {
	p := writeFile(t, "sw.yaml", "kind: purpose\nname: sw\nvariables: {}\ninitial: {location: Wait}\naccept: [Accept]\ntransitions:\n  - {from: Wait, action: ok, guard: \"p == 2\", to: Accept}\n  - {from: Wait, action: \"*\", to: Sink}\n")
	code, _, errOut := stg(t, "check", cmpSpec, p)
	if code != 0 || !strings.Contains(errOut, "sw.yaml:8:5: warning: purpose sw: no Accept location can be reached: this \"*\" transition from Wait to Sink") || !strings.Contains(errOut, "?in in spec location Rx") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestRunReportAndQuiet: an unwritable --report fails before any run;
// -q prints the first failing run only, and the summary.
func TestRunReportAndQuiet(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "started")
	code, out, errOut := stg(t, "run", runTestcaseFile, "--report", filepath.Join(t.TempDir(), "no", "dir", "r.xml"), "--", "sh", "-c", "touch "+mark)
	if code != 3 || out != "" || !strings.Contains(errOut, "cannot write the report") {
		t.Errorf("unwritable report: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Error("the SUT was started before the report was found unwritable")
	}
	mutant := buildExampleSUT(t, "mutant-wrong-diff")
	code, out, _ = stg(t, "run", runTestcaseFile, "--runs", "3", "--seed", "5", "-q", "--", mutant)
	if code != exitFail || strings.Count(out, "replay: ") != 1 || strings.Count(out, "\nrun ") != 1 || !strings.Contains(out, "run 1/3, seed 5: Fail") || !strings.Contains(out, "0 Pass, 3 Fail, 0 Inconc in 3 run(s): Fail") {
		t.Errorf("-q: exit %d\n%s", code, out)
	}
}

// TestOutOfRangeIntFlag: an integer flag out of range is told its
// bounds, never "a duration needs a unit".
func TestOutOfRangeIntFlag(t *testing.T) {
	tc := filepath.Join("..", "..", "runner", "testdata", "cmp.yaml")
	for _, flag := range []string{"--runs", "--seed"} {
		code, _, errOut := stg(t, "run", tc, flag, "99999999999999999999", "--", "true")
		if code != 3 || strings.Contains(errOut, "duration") || !strings.Contains(errOut, "an integer from") {
			t.Errorf("stg run %s 99999999999999999999: exit %d, %q", flag, code, errOut)
		}
	}
}
