package adapter

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// A reaper kills a SUT's process group when stg dies, however it dies:
// it is a small shell, in a process group of its own, that waits for
// the end of its standard input, a pipe whose only writer is stg, and
// then kills the group. The kernel closes the pipe when stg exits, even
// by SIGKILL, when no Close can run; Pdeathsig (procattr_linux.go)
// reaches the SUT process only, not the children of a SUT script. Close
// kills the reaper first, so that it never kills a group whose id has
// been reused. A SUT child that leaves the group (setsid) escapes both.
type reaper struct {
	cmd *exec.Cmd
	w   *os.File // the pipe's write end, held by stg only
}

// reaperScript waits for end of file, then kills process group $1.
const reaperScript = `read _; kill -9 -"$1"`

// startReaper starts the reaper of process group pgid; nil when it
// cannot be started (no /bin/sh): the SUT then has Pdeathsig and Close.
func startReaper(pgid int) *reaper {
	r, w, err := os.Pipe()
	if err != nil {
		return nil
	}
	cmd := exec.Command("/bin/sh", "-c", reaperScript, "stg-reaper", strconv.Itoa(pgid))
	cmd.Stdin = r
	// Its own group: a Ctrl-C at the terminal, sent to stg's group,
	// does not end it before stg has closed its SUTs.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil
	}
	return &reaper{cmd: cmd, w: w}
}

// stop ends the reaper without letting it kill anything.
func (r *reaper) stop() {
	if r == nil {
		return
	}
	r.cmd.Process.Kill()
	r.cmd.Wait()
	r.w.Close()
}
