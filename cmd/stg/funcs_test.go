package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// microgrid builds a program of examples/microgrid/sut and writes the
// TG6 sympurpose of the microgrid spec; it returns both.
func microgrid(t *testing.T, program string) (bin, purpose string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a SUT")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("the microgrid's implementation needs python3: %v", err)
	}
	bin = buildProgram(t, "./examples/microgrid/sut/"+program)
	spec, err := filepath.Abs(filepath.Join("..", "..", "examples", "microgrid", "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	purpose = filepath.Join(t.TempDir(), "p.yaml")
	text := "kind: sympurpose\nname: mg\nspec: " + spec + "\naccept:\n  - [t1, t2, t2, t3, t4, t5]\n  - [t1, t2, t2, t3, t4, t6]\n  - [t1, t2, t2, t3, t7, t8]\n"
	if err := os.WriteFile(purpose, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return bin, purpose
}

// TestRunFuncs: stg run evaluates the external functions of the
// microgrid with the spec's commands; --impl, --tables and
// --call-timeout change how; a call that fails is exit code 3 naming
// the call, never a verdict; stg verdict replays a trace with the same
// evaluation.
func TestRunFuncs(t *testing.T) {
	bin, purpose := microgrid(t, "correct")
	code, out, errOut := stg(t, "run", purpose, "--runs", "5", "--seed", "1", "-q", "--", bin)
	if code != exitPass {
		t.Fatalf("correct controller: exit %d\n%s%s", code, out, errOut)
	}
	// Seed 1 asks RISE of a value in no row of Table 1 (RISE(212)): the
	// implementation is asked, and its failure is the run's error.
	code, out, errOut = stg(t, "run", purpose, "--seed", "1", "--impl", `RISE=sh -c "echo dying >&2; exit 3"`, "--", bin)
	if code != exitError || !strings.Contains(errOut, "RISE(") || !strings.Contains(errOut, "): implementation") ||
		!strings.Contains(errOut, "exit status 3") || !strings.Contains(errOut, "dying") {
		t.Errorf("crashing RISE: exit %d\n%s%s", code, out, errOut)
	}
	// A timeout long enough for the Python INTGR to start on a loaded
	// machine: only the hanging RISE reaches it.
	code, out, errOut = stg(t, "run", purpose, "--seed", "1", "--call-timeout", "3s", "--impl", "RISE=sleep 60", "--", bin)
	if code != exitError || !strings.Contains(errOut, "): implementation timed out after 3s") || !strings.Contains(errOut, "RISE(") {
		t.Errorf("hanging RISE: exit %d\n%s%s", code, out, errOut)
	}
	// With Table 3, seed 3 finds every RISE it needs in a row: the
	// crashing command is never run.
	tables := filepath.Join("..", "..", "examples", "microgrid", "tables-3.yaml")
	code, out, errOut = stg(t, "run", purpose, "--seed", "3", "--tables", tables, "--impl", "RISE=false", "--", bin)
	if code != exitPass {
		t.Errorf("RISE from Table 3: exit %d\n%s%s", code, out, errOut)
	}
	for _, bad := range [][]string{{"--impl", "RISE"}, {"--impl", "NOPE=cat"}, {"--call-timeout", "0s"}, {"--tables", "/nonexistent.yaml"}} {
		args := append([]string{"run", purpose}, bad...)
		code, out, errOut = stg(t, append(args, "--", bin)...)
		if code != exitError {
			t.Errorf("%v: exit %d\n%s%s", bad, code, out, errOut)
		}
	}
}

// TestRunFuncsVerdict: a mutant's Fail, saved, replays to Fail with the
// functions evaluated as stg run evaluated them.
func TestRunFuncsVerdict(t *testing.T) {
	bin, purpose := microgrid(t, "mutant-no-rise-factor")
	trace := filepath.Join(t.TempDir(), "run.jsonl")
	code, out, errOut := stg(t, "run", purpose, "--runs", "10", "--seed", "1", "-q", "--save-trace", trace, "--", bin)
	if code != exitFail {
		t.Fatalf("mutant: exit %d\n%s%s", code, out, errOut)
	}
	spec := filepath.Join("..", "..", "examples", "microgrid", "spec.yaml")
	code, out, errOut = stg(t, "verdict", spec, purpose, trace)
	if code != exitFail || !strings.Contains(out, "verdict: Fail") {
		t.Errorf("replay: exit %d\n%s%s", code, out, errOut)
	}
}
