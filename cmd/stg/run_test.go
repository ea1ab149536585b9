package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var runTestcaseFile = filepath.Join("..", "..", "runner", "testdata", "cmp.yaml")

// stgCmd runs the stg command line args and returns its exit code,
// stdout and stderr.
func stgCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"stg"}, args...), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// buildExampleSUT builds examples/cmp/sut/NAME, once for the package.
func buildExampleSUT(t *testing.T, name string) string {
	t.Helper()
	return buildProgram(t, "./examples/cmp/sut/"+name)
}

type junitReport struct {
	Suites []struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Skipped  int `xml:"skipped,attr"`
		Cases    []struct {
			Name      string    `xml:"name,attr"`
			Failure   *struct{} `xml:"failure"`
			Skipped   *struct{} `xml:"skipped"`
			SystemOut string    `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readReport(t *testing.T, path string) junitReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r junitReport
	if err := xml.Unmarshal(data, &r); err != nil {
		t.Fatalf("report: %v\n%s", err, data)
	}
	if len(r.Suites) != 1 {
		t.Fatalf("report has %d suites", len(r.Suites))
	}
	return r
}

func TestRunPassAndFail(t *testing.T) {
	correct := buildExampleSUT(t, "correct")
	mutant := buildExampleSUT(t, "mutant-wrong-diff")
	report := filepath.Join(t.TempDir(), "report.xml")

	code, out, errOut := stgCmd(t, "run", runTestcaseFile, "--runs", "3", "--seed", "10", "--quiescence", "100ms", "--report", report, "--", correct)
	if code != exitPass {
		t.Fatalf("correct SUT: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"seeds 10..12", "run 3/3, seed 12: Pass", "3 Pass, 0 Fail, 0 Inconc in 3 run(s): Pass", "send*", "ok(p=2)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	r := readReport(t, report)
	if s := r.Suites[0]; s.Tests != 3 || s.Failures != 0 || len(s.Cases) != 3 || !strings.Contains(s.Cases[0].SystemOut, "ok(p=2)") {
		t.Errorf("report: %+v", s)
	}

	code, out, _ = stgCmd(t, "run", runTestcaseFile, "--runs", "2", "--seed", "5", "-q", "--report", report, "--", mutant)
	if code != exitFail {
		t.Fatalf("mutant: exit %d\n%s", code, out)
	}
	for _, want := range []string{"Fail (reached Fail on output nok(p=-2))", "replay: stg run " + runTestcaseFile + " --seed 5 --runs 1 -- " + mutant, ": Fail\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if s := readReport(t, report).Suites[0]; s.Failures != 2 || s.Cases[0].Failure == nil {
		t.Errorf("report: %+v", s)
	}

	// Inconc: the step limit.
	code, out, _ = stgCmd(t, "run", runTestcaseFile, "--max-steps", "1", "--report", report, "--", correct)
	if code != exitInconc || !strings.Contains(out, "Inconc (step limit") {
		t.Errorf("--max-steps 1: exit %d\n%s", code, out)
	}
	if s := readReport(t, report).Suites[0]; s.Skipped != 1 || s.Cases[0].Skipped == nil {
		t.Errorf("report: %+v", s)
	}
}

func TestRunErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-sut")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run"}, "needs a TESTCASE"},
		{[]string{"run", runTestcaseFile}, "needs the SUT"},
		{[]string{"run", runTestcaseFile, "--tcp", "localhost:1", "--", "sut"}, "either --tcp or a COMMAND"},
		{[]string{"run", runTestcaseFile, "--runs", "0", "--", "sut"}, "--runs"},
		{[]string{"run", runTestcaseFile, "--bogus", "--", "sut"}, "not defined"},
		{[]string{"run", "no-such.yaml", "--", "sut"}, "cannot read"},
		{[]string{"run", filepath.Join("..", "..", "examples", "cmp", "spec.yaml"), "--", "sut"}, "not a spec"},
		{[]string{"run", runTestcaseFile, "--", missing}, "cannot start the SUT"},
		{[]string{"run", runTestcaseFile, "--after-weakpass", "observe", "--", "sut"}, "--after-weakpass applies to a sympurpose"},
		{[]string{"run", runTestcaseFile, "--after-weakpass", "stop", "--", "sut"}, "--after-weakpass applies to a sympurpose"},
		{[]string{"run", runTestcaseFile, "--after-weakpass", "wait", "--", "sut"}, `"wait" is neither stop nor observe`},
	} {
		code, out, errOut := stgCmd(t, tt.args...)
		if code != exitError || !strings.Contains(errOut+out, tt.want) {
			t.Errorf("stg %v: exit %d, stderr %q, want 3 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestRunSUTGoneIsError: a SUT that dies is an error (exit 3) with its
// status and last lines on stderr, in the text and in the JUnit report,
// whether it dies at once or after the tester has sent something; never
// a quiescence, never Fail.
func TestRunSUTGoneIsError(t *testing.T) {
	for _, script := range []string{
		"echo dying at once >&2; exit 7",
		"read line; sleep 1; echo dying slowly >&2; exit 7",
	} {
		report := filepath.Join(t.TempDir(), "report.xml")
		code, out, errOut := stgCmd(t, "run", runTestcaseFile, "--report", report, "--", "sh", "-c", script)
		if code != exitError || !strings.Contains(errOut, "exit status 7") || !strings.Contains(errOut, "dying") {
			t.Errorf("%s: exit %d\n%s\n%s", script, code, out, errOut)
		}
		data, err := os.ReadFile(report)
		if err != nil || !strings.Contains(string(data), "<system-err>dying") {
			t.Errorf("%s: the report lacks the SUT's stderr: %v\n%s", script, err, data)
		}
	}
}

// TestRunSIGTERMKillsSUT: SIGTERM to stg run (what timeout(1) and CI
// cancellation send) ends the run and kills the SUT's process group.
func TestRunSIGTERMKillsSUT(t *testing.T) {
	if testing.Short() {
		t.Skip("builds stg")
	}
	dir := t.TempDir()
	stg := stgBinary(t)
	pidFile := filepath.Join(dir, "pid")
	// The shell and its child sleep write their pids; both must die.
	cmd := exec.Command(stg, "run", runTestcaseFile, "--", "sh", "-c", "sleep 300 & echo $$ $! > "+pidFile+"; wait")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var pids []int
	for deadline := time.Now().Add(30 * time.Second); len(pids) < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the SUT never started")
		}
		pids = nil
		if b, err := os.ReadFile(pidFile); err == nil {
			for _, f := range strings.Fields(string(b)) {
				if n, err := strconv.Atoi(f); err == nil {
					pids = append(pids, n)
				}
			}
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitError {
		t.Errorf("stg run after SIGTERM: %v\n%s", err, out.String())
	}
	for _, pid := range pids {
		if !dead(pid, 10*time.Second) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("SUT process %d outlived stg", pid)
		}
	}
}

// dead reports whether process pid is gone, or a zombie (killed, not yet
// reaped by whoever inherited it), within the limit.
func dead(pid int, limit time.Duration) bool {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		// The state follows the command name in parentheses.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'Z' {
			return true
		}
	}
	return false
}

func TestRunTCP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, _, errOut := stgCmd(t, "run", runTestcaseFile, "--tcp", addr)
	if code != exitError || !strings.Contains(errOut, "cannot connect") {
		t.Errorf("closed port: exit %d, %q", code, errOut)
	}
}

// TestRunTCPReset: a server that accepts and resets the connection is an
// error with the transport's word for it, not a Fail.
func TestRunTCPReset(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.(*net.TCPConn).SetLinger(0)
			buf := make([]byte, 1)
			c.Read(buf) // wait for the first input, then reset
			c.Close()
		}
	}()
	code, out, errOut := stgCmd(t, "run", runTestcaseFile, "--tcp", ln.Addr().String())
	if code != exitError || !strings.Contains(errOut, "reset") {
		t.Errorf("reset: exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestRunHelp(t *testing.T) {
	code, out, _ := stgCmd(t, "run", "--help")
	if code != exitPass || !strings.Contains(out, "Example:") || !strings.Contains(out, "--depth") || !strings.Contains(out, "--tcp") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// TestRunRefusesToOverwriteItsInput: --report, --report-json and
// --save-trace never write over the file stg run plays (same path or
// same inode), on a test case and on a sympurpose alike.
func TestRunRefusesToOverwriteItsInput(t *testing.T) {
	dir := t.TempDir()
	tc := filepath.Join(dir, "tc.yaml")
	data, err := os.ReadFile(filepath.Join("..", "..", "runner", "testdata", "cmp.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tc, data, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Link(tc, link); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"--report", "--report-json", "--save-trace"} {
		for _, out := range []string{tc, link} {
			code, _, errOut := stg(t, "run", tc, flag, out, "--", "true")
			if code != exitError || !strings.Contains(errOut, "would be overwritten") {
				t.Errorf("%s %s: exit %d, %s", flag, out, code, errOut)
			}
			if got, _ := os.ReadFile(tc); string(got) != string(data) {
				t.Fatalf("%s %s overwrote the test case", flag, out)
			}
		}
	}
}
