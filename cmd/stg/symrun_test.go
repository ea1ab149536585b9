package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildATMPaperSUT builds examples/atm-paper/sut/NAME, once for the
// package.
func buildATMPaperSUT(t *testing.T, name string) string {
	t.Helper()
	return buildProgram(t, "./examples/atm-paper/sut/"+name)
}

// writeSymPurpose writes a sympurpose on examples/atm-paper/spec.yaml
// with the given accept paths ("a b c" each).
func writeSymPurpose(t *testing.T, accept ...string) string {
	t.Helper()
	abs, err := filepath.Abs(atmPaperSpec)
	if err != nil {
		t.Fatal(err)
	}
	s := "kind: sympurpose\nname: p\nspec: " + abs + "\naccept:\n"
	for _, a := range accept {
		s += "  - [" + strings.Join(strings.Fields(a), ", ") + "]\n"
	}
	p := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSymRunCorrect plays the reference ATM (a process, default timing
// options) under η11: never Fail; the saved trace replays to the verdict
// of the run that was saved.
func TestSymRunCorrect(t *testing.T) {
	bin := buildATMPaperSUT(t, "correct")
	trace := filepath.Join(t.TempDir(), "run.jsonl")
	report := filepath.Join(t.TempDir(), "report.xml")
	code, out, errOut := stg(t, "run", eta11, "--runs", "5", "--seed", "1", "--save-trace", trace, "--report", report, "--", bin)
	if code == exitFail || code == exitError {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, "sympurpose atm-TG2-eta11: 5 run(s), seeds 1..5, accept [[deposit, ask, cash]]") {
		t.Errorf("no header:\n%s", out)
	}
	vcode, vout, verr := stg(t, "verdict", atmPaperSpec, eta11, trace)
	if vcode != code {
		t.Errorf("run exit %d, replay of its saved trace exit %d\n%s%s\n%s", code, vcode, out, vout, verr)
	}
	if r := readReport(t, report); r.Suites[0].Tests != 5 || r.Suites[0].Failures != 0 {
		t.Errorf("report: %+v", r.Suites[0])
	}
}

// TestSymRunMutantNoFee: the ATM that forgets the fee below 1000 gets
// Fail (exit 1) under [check, sum, ask, cashFee, check, sum] when its
// balance starts at 500, with the command line that replays it; the
// reference ATM does not.
func TestSymRunMutantNoFee(t *testing.T) {
	t.Setenv("STG_ATM_M0", "500")
	purpose := writeSymPurpose(t, "check sum ask cashFee check sum")
	bin := buildATMPaperSUT(t, "mutant-no-fee")
	code, out, errOut := stg(t, "run", purpose, "--runs", "3", "--seed", "7", "-q", "--", bin)
	if code != exitFail || !strings.Contains(out, "replay: stg run "+purpose+" --seed 7 --runs 1 -- "+bin) {
		t.Errorf("mutant: exit %d, want 1 with a replay line\n%s%s", code, out, errOut)
	}
	// -q as on a test case: the first failing run only, with its replay line.
	if !strings.Contains(out, " 3 Fail, ") || strings.Count(out, "\nrun ") != 1 || strings.Count(out, "replay: ") != 1 {
		t.Errorf("-q: want 3 Fail of which the first alone printed\n%s", out)
	}
	ok := buildATMPaperSUT(t, "correct")
	if code, out, errOut := stg(t, "run", purpose, "--runs", "3", "--seed", "7", "--", ok); code != exitPass {
		t.Errorf("correct: exit %d, want 0\n%s%s", code, out, errOut)
	}
}

// TestSymRunUsage: a sympurpose whose spec cannot be read, and a
// missing SUT, are errors (exit 3).
func TestSymRunUsage(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(p, []byte("kind: sympurpose\nname: p\nspec: nowhere.yaml\naccept:\n  - [ask, cash]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := stg(t, "run", p, "--", "true"); code != exitError || !strings.Contains(errOut, "nowhere.yaml: cannot read") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := stg(t, "run", eta11); code != exitError || !strings.Contains(errOut, "needs the SUT") {
		t.Errorf("exit %d\n%s", code, errOut)
	}
}
