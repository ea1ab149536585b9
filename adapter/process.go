package adapter

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// lineConn speaks the JSON Lines protocol of FORMAT.md §4 over a pair of
// streams. A goroutine reads the SUT's output line by line into a channel,
// so that Receive can wait with a deadline; writes run in a goroutine of
// their own so that Send can give up when the SUT stops reading.
type lineConn struct {
	w     io.Writer
	lines chan lineResult
	done  chan struct{} // closed by close: stops the reader
	ended bool          // the SUT's output has ended
	// why is called for an explanation when the SUT cannot be written to.
	why func() string
}

type lineResult struct {
	out *Output
	err error
	end bool // no more output
}

func newLineConn(r io.Reader, w io.Writer, why func() string) *lineConn {
	l := &lineConn{w: w, lines: make(chan lineResult, 64), done: make(chan struct{}), why: why}
	go l.read(r)
	return l
}

func (l *lineConn) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	put := func(res lineResult) bool {
		select {
		case l.lines <- res:
			return true
		case <-l.done:
			return false
		}
	}
	for sc.Scan() {
		line := sc.Bytes()
		if len(trimSpace(line)) == 0 {
			continue
		}
		out, err := decodeLine(line)
		if !put(lineResult{out: out, err: err}) {
			return
		}
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		put(lineResult{err: &OutputError{Line: "(a line longer than 1 MiB)", Msg: "output line too long"}})
	}
	put(lineResult{end: true})
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func (l *lineConn) Send(ctx context.Context, in Input) error {
	msg := encodeInput(in)
	res := make(chan error, 1)
	go func() {
		_, err := l.w.Write(msg)
		res <- err
	}()
	select {
	case err := <-res:
		if err != nil {
			return unavailable("cannot send %s, the SUT's input is closed: %v%s", in.Action, err, l.why())
		}
		return nil
	case <-ctx.Done():
		// The write stays blocked until close releases the stream.
		return fmt.Errorf("sending %s: the SUT does not read its input: %w", in.Action, ctx.Err())
	}
}

func (l *lineConn) Receive(ctx context.Context, wait time.Duration) (*Output, error) {
	if l.ended {
		return nil, nil
	}
	var res lineResult
	if wait <= 0 {
		select {
		case res = <-l.lines:
		default:
			return nil, nil
		}
	} else {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case res = <-l.lines:
		case <-t.C:
			return nil, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if res.end {
		// A SUT whose output has ended is quiescent for ever.
		l.ended = true
		return nil, nil
	}
	return res.out, res.err
}

func (l *lineConn) stop() {
	select {
	case <-l.done:
	default:
		close(l.done)
	}
}

// Process is an Adapter to a SUT process speaking JSON Lines on its
// standard input and output. It runs in a process group of its own,
// which Close kills.
type Process struct {
	*lineConn
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	exited chan struct{} // closed when the process has exited
	status error         // cmd.Wait's result, once exited is closed
	once   sync.Once
}

// StartProcess starts the SUT command argv. The SUT's standard error goes
// to stderr (discarded when nil). A command that cannot be started gives
// an error wrapping ErrSUTUnavailable.
func StartProcess(argv []string, stderr io.Writer) (*Process, error) {
	if len(argv) == 0 {
		return nil, unavailable("no SUT command")
	}
	// Pipes of our own (rather than cmd.StdoutPipe): cmd.Wait closes the
	// pipes it made, and could lose the last lines of a SUT that exits.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, unavailable("%v", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, unavailable("%v", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout = inR, outW
	if stderr != nil {
		cmd.Stderr = stderr
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = time.Second // a grandchild holding stderr open cannot block Wait
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, unavailable("cannot start the SUT %s: %v", argv[0], err)
	}
	p := &Process{cmd: cmd, stdin: inW, stdout: outR, exited: make(chan struct{})}
	go func() {
		p.status = cmd.Wait()
		close(p.exited)
	}()
	p.lineConn = newLineConn(outR, inW, p.exitNote)
	return p, nil
}

// exitNote explains a failed write with the process's exit status.
func (p *Process) exitNote() string {
	select {
	case <-p.exited:
	case <-time.After(100 * time.Millisecond):
		return ""
	}
	if p.status == nil {
		return " (the SUT exited with status 0)"
	}
	return " (the SUT exited: " + p.status.Error() + ")"
}

// Close kills the SUT's process group and releases the pipes.
func (p *Process) Close() error {
	p.once.Do(func() {
		p.stdin.Close()
		// Kill the whole group: a shell script's children go too.
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		p.cmd.Process.Kill()
		select {
		case <-p.exited:
		case <-time.After(5 * time.Second):
		}
		p.stop()
		p.stdout.Close()
	})
	return nil
}

// TCP is an Adapter to a SUT listening on a TCP port, speaking the same
// JSON Lines protocol as a SUT process.
type TCP struct {
	*lineConn
	conn net.Conn
}

// DialTCP connects to the SUT at addr ("host:port", or "tcp://host:port").
func DialTCP(ctx context.Context, addr string) (*TCP, error) {
	if len(addr) > 6 && addr[:6] == "tcp://" {
		addr = addr[6:]
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, unavailable("cannot connect to the SUT at %s: %v", addr, err)
	}
	t := &TCP{conn: conn}
	t.lineConn = newLineConn(conn, conn, func() string { return "" })
	return t, nil
}

// Close closes the connection.
func (t *TCP) Close() error {
	t.stop()
	return t.conn.Close()
}
