package adapter

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// An Activity is a sample of what the processes of a SUT are doing, read
// from the proc file system (proc(5)): /proc/PID/stat of every process
// of its process group, and of every thread of those with several.
type Activity struct {
	// CPU is the CPU time consumed by the group's processes so far, and
	// by their children once waited for (utime+stime+cutime+cstime, in
	// clock ticks): a shell's short-lived commands count.
	CPU int64
	// Busy reports a thread of the group that is runnable or running
	// (state R), in uninterruptible sleep (D, as in a read from disk), or
	// stopped (T, t): one that is not blocked waiting for an input, a
	// timer or a lock, so that its silence says nothing.
	Busy bool
	// Procs is the number of the group's live processes (not zombies).
	Procs int
}

// WorkedSince reports whether the SUT may have worked, or been denied the
// CPU, between the samples a (earlier) and b: a thread was busy at
// either sample, CPU time was consumed, or a process started or ended.
func (b Activity) WorkedSince(a Activity) bool {
	return a.Busy || b.Busy || a.CPU != b.CPU || a.Procs != b.Procs
}

// A procGroup reads the Activity of process group pgid under the proc
// file system mounted at root ("/proc"). Each sample lists the proc file
// system, to find the processes that joined the group since the last
// (a shell script's children: the SUT's work may be theirs), but reads
// the stat of a process outside the group only once. An error means the
// activity cannot be told (no proc file system, as outside Linux). It is
// used by one goroutine at a time.
type procGroup struct {
	root   string
	pgid   int
	others map[int]bool // processes outside the group at the last sample
}

// activity samples the group.
func (g *procGroup) activity() (Activity, error) {
	ents, err := os.ReadDir(g.root)
	if err != nil {
		return Activity{}, err
	}
	others := make(map[int]bool, len(g.others))
	var act Activity
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if g.others[pid] {
			others[pid] = true
			continue
		}
		st, err := readStat(filepath.Join(g.root, e.Name(), "stat"))
		switch {
		case err != nil || st.state == 'Z' || st.state == 'X':
			continue // gone since the listing, or a zombie
		case st.pgrp != g.pgid:
			others[pid] = true
			continue
		}
		act.Procs++
		act.CPU += st.cpu
		act.Busy = act.Busy || st.busy() || (st.threads > 1 && threadsBusy(g.root, pid))
	}
	g.others = others
	if act.Procs == 0 && !procExists(g.root) {
		return Activity{}, errors.New("no process in the proc file system")
	}
	return act, nil
}

// procExists reports whether root holds the proc file system's entry of
// the tester itself.
func procExists(root string) bool {
	_, err := os.Stat(filepath.Join(root, "self", "stat"))
	return err == nil
}

// threadsBusy reports whether a thread of process pid is busy.
func threadsBusy(root string, pid int) bool {
	dir := filepath.Join(root, strconv.Itoa(pid), "task")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if st, err := readStat(filepath.Join(dir, e.Name(), "stat")); err == nil && st.busy() {
			return true
		}
	}
	return false
}

// procStat holds the fields of a /proc/PID/stat line that Activity uses.
type procStat struct {
	state   byte
	pgrp    int
	cpu     int64 // utime + stime + cutime + cstime
	threads int
}

// busy: runnable, in uninterruptible sleep, or stopped.
func (s procStat) busy() bool {
	switch s.state {
	case 'R', 'D', 'T', 't':
		return true
	}
	return false
}

func readStat(path string) (procStat, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return procStat{}, err
	}
	return parseStat(data)
}

// parseStat reads a /proc/PID/stat line: "pid (comm) state ppid pgrp
// session tty tpgid flags minflt cminflt majflt cmajflt utime stime
// cutime cstime priority nice num_threads ...". The command name comm
// may hold blanks and parentheses: the fields start after the last ')'.
func parseStat(data []byte) (procStat, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procStat{}, fmt.Errorf("stat line without a command name: %q", data)
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 18 || len(f[0]) != 1 {
		return procStat{}, fmt.Errorf("stat line too short: %q", data)
	}
	var n [6]int64
	for k, at := range []int{2, 11, 12, 13, 14, 17} { // pgrp, utime, stime, cutime, cstime, num_threads
		v, err := strconv.ParseInt(string(f[at]), 10, 64)
		if err != nil {
			return procStat{}, fmt.Errorf("stat field %d: %v", at+3, err)
		}
		n[k] = v
	}
	return procStat{state: f[0][0], pgrp: int(n[0]), cpu: n[1] + n[2] + n[3] + n[4], threads: int(n[5])}, nil
}
