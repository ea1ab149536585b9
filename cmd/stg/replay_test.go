package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/report"
)

// TestRunSaveReplayShrink: a saved run replays to its verdict; a failing
// run of a mutant is saved, shrunk, and its shrunk trace replays to the
// same failure against the mutant and to Pass against the correct SUT; a
// stimulus the test case does not allow is an error at its line.
func TestRunSaveReplayShrink(t *testing.T) {
	correct := buildExampleSUT(t, "correct")
	mutant := buildExampleSUT(t, "mutant-wrong-diff")
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	timing := []string{"--quiescence", "100ms", "--startup", "0"}
	stg := func(want int, args ...string) string {
		t.Helper()
		args = append(append(args[:1:1], append([]string{runTestcaseFile}, timing...)...), args[1:]...)
		code, out, errOut := stgCmd(t, args...)
		if code != want {
			t.Fatalf("%v: exit %d, want %d\n%s\n%s", args, code, want, out, errOut)
		}
		return out + errOut
	}
	contains := func(out string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("output lacks %q:\n%s", w, out)
			}
		}
	}

	out := stg(exitPass, "run", "--seed", "1", "--save-trace", file("pass.jsonl"), "--", correct)
	contains(out, "trace saved to "+file("pass.jsonl"), "--replay "+file("pass.jsonl")+" -- "+correct)
	out = stg(exitPass, "run", "--replay", file("pass.jsonl"), "--", correct)
	contains(out, "replaying 2 stimuli", "REPRODUCED: Pass again")

	out = stg(exitFail, "run", "--seed", "5", "--runs", "3", "-q", "--save-trace", file("f.jsonl"), "--shrink", "--shrink-runs", "30", "--", mutant)
	contains(out, "trace saved to "+file("f-seed5.jsonl"), "shrinking the failing run of seed 5", "shrunk trace saved to "+file("f-shrunk.jsonl"))
	for _, f := range []string{"f-seed6.jsonl", "f-seed7.jsonl"} {
		if _, err := os.Stat(file(f)); err != nil {
			t.Errorf("failing run not saved: %v", err)
		}
	}
	out = stg(exitFail, "run", "--replay", file("f-shrunk.jsonl"), "--", mutant)
	contains(out, "REPRODUCED: the SUT fails the same way (nok(p=-2))")
	out = stg(exitPass, "run", "--replay", file("f-shrunk.jsonl"), "--", correct)
	contains(out, "NOT REPRODUCED: recorded Fail, replayed Pass")

	os.WriteFile(file("bad.jsonl"), []byte(`{"dir":"send","action":"in","args":{"p":5}}`+"\n"+`{"dir":"send","action":"in","args":{"p":1}}`+"\n"), 0o644)
	out = stg(exitError, "run", "--replay", file("bad.jsonl"), "--", correct)
	contains(out, file("bad.jsonl")+":2:1: stimulus 2, in(p=1), is not allowed by test case cmp-reach-ok2 in Ry,Wait (x=5 y=0)")
}

// TestRunCoverage: after a campaign, the coverage counts add up to the
// steps of the runs, the transitions no path reaches within the depth
// are flagged, the JUnit report carries the coverage as properties, and
// stg dot --coverage colours the test case with it.
func TestRunCoverage(t *testing.T) {
	correct := buildExampleSUT(t, "correct")
	dir := t.TempDir()
	js, xmlPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
	code, out, errOut := stgCmd(t, "run", runTestcaseFile, "--seed", "1", "--runs", "4", "--quiescence", "100ms",
		"--report-json", js, "--report", xmlPath, "--", correct)
	if code != exitPass {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"coverage: 3 of 17 transitions taken; 12 steps, 0 of them by no transition",
		"4      4     Rx,Wait -in-> Ry,Wait",
		"Cmp,Wait -ok-> Inconc", "UNREACHABLE: no path of at most 8 steps takes it (proved)",
		"Rx,Wait -delta-> Rx,Wait  quiescence       reachable in 1 steps",
		"4      4     Cmp,Wait -ok-> Pass     spec Cmp -ok->"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	rep := readJSONReport(t, js)
	c := rep.Coverage
	if c == nil {
		t.Fatal("no coverage in the JSON report")
	}
	steps, sum := 0, c.Unmatched
	for _, r := range rep.Results {
		steps += r.Steps
	}
	unreachable := 0
	for _, tr := range c.Trans {
		sum += tr.Taken
		if tr.Reach == "unreachable" {
			unreachable++
		}
	}
	if sum != steps || c.Steps != steps || c.Taken != 3 || c.Total != 17 || unreachable != 2 {
		t.Errorf("coverage: %d taken of %d, counts sum to %d, %d steps, %d unreachable; the runs took %d steps", c.Taken, c.Total, sum, c.Steps, unreachable, steps)
	}
	data, _ := os.ReadFile(xmlPath)
	var suites report.JUnitSuites
	if err := xml.Unmarshal(data, &suites); err != nil {
		t.Fatal(err)
	}
	props := map[string]string{}
	for _, p := range suites.Suites[0].Properties {
		props[p.Name] = p.Value
	}
	if props["coverage"] != "3 of 17 transitions taken, 12 steps" || props["transition 0: Rx,Wait -in-> Ry,Wait"] != "taken 4 times in 4 runs" ||
		props["transition 11: Cmp,Wait -ok-> Inconc"] != "never taken; unreachable within depth 8" {
		t.Errorf("JUnit properties: %v", props)
	}
	code, out, errOut = stgCmd(t, "dot", runTestcaseFile, "--coverage", js)
	if code != 0 || !strings.Contains(out, `×4",penwidth="4.00"`) || strings.Count(out, "(never: unreachable in ≤ 8 steps)") != 2 || !strings.Contains(out, "(never taken)") {
		t.Errorf("stg dot --coverage: exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = stgCmd(t, "dot", filepath.Join("..", "..", "runner", "testdata", "detour.yaml"), "--coverage", js)
	if code != exitError || !strings.Contains(errOut, "the report is of test case cmp-reach-ok2") {
		t.Errorf("stg dot --coverage of another test case: exit %d\n%s", code, errOut)
	}
}
