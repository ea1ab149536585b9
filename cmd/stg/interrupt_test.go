package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stg-tool/stg/internal/testlong"
)

// stgBinary returns stg built as a program, once for the package.
func stgBinary(t *testing.T) string {
	t.Helper()
	return buildProgram(t, ".")
}

// cpuTime returns the user+system CPU time of process pid, in clock
// ticks, from /proc.
func cpuTime(pid int) (int, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields from 3 on
	u, err1 := strconv.Atoi(f[11])
	k, err2 := strconv.Atoi(f[12])
	return u + k, err1 == nil && err2 == nil
}

// TestSignalStopsSolver: a signal in the middle of a hard solver query
// ends stg check and stg generate with exit 3 and a message naming the
// signal, without a Go runtime crash (Z3's own SIGINT handler used to
// swallow the signal: check answered "undecided" and exited 0). The
// default run sends each signal once (SIGINT and SIGTERM to check,
// SIGHUP to generate); STG_LONG=1 also SIGINT to check again and to
// generate.
func TestSignalStopsSolver(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	bin := stgBinary(t)
	sp := filepath.Join("testdata", "hard", "spec.yaml")
	pu := filepath.Join("testdata", "hard", "purpose.yaml")
	type signalCase struct {
		args []string
		sig  syscall.Signal
		name string
	}
	cases := []signalCase{
		{[]string{"check", "--solver-timeout", "10m", sp}, syscall.SIGINT, "SIGINT"},
		{[]string{"check", "--solver-timeout", "10m", sp}, syscall.SIGTERM, "SIGTERM"},
		{[]string{"generate", "--solver-timeout", "10m", sp, pu}, syscall.SIGHUP, "SIGHUP"},
	}
	if testlong.Enabled() { // each burns half a second of CPU before its signal
		cases = append(cases,
			signalCase{[]string{"check", "--solver-timeout", "10m", sp}, syscall.SIGINT, "SIGINT"}, // twice: the handler stays Go's
			signalCase{[]string{"generate", "--solver-timeout", "10m", sp, pu}, syscall.SIGINT, "SIGINT"})
	}
	for _, tc := range cases {
		t.Run(tc.args[0]+"-"+tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// In the solver once it has burnt half a second of CPU
			// (loading takes milliseconds).
			for {
				if n, ok := cpuTime(cmd.Process.Pid); !ok || n >= 50 {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(2 * time.Minute):
				cmd.Process.Kill()
				t.Fatalf("stg %s still running 2 minutes after %s", tc.args[0], tc.name)
			}
			t.Logf("exit %v %v after the signal", err, time.Since(sent))
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitError {
				t.Fatalf("stg %s: %v, want exit 3; stderr %q", tc.args[0], err, stderr.String())
			}
			want := "stg " + tc.args[0] + ": interrupted by " + tc.name
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr %q does not say %q", stderr.String(), want)
			}
		})
	}
}
