package adapter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Compile-time checks: stream adapters are Timed.
var (
	_ Timed = (*Process)(nil)
	_ Timed = (*TCP)(nil)
)

func TestInProcessNotTimed(t *testing.T) {
	if _, ok := InProcess(SUTFunc(nil)).(Timed); ok {
		t.Error("InProcess is Timed; its quiescence is exact")
	}
}

// startSh starts sh -c script, with $D a fresh directory for signal files.
func startSh(t *testing.T, script string, stderr io.Writer) (*Process, string) {
	t.Helper()
	dir := t.TempDir()
	p, err := StartProcess([]string{"sh", "-c", script, "sh", dir}, stderr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p, dir
}

// waitFile waits until the SUT has created path: its signal that it has
// done what comes before.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for begin := time.Now(); time.Since(begin) < noHang; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s was never created", path)
}

// TestProcessWrittenIsNotSilence: the SUT writes a line, then creates a
// file; once the file exists, Receive(ctx, 0) must return the line. Many
// times over, with no timer in the assertion.
func TestProcessWrittenIsNotSilence(t *testing.T) {
	p, dir := startSh(t, `D=$1; i=0
while read line; do
	echo '{"action":"out","args":{"i":'$i'}}'
	: > "$D/$i"
	i=$((i+1))
done`, nil)
	ctx := context.Background()
	for i := range 300 {
		if err := p.Send(ctx, Input{Action: "go"}); err != nil {
			t.Fatal(err)
		}
		waitFile(t, filepath.Join(dir, fmt.Sprint(i)))
		out, err := p.Receive(ctx, 0)
		if err != nil || out == nil {
			t.Fatalf("round %d: the SUT has written its output, Receive(ctx, 0) = %v, %v", i, out, err)
		}
		if got := fmt.Sprint(out.Args["i"]); got != fmt.Sprint(i) {
			t.Fatalf("round %d: got output %s", i, got)
		}
		if out, err := p.Receive(ctx, 0); out != nil || err != nil {
			t.Fatalf("round %d: a second output %v, %v", i, out, err)
		}
	}
}

// TestProcessWrittenBeforeExitIsNotSilence: the same for fresh processes,
// whose first line comes with the start-up.
func TestProcessWrittenBeforeExitIsNotSilence(t *testing.T) {
	for i := range 20 {
		p, dir := startSh(t, `echo '{"ready":true}'; echo '{"action":"hello"}'; : > "$1/written"; exec cat >/dev/null`, nil)
		if _, heard := p.Started(); heard {
			t.Fatal("heard before reading")
		}
		waitFile(t, filepath.Join(dir, "written"))
		out, err := p.Receive(context.Background(), 0)
		if err != nil || out == nil || out.Action != "hello" {
			t.Fatalf("run %d: got %v, %v", i, out, err)
		}
		if _, heard := p.Started(); !heard {
			t.Fatal("not heard after the readiness line")
		}
		p.Close()
	}
}

// TestProcessEnds: a process that ends is an *ExitError once its
// outputs are read, whatever the wait; one that closes its output but
// runs on is quiescent.
func TestProcessEnds(t *testing.T) {
	manyLines := `i=0; while [ $i -lt 30 ]; do echo "line $i" >&2; i=$((i+1)); done; exit 1`
	var wantTail []string
	for i := 10; i < 30; i++ {
		wantTail = append(wantTail, fmt.Sprintf("line %d", i))
	}
	for _, tt := range []struct {
		name   string
		script string
		wait   time.Duration
		await  string   // receive once the process has: "exited", "closed" its output (it creates $1/closed)
		outs   []string // the outputs before the end
		what   string   // ExitError.What; "" for quiescence
		stderr []string
	}{
		{"exit status", `echo oops >&2; exit 3`, noHang, "", nil, "exit status 3", []string{"oops"}},
		{"exit 0 after outputs", `echo '{"action":"a"}'; echo '{"action":"b"}'; exit 0`, noHang, "", []string{"a", "b"}, "exit status 0", nil},
		{"killed", `echo 'about to die' >&2; kill -9 $$`, noHang, "", nil, "signal: killed", []string{"about to die"}},
		{"no wait after the exit", `echo '{"action":"a"}'; exit 7`, 0, "exited", []string{"a"}, "exit status 7", nil},
		{"stderr tail", manyLines, noHang, "", nil, "exit status 1", wantTail},
		{"partial stderr line", `printf 'no newline' >&2; exit 2`, noHang, "", nil, "exit status 2", []string{"no newline"}},
		{"output closed, still running", `exec 1>&-; : > "$1/closed"; exec sleep 60`, 0, "closed", nil, "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stderr syncBuffer
			p, dir := startSh(t, tt.script, &stderr)
			p.grace = 200 * time.Millisecond // for the process that runs on
			switch tt.await {
			case "exited":
				<-p.exited
			case "closed":
				waitFile(t, filepath.Join(dir, "closed"))
			}
			var outs []string
			for range 10 {
				out, err := p.Receive(context.Background(), tt.wait)
				var xe *ExitError
				switch {
				case errors.As(err, &xe):
					if xe.What != tt.what || !slices.Equal(xe.Stderr, tt.stderr) || !errors.Is(err, ErrSUTUnavailable) {
						t.Errorf("got %q with stderr %q, want %q with %q", xe.What, xe.Stderr, tt.what, tt.stderr)
					}
					if !slices.Equal(outs, tt.outs) {
						t.Errorf("outputs %q, want %q", outs, tt.outs)
					}
					// The SUT's stderr went through too.
					if want := strings.Join(tt.stderr, "\n"); !strings.Contains(stderr.String(), want) {
						t.Errorf("stderr passed through: %q, want it to end with %q", stderr.String(), want)
					}
					return
				case err != nil:
					t.Fatal(err)
				case out == nil && tt.what == "" && p.sawEnd:
					return // quiescent for ever
				case out == nil:
					t.Fatalf("quiescence after %q", outs)
				case out != nil:
					outs = append(outs, out.Action)
				}
			}
			t.Errorf("no end: outputs %q, want %q", outs, tt.what)
		})
	}
}

