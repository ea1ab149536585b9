//go:build linux

package adapter

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHelperSUTParent is not a test: run by TestSUTDiesWithTester as a
// child process, it starts a SUT, prints the SUT's pid and waits to be
// killed.
func TestHelperSUTParent(t *testing.T) {
	if os.Getenv("STG_TEST_SUT_PARENT") != "1" {
		t.Skip("helper process of TestSUTDiesWithTester")
	}
	// A SUT script with a child of its own, whose pid it writes to $1/child.
	script := `sleep 1000 & echo $! > "$1/child.tmp"; mv "$1/child.tmp" "$1/child"; wait`
	p, err := StartProcess([]string{"sh", "-c", script, "sh", os.Getenv("STG_TEST_DIR")}, nil)
	if err != nil {
		os.Exit(3)
	}
	os.Stdout.WriteString(strconv.Itoa(p.cmd.Process.Pid) + "\n")
	select {} // until SIGKILL
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z"
}

// TestSUTDiesWithTester: the SUT and its own children die when the
// tester is killed with SIGKILL, which leaves it no chance to run Close
// (before Pdeathsig and the reaper they ran on, reparented to init).
func TestSUTDiesWithTester(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSUTParent$")
	cmd.Env = append(os.Environ(), "STG_TEST_SUT_PARENT=1", "STG_TEST_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || !alive(pid) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper printed %q; SUT alive %v", line, err == nil && alive(pid))
	}
	waitFile(t, filepath.Join(dir, "child"))
	data, _ := os.ReadFile(filepath.Join(dir, "child"))
	child, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("child pid %q", data)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	for _, p := range []struct {
		pid  int
		what string
	}{{pid, "the SUT"}, {child, "the SUT's child"}} {
		for begin := time.Now(); alive(p.pid); time.Sleep(10 * time.Millisecond) {
			if time.Since(begin) > noHang {
				syscall.Kill(p.pid, syscall.SIGKILL)
				t.Fatalf("%s (pid %d) outlived its tester by %v", p.what, p.pid, noHang)
			}
		}
	}
}
