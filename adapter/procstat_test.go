package adapter

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	tail := " 0 0 0 0 0 0 0 7 5 2 1 20 0 3 0 0"
	cases := []struct {
		line string
		want procStat
		bad  bool
	}{
		{line: "12 (sh) S 1 12 12" + tail, want: procStat{state: 'S', pgrp: 12, cpu: 15, threads: 3}},
		{line: "13 (a ) (b) R 1 9 9" + tail, want: procStat{state: 'R', pgrp: 9, cpu: 15, threads: 3}},
		{line: "14 (python3) D 2 40 40" + tail + "\n", want: procStat{state: 'D', pgrp: 40, cpu: 15, threads: 3}},
		{line: "15 no name", bad: true},
		{line: "16 (x) S 1 2", bad: true},
		{line: "17 (x) S 1 x 1" + tail, bad: true},
	}
	for _, c := range cases {
		got, err := parseStat([]byte(c.line))
		if (err != nil) != c.bad || (!c.bad && got != c.want) {
			t.Errorf("parseStat(%q) = %+v, %v; want %+v (error %v)", c.line, got, err, c.want, c.bad)
		}
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("1 (init) S 0 1 1 0 -1 4194560 0 0 0 0 7 5 0 0 20 0 1 0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parseStat(data) // no panic
	})
}

// TestActivityOfSelf reads the activity of the test's own process group:
// the test is running (state R) and its CPU time grows while it burns
// CPU.
func TestActivityOfSelf(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no proc file system")
	}
	pgid := syscall.Getpgrp()
	a, err := (&procGroup{root: "/proc", pgid: pgid}).activity()
	if err != nil {
		t.Fatal(err)
	}
	if a.Procs < 1 || !a.Busy {
		t.Fatalf("the running test's group: %+v, want a busy process", a)
	}
	b := a
	for b.CPU == a.CPU { // a clock tick of CPU, however long the machine takes
		burn(20 * time.Millisecond)
		if b, err = (&procGroup{root: "/proc", pgid: pgid}).activity(); err != nil {
			t.Fatal(err)
		}
	}
	if b.CPU < a.CPU || !b.WorkedSince(a) {
		t.Errorf("CPU went from %d to %d ticks; worked %v", a.CPU, b.CPU, b.WorkedSince(a))
	}
}

// burn keeps a CPU busy for d.
func burn(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// TestActivityIdleGroup: a shell blocked in a read, and its sleeping
// child, are idle: neither busy nor consuming CPU between two samples
// taken once both are asleep.
func TestActivityIdleGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no proc file system")
	}
	p, err := StartProcess([]string{"sh", "-c", "sleep 1000 & read x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var a, b Activity
	for a.Procs < 2 || a.Busy || b.WorkedSince(a) { // until the child is started and both sleep
		a = b
		if b, err = p.Activity(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if a.Procs != 2 {
		t.Errorf("the group has %d processes, want sh and sleep", a.Procs)
	}
}

// TestActivityWithoutProc: where there is no proc file system the
// activity cannot be told.
func TestActivityWithoutProc(t *testing.T) {
	for _, root := range []string{filepath.Join(t.TempDir(), "none"), t.TempDir()} {
		if a, err := (&procGroup{root: root, pgid: os.Getpid()}).activity(); err == nil {
			t.Errorf("the activity under %s = %+v, want an error", root, a)
		}
	}
	if _, err := (&procGroup{root: "/proc", pgid: 1 << 30}).activity(); err != nil && procExists("/proc") {
		t.Errorf("a group without processes: %v, want no activity", err)
	}
}

// BenchmarkProcGroup is the cost of one sample of a SUT's activity,
// averaged over samples of the known processes and the scans of the
// whole proc file system (one in rescanEvery; it grows with the
// machine's processes).
func BenchmarkProcGroup(b *testing.B) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		b.Skip("no proc file system")
	}
	g := &procGroup{root: "/proc", pgid: syscall.Getpgrp()}
	for b.Loop() {
		if _, err := g.activity(); err != nil {
			b.Fatal(err)
		}
	}
}