// TestProcessSendToEnded: sending to a process that closed its input is
// an error; when the process exited, it wraps the *ExitError.
func TestProcessSendToEnded(t *testing.T) {
	for _, tt := range []struct {
		name, script string
		what         string // ExitError.What, or "" when the SUT runs on
		text         string
	}{
		{"exited", `exec 0<&-; echo gone >&2; : > "$1/closed"; exit 4`, "exit status 4", "cannot send in: the SUT ended: exit status 4; its last lines on stderr:\n    gone"},
		{"input closed", `exec 0<&-; : > "$1/closed"; exec sleep 60`, "", "cannot send in, the SUT's input is closed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, dir := startSh(t, tt.script, nil)
			// The grace bounds the wait for an exit: it must outlast the
			// exit of a process that exits, however loaded the machine,
			// and only costs time for the one that runs on.
			p.grace = noHang
			if tt.what == "" {
				p.grace = 200 * time.Millisecond
			}
			waitFile(t, filepath.Join(dir, "closed"))
			err := p.Send(context.Background(), Input{Action: "in"})
			var xe *ExitError
			if !errors.Is(err, ErrSUTUnavailable) || errors.As(err, &xe) != (tt.what != "") || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("got %v, want %q", err, tt.text)
			}
			if xe != nil && xe.What != tt.what {
				t.Errorf("got %q, want %q", xe.What, tt.what)
			}
		})
	}
}

// TestTCPEnds: a connection the SUT closes or resets is an *ExitError
// after the outputs sent before.
func TestTCPEnds(t *testing.T) {
	for _, tt := range []struct {
		name  string
		reset bool
		what  string
	}{
		{"closed", false, "connection closed by the SUT"},
		{"reset", true, "connection reset by peer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			connected, done := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(done)
				c, err := ln.Accept()
				if err != nil {
					return
				}
				<-connected
				if tt.reset {
					c.(*net.TCPConn).SetLinger(0)
				} else {
					c.Write([]byte(`{"action":"bye"}` + "\n"))
				}
				c.Close()
			}()
			conn, err := DialTCP(context.Background(), "tcp://"+ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			close(connected)
			<-done
			out, err := conn.Receive(context.Background(), noHang)
			if !tt.reset {
				if out == nil || out.Action != "bye" {
					t.Fatalf("got %v, %v before the close", out, err)
				}
				out, err = conn.Receive(context.Background(), noHang)
			}
			var xe *ExitError
			if out != nil || !errors.As(err, &xe) || xe.What != tt.what {
				t.Fatalf("got %v, %v, want %q", out, err, tt.what)
			}
			err = conn.Send(context.Background(), Input{Action: "in"})
			if !errors.As(err, &xe) || !strings.Contains(err.Error(), "cannot send in") {
				t.Errorf("send after the end: %v", err)
			}
		})
	}
}

func TestDialTCPUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer cancel()
	for _, tt := range []struct {
		name string
		ctx  context.Context
	}{
		{"nobody listening", context.Background()},
		{"deadline passed", expired},
	} {
		if _, err := DialTCP(tt.ctx, addr); !errors.Is(err, ErrSUTUnavailable) || !strings.Contains(err.Error(), "cannot connect") {
			t.Errorf("%s: got %v", tt.name, err)
		}
	}
}

func TestProcessCannotStart(t *testing.T) {
	_, err := StartProcess([]string{filepath.Join(t.TempDir(), "no-such-sut")}, nil)
	if !errors.Is(err, ErrSUTUnavailable) || !strings.Contains(err.Error(), "cannot start") {
		t.Errorf("got %v", err)
	}
	if _, err := StartProcess(nil, nil); !errors.Is(err, ErrSUTUnavailable) {
		t.Errorf("no command: got %v", err)
	}
}

// TestProcessKillsGroup checks that Close kills the SUT's children too.
func TestProcessKillsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	p, err := StartProcess([]string{"sh", "-c", "sleep 60 & echo $! > " + pidFile + "; wait"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	for begin := time.Now(); pid == 0 && time.Since(begin) < noHang; time.Sleep(time.Millisecond) {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			fmt.Sscan(string(b), &pid)
		}
	}
	begin := time.Now()
	p.Close()
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
	if pid == 0 {
		t.Fatal("the child's pid was not written")
	}
	// SIGKILL takes effect when the child next runs, however late on a
	// loaded machine. A zombie is dead.
	for begin := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil || strings.Contains(string(b), ") Z") {
			break
		}
		if time.Since(begin) > noHang {
			t.Fatalf("the SUT's child %d survived Close: %s", pid, b)
		}
	}
}

func TestStderrTail(t *testing.T) {
	var tail stderrTail
	long := strings.Repeat("x", 3000)
	for _, chunk := range []string{"a\nb", "c\r\n", long + "\n", long + "\n", "d\n", "partial"} {
		tail.add([]byte(chunk))
	}
	got := append(slices.Clone(tail.lines), string(tail.part))
	want := []string{long, "d", "partial"}
	if !slices.Equal(got, want) {
		t.Errorf("got %d lines %.40q, want %.40q", len(got), got, want)
	}
	tail = stderrTail{}
	tail.add([]byte(strings.Repeat("y", 10000)))
	if len(tail.part) != tailBytes {
		t.Errorf("a partial line of %d bytes kept", len(tail.part))
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
