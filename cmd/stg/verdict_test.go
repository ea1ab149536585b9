package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var (
	atmPaperSpec = filepath.Join("..", "..", "examples", "atm-paper", "spec.yaml")
	eta11        = filepath.Join("..", "..", "online", "testdata", "eta11.yaml")
	example4     = filepath.Join("..", "..", "online", "testdata", "example4.jsonl")
)

// TestVerdictExample4 is SEEDS.md §1(d) item 4 on the command line:
// rules 6, 6, 5, Next of two contexts, NextPass of one, WeakPass, exit 4.
func TestVerdictExample4(t *testing.T) {
	code, out, errOut := stg(t, "verdict", atmPaperSpec, eta11, example4)
	if code != exitWeakPass {
		t.Fatalf("exit %d, want 4\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"1. stim(deposit?250): rule 6\n",
		"2. stim(amount?50): rule 6\n",
		"3. obs(cash!50): rule 5: WeakPass\n",
		"   Next(ev, SC2)     = {([deposit, ask, cash], ",
		"), ([deposit, ask, cashFee], ",
		"verdict: WeakPass (rule 5: cash!50 reaches [deposit, ask, cash], but [deposit, ask, cashFee] explain(s) the run too)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "NextPass(ev, SC2) = {([deposit, ask, cash], "); n != 1 {
		t.Errorf("NextPass of the last step is not η11 alone:\n%s", out)
	}
}

// TestVerdictExitCodes replays traces to each verdict and checks the
// exit codes, and the FILE:LINE:COL errors of bad inputs.
func TestVerdictExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	abs, err := filepath.Abs(atmPaperSpec)
	if err != nil {
		t.Fatal(err)
	}
	pass := write("pass.yaml", "kind: sympurpose\nname: p\nspec: "+abs+"\naccept:\n  - [check, sum, ask, cash]\n")
	bad := write("bad.yaml", "kind: sympurpose\nname: p\nspec: "+abs+"\naccept:\n  - [check, cash]\n")
	send := `{"dir":"send","action":"deposit","args":{"v":250}}` + "\n" + `{"dir":"send","action":"amount","args":{"v":50}}` + "\n"
	for _, tc := range []struct {
		name, purpose, trace string
		code                 int
		want                 string
	}{
		{"fail", eta11, send + `{"dir":"receive","action":"cash","args":{"v":51}}`, exitFail, "verdict: Fail (rule 2: unspecified output cash!51"},
		{"inconc", eta11, send + `{"dir":"receive","action":"screen","args":{"msg":"no_money"}}`, exitInconc, "verdict: Inconc (rule 3:"},
		{"ill-typed output", eta11, send + `{"dir":"receive","action":"cash","args":{"v":"x"}}`, exitFail, "unspecified output cash: ill-typed arguments"},
		{"pass", pass, `{"dir":"send","action":"check"}
{"dir":"receive","action":"sum","args":{"v":2000}}
{"dir":"send","action":"amount","args":{"v":50}}
{"dir":"receive","action":"cash","args":{"v":50}}`, exitPass, "verdict: Pass (rule 4:"},
		{"no verdict", eta11, send, exitInconc, "verdict: Inconc (the trace ends before a verdict)"},
		{"bad trace", eta11, `{"dir":"send","action":"deposit","args":{"v":250}}` + "\n{\"dir\":\"sideways\",\"action\":\"cash\"}", exitError, "t.jsonl:2:8: dir must be"},
		{"send not an input", eta11, `{"dir":"send","action":"cash","args":{"v":1}}`, exitError, "t.jsonl:1:1: send cash: not an input of atm-paper"},
		{"bad purpose", bad, send, exitError, "bad.yaml:5:13: transition cash leaves q1, not q2, the target of check"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace := write("t.jsonl", tc.trace+"\n")
			code, out, errOut := stg(t, "verdict", atmPaperSpec, tc.purpose, trace)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Errorf("exit %d, want %d with %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}

// TestVerdictTestcase: stg verdict TESTCASE TRACE judges a recorded
// trace by a test case, as stg run judged the run: Pass on ok(2) after
// x = 3, y = 5; Fail on a wrong difference; a stimulus the test case
// does not allow is an error at the trace's line.
func TestVerdictTestcase(t *testing.T) {
	dir := t.TempDir()
	tc := filepath.Join("..", "..", "runner", "testdata", "cmp.yaml")
	in := func(p int) string { return `{"dir":"send","action":"in","args":{"p":` + strconv.Itoa(p) + `}}` + "\n" }
	out := func(a string, p int) string {
		return `{"dir":"receive","action":"` + a + `","args":{"p":` + strconv.Itoa(p) + `}}` + "\n"
	}
	for _, tt := range []struct {
		name, trace string
		code        int
		want        string
	}{
		{"pass", in(3) + in(5) + out("ok", 2), exitPass, "verdict: Pass (reached Pass on output ok(p=2))"},
		{"fail", in(3) + in(5) + out("nok", 2), exitFail, "verdict: Fail"},
		{"refused", in(1), exitError, "trace.jsonl:1:1: stimulus 1, in(p=1), is not allowed by test case"},
	} {
		path := filepath.Join(dir, tt.name, "trace.jsonl")
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(tt.trace), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := stg(t, "verdict", tc, path)
		if code != tt.code || !strings.Contains(stdout+stderr, tt.want) {
			t.Errorf("%s: exit %d, want %d and %q\n%s%s", tt.name, code, tt.code, tt.want, stdout, stderr)
		}
	}
}

// TestVerdictAfterWeakPass: with --after-weakpass observe, the paper's
// Example 4 followed by quiescence stays WeakPass after observing it,
// followed by an output no explanation allows fails (rule 2), and ends
// Inconc when the trace ends while observing; without the flag the
// replay stops at the WeakPass and says what it left. The flag takes
// stop or observe, and observe has no meaning for a test case.
func TestVerdictAfterWeakPass(t *testing.T) {
	dir := t.TempDir()
	ex4, err := os.ReadFile(example4)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, append(append([]byte{}, ex4...), text...), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	quiet := write("quiet.jsonl", `{"dir":"receive","action":"delta"}`+"\n")
	extra := write("extra.jsonl", `{"dir":"receive","action":"cash","args":{"v":50}}`+"\n")
	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		wants []string
	}{
		{"observe quiescence", []string{quiet, "--after-weakpass", "observe"}, exitWeakPass, []string{
			"   WeakPass (cash!50 reaches [deposit, ask, cash], but [deposit, ask, cashFee] explain(s) the run too); observing on (--after-weakpass observe)\n",
			"4. obs(delta!): observing: WeakPass\n",
			"verdict: WeakPass (observing: after WeakPass on cash!50, 1 observation(s): delta! leaves both kinds of explanations"}},
		{"observe an unspecified output", []string{extra, "--after-weakpass", "observe"}, exitFail, []string{
			"verdict: Fail (rule 2: unspecified output cash!50", "after WeakPass on cash!50, 1 observation(s)"}},
		{"observe, trace ends", []string{example4, "--after-weakpass", "observe"}, exitInconc, []string{
			"verdict: Inconc (the trace ends before a verdict)"}},
		{"stop", []string{quiet}, exitWeakPass, []string{
			"verdict: WeakPass (rule 5:", "(1 event(s) after the verdict ignored; a run with --after-weakpass observe"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := stg(t, append([]string{"verdict", atmPaperSpec, eta11}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, out, errOut)
			}
			for _, w := range tc.wants {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
	tcFile := filepath.Join("..", "..", "runner", "testdata", "cmp.yaml")
	for _, args := range [][]string{
		{"verdict", atmPaperSpec, eta11, example4, "--after-weakpass", "wait"},
		{"verdict", tcFile, example4, "--after-weakpass", "observe"},
	} {
		if code, out, errOut := stg(t, args...); code != exitError || !strings.Contains(errOut, "--after-weakpass") {
			t.Errorf("%v: exit %d, want %d and a message on --after-weakpass\n%s%s", args, code, exitError, out, errOut)
		}
	}
}

// TestVerdictSpecFromSympurpose: without SPEC, stg verdict reads the spec
// the sympurpose names, as stg run does, and judges the trace the same.
func TestVerdictSpecFromSympurpose(t *testing.T) {
	code3, out3, _ := stg(t, "verdict", atmPaperSpec, eta11, example4)
	code2, out2, errOut := stg(t, "verdict", eta11, example4)
	if code2 != exitWeakPass || code2 != code3 {
		t.Fatalf("exit %d, with SPEC %d\n%s%s", code2, code3, out2, errOut)
	}
	last := func(s string) string { lines := strings.Split(strings.TrimSpace(s), "\n"); return lines[len(lines)-1] }
	if last(out2) != last(out3) {
		t.Errorf("verdict %q, with SPEC %q", last(out2), last(out3))
	}
}
