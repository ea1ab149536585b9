package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSeveralFiles plays two test files before "--" (before, the
// second was taken for the SUT's command): each is a campaign of its
// own, the JUnit report holds a suite per file, --report-json a file per
// test in its directory, and the exit is the worst verdict.
func TestRunSeveralFiles(t *testing.T) {
	correct := buildExampleSUT(t, "correct")
	mutant := buildExampleSUT(t, "mutant-wrong-diff")
	dir := t.TempDir()
	data, err := os.ReadFile(runTestcaseFile)
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.tc.yaml")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	jsonDir, report := filepath.Join(dir, "json"), filepath.Join(dir, "all.xml")
	if err := os.Mkdir(jsonDir, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := stgCmd(t, "run", a, b, "--runs", "2", "--seed", "3", "--quiescence", "100ms",
		"--report", report, "--report-json", jsonDir, "--", correct)
	if code != exitPass {
		t.Fatalf("correct SUT: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"2 of 2 test files played", "Pass     " + a, "Pass     " + b, "overall: Pass (2 Pass)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "seeds 3..4"); n != 2 {
		t.Errorf("%d campaigns from seed 3, want 2:\n%s", n, out)
	}
	xml, err := os.ReadFile(report)
	if err != nil || strings.Count(string(xml), "<testsuite ") != 2 {
		t.Errorf("JUnit report: %v\n%s", err, xml)
	}
	for _, name := range []string{"a.json", "b.json"} {
		var rep struct{ Runs int }
		data, err := os.ReadFile(filepath.Join(jsonDir, name))
		if err == nil {
			err = json.Unmarshal(data, &rep)
		}
		if err != nil || rep.Runs != 2 {
			t.Errorf("%s: %v, %d runs", name, err, rep.Runs)
		}
	}
	code, out, _ = stgCmd(t, "run", a, b, "--seed", "3", "-q", "--", mutant)
	if code != exitFail || !strings.Contains(out, "overall: Fail (2 Fail)") {
		t.Errorf("mutant: exit %d\n%s", code, out)
	}
}

// TestRunSeveralFilesRefused: the options that name one output refuse
// several files, with the reason.
func TestRunSeveralFilesRefused(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--replay", "t.jsonl"}, "--replay plays the trace of one test"},
		{[]string{"--report-json", filepath.Join(dir, "r.json")}, "--report-json names an existing directory"},
		{[]string{"--save-trace", filepath.Join(dir, "t.jsonl")}, "--save-trace names an existing directory"},
	} {
		args := append([]string{"run", "x/a.yaml", "y/b.yaml"}, c.args...)
		code, _, errOut := stgCmd(t, append(args, "--", "sut")...)
		if code != exitError || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errOut, c.want)
		}
	}
	code, _, errOut := stgCmd(t, "run", "x/a.yaml", "y/a.tc.yaml", "--", "sut")
	if code != exitError || !strings.Contains(errOut, `reports of the same name "a"`) {
		t.Errorf("same names: exit %d, stderr %q", code, errOut)
	}
}
