package adapter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"
)

// exitGrace bounds the wait for a process to exit once its standard
// output has ended or its standard input is closed: a process still alive
// after that is quiescent (it closed its output but runs on).
const exitGrace = 5 * time.Second

// Process is an Adapter to a SUT process speaking JSON Lines on its
// standard input and output. It runs in a process group of its own,
// which Close kills, and which a reaper process kills if stg dies
// without closing it (reaper.go). It is Timed.
type Process struct {
	*lineConn
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	stderr *stderrTail
	exited chan struct{} // closed when the process has exited (cmd.Wait returned)
	grace  time.Duration // exitGrace, shorter in tests
	sawEnd bool          // Receive has seen the end of the output
	gone   *ExitError    // the process's end, once known
	once   sync.Once
	reaper *reaper    // kills the group when stg dies (reaper.go), or nil
	proc   *procGroup // the activity of its process group (procstat.go)
}

// StartProcess starts the SUT command argv. The SUT's standard error goes
// to stderr (discarded when nil); its last lines are kept for ExitError.
// A command that cannot be started gives an error wrapping
// ErrSUTUnavailable.
func StartProcess(argv []string, stderr io.Writer) (*Process, error) {
	return startProcess("", argv, stderr)
}

// startProcess is StartProcess in the working directory dir ("": the
// tester's).
func startProcess(dir string, argv []string, stderr io.Writer) (*Process, error) {
	if len(argv) == 0 {
		return nil, unavailable("no SUT command")
	}
	// Pipes of our own, all *os.File: reads and writes take deadlines,
	// and cmd.Wait returns when the process exits, not when a grandchild
	// holding a pipe lets go of it.
	var ends [6]*os.File // inR, inW, outR, outW, errR, errW
	for i := 0; i < len(ends); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(ends[:i])
			return nil, unavailable("cannot make a pipe for the SUT: %v", err)
		}
		ends[i], ends[i+1] = r, w
	}
	inR, inW, outR, outW, errR, errW := ends[0], ends[1], ends[2], ends[3], ends[4], ends[5]
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.Dir = dir
	cmd.SysProcAttr = sutProcAttr() // procattr_linux.go: Pdeathsig
	err := cmd.Start()
	start := time.Now()
	closeAll([]*os.File{inR, outW, errW})
	if err != nil {
		closeAll([]*os.File{inW, outR, errR})
		return nil, unavailable("cannot start the SUT %s: %v", argv[0], err)
	}
	p := &Process{
		lineConn: newLineConn(outR, inW, start),
		cmd:      cmd,
		stdin:    inW,
		stdout:   outR,
		stderr:   newStderrTail(errR, stderr),
		exited:   make(chan struct{}),
		grace:    exitGrace,
		proc:     &procGroup{root: "/proc", pgid: cmd.Process.Pid},
	}
	p.reaper = startReaper(cmd.Process.Pid) // the group's id is the SUT's pid
	p.lineConn.ended = p.ended
	p.lineConn.sendFailed = p.sendFailed
	go func() {
		cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

func closeAll(fs []*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// ended is called by Receive once the process's output has ended: the
// process has exited (an *ExitError), or it runs on without output
// (quiescent: nil). It waits for the exit at most wait, and at least the
// grace period the first time.
func (p *Process) ended(ctx context.Context, wait time.Duration, _ error) error {
	if !p.sawEnd {
		p.sawEnd = true
		wait = max(wait, p.grace)
	}
	return p.waitExit(ctx, wait)
}

// sendFailed explains a write that failed: the process exited, or closed
// its standard input.
func (p *Process) sendFailed(ctx context.Context, in Input, err error) error {
	switch xerr := p.waitExit(ctx, p.grace); {
	case errors.Is(xerr, ErrSUTUnavailable):
		return fmt.Errorf("cannot send %s: %w", in.Action, xerr)
	case xerr != nil:
		return xerr // ctx's error
	}
	return unavailable("cannot send %s, the SUT's input is closed: %v", in.Action, err)
}

// waitExit waits at most wait for the process to exit and returns its
// *ExitError, nil when it is still running, or ctx's error.
func (p *Process) waitExit(ctx context.Context, wait time.Duration) error {
	if p.gone != nil {
		return p.gone
	}
	t := time.NewTimer(max(wait, 0))
	defer t.Stop()
	select {
	case <-p.exited:
	case <-ctx.Done():
		select {
		case <-p.exited: // an exit is worth more than ctx's end
		default:
			return ctx.Err()
		}
	case <-t.C:
		select {
		case <-p.exited: // one last look
		default:
			return nil
		}
	}
	what := "exited" // cmd.Wait failed: no status
	if ps := p.cmd.ProcessState; ps != nil {
		what = ps.String() // "exit status 1", "signal: killed"
	}
	p.gone = &ExitError{What: what, Stderr: p.stderr.finish()}
	return p.gone
}

// Activity implements Active: the activity of the SUT's process group,
// read from the proc file system (procstat.go); an error where there is
// none (outside Linux).
func (p *Process) Activity() (Activity, error) {
	return p.proc.activity()
}

// Close kills the SUT's process group and releases the pipes.
func (p *Process) Close() error {
	p.once.Do(func() {
		p.stdin.Close()
		p.reaper.stop() // before the group goes: its id may be reused
		// Kill the whole group: a shell script's children go too.
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.cmd.Process.Kill()
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
		}
		p.stderr.finish()
		p.stderr.r.Close()
		p.stdout.Close()
	})
	return nil
}

// The tail of a SUT's standard error kept for an ExitError.
const (
	tailLines = 20
	tailBytes = 4 << 10
)

// stderrTail copies a SUT's standard error to a writer and keeps its last
// lines.
type stderrTail struct {
	r     *os.File
	w     io.Writer     // nil: discard
	done  chan struct{} // closed when the copy has ended
	stop  sync.Once
	mu    sync.Mutex
	lines []string // the last complete lines, oldest first
	size  int      // their bytes
	part  []byte   // the line being written
}

func newStderrTail(r *os.File, w io.Writer) *stderrTail {
	t := &stderrTail{r: r, w: w, done: make(chan struct{})}
	go t.copy()
	return t
}

// copy runs until the pipe ends, or until finish sets a past deadline;
// then it takes what the pipe still holds, without waiting.
func (t *stderrTail) copy() {
	defer close(t.done)
	buf := make([]byte, 4096)
	for {
		n, err := t.r.Read(buf)
		t.add(buf[:n])
		if errors.Is(err, os.ErrDeadlineExceeded) {
			raw, err := t.r.SyscallConn()
			if err != nil {
				return
			}
			// Bounded: a grandchild may write for ever.
			for range 256 {
				n, err := readNow(t.r, raw, buf)
				if n == 0 || err != nil {
					break
				}
				t.add(buf[:n])
			}
			return
		}
		if err != nil {
			return
		}
	}
}

func (t *stderrTail) add(p []byte) {
	if len(p) == 0 {
		return
	}
	if t.w != nil {
		t.w.Write(p)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.part = append(t.part, p[:min(len(p), max(tailBytes-len(t.part), 0))]...)
			return
		}
		t.part = append(t.part, p[:min(i, max(tailBytes-len(t.part), 0))]...)
		t.push(string(bytes.TrimRight(t.part, "\r")))
		t.part = t.part[:0]
		p = p[i+1:]
	}
}

// push keeps line as the newest, dropping the oldest beyond the bounds.
func (t *stderrTail) push(line string) {
	t.lines = append(t.lines, line)
	t.size += len(line)
	for len(t.lines) > 1 && (len(t.lines) > tailLines || t.size > tailBytes) {
		t.size -= len(t.lines[0])
		t.lines = t.lines[1:]
	}
}

// finish ends the copy once the process has exited (everything it wrote
// is then in the pipe) and returns the tail.
func (t *stderrTail) finish() []string {
	t.stop.Do(func() { t.r.SetReadDeadline(longAgo) })
	select {
	case <-t.done:
	case <-time.After(2 * time.Second): // the writer blocks
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	tail := slices.Clone(t.lines)
	if len(t.part) > 0 {
		tail = append(tail, string(t.part))
	}
	return tail
}
