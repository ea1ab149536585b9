package adapter

import (
	"context"
	"errors"
	"io"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/spec/expr"
)

// noHang bounds waits that only guard against a hang: on a loaded machine
// every one of them ends long before.
const noHang = 60 * time.Second

// pipeConn returns a lineConn reading what the returned writer writes;
// its output ends with the *ExitError "test ended".
func pipeConn(t *testing.T) (*lineConn, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	ir, iw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeAll([]*os.File{r, w, ir, iw}) })
	l := newLineConn(r, iw, time.Now())
	l.ended = func(context.Context, time.Duration, error) error { return &ExitError{What: "test ended"} }
	l.sendFailed = func(_ context.Context, in Input, err error) error {
		return unavailable("cannot send %s: %v", in.Action, err)
	}
	return l, w
}

// describe prints what Receive returned: "a", "nil", or "error: ...".
func describe(out *Output, err error) string {
	switch {
	case err != nil:
		return "error: " + err.Error()
	case out == nil:
		return "nil"
	}
	return out.Action
}

// TestReceiveWritten checks that what has been written to the pipe is
// read by Receive(ctx, 0): no timer is involved, the bytes are in the
// kernel when Receive starts.
func TestReceiveWritten(t *testing.T) {
	type step struct {
		write string // written (then, with close, the pipe is closed)
		close bool
		want  []string // the results of successive Receive(ctx, 0)
	}
	for _, tt := range []struct {
		name  string
		steps []step
	}{
		{"one line", []step{{write: `{"action":"a"}` + "\n", want: []string{"a", "nil"}}}},
		{"two lines in one write", []step{{write: `{"action":"a"}` + "\n" + `{"action":"b"}` + "\n", want: []string{"a", "b", "nil"}}}},
		{"partial line kept", []step{
			{write: `{"action":`, want: []string{"nil", "nil"}},
			{write: `"a"}` + "\n" + `{"act`, want: []string{"a", "nil"}},
			{write: `ion":"b"}` + "\n", want: []string{"b", "nil"}},
		}},
		{"blank lines and CRLF", []step{{write: "\n  \r\n" + `{"action":"a"}` + "\r\n\n", want: []string{"a", "nil"}}}},
		{"readiness consumed", []step{{write: `{"ready":true}` + "\n" + `{"action":"a"}` + "\n", want: []string{"a", "nil"}}}},
		{"readiness false", []step{{write: `{"ready":false}` + "\n", want: []string{`error: a readiness line must be exactly {"ready":true}`}}}},
		{"readiness with more", []step{{write: `{"ready":true,"action":"a"}` + "\n", want: []string{"error: a readiness line must be"}}}},
		{"garbage", []step{{write: "garbage\n" + `{"action":"a"}` + "\n", want: []string{"error: output is not a JSON object", "a"}}}},
		{"last line without newline", []step{{write: `{"action":"a"}` + "\n" + `{"action":"z"}`, close: true,
			want: []string{"a", "z", "error: the SUT ended: test ended", "error: the SUT ended: test ended"}}}},
		{"end", []step{{close: true, want: []string{"error: the SUT ended: test ended"}}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l, w := pipeConn(t)
			for i, s := range tt.steps {
				if _, err := io.WriteString(w, s.write); err != nil {
					t.Fatal(err)
				}
				if s.close {
					w.Close()
				}
				for j, want := range s.want {
					got := describe(l.Receive(context.Background(), 0))
					if !strings.HasPrefix(got, want) {
						t.Errorf("step %d, receive %d: got %s, want %s", i, j, got, want)
					}
				}
			}
		})
	}
}

// TestReceiveLongLine: a line over 1 MiB is reported once, then skipped
// up to its newline; the next line is read.
func TestReceiveLongLine(t *testing.T) {
	l, w := pipeConn(t)
	go func() {
		w.Write([]byte(strings.Repeat("a", 3*maxLine) + "\n" + `{"action":"after"}` + "\n"))
	}()
	var got []string
	for range 2 {
		got = append(got, describe(l.Receive(context.Background(), noHang)))
	}
	if len(got) != 2 || !strings.Contains(got[0], "output line too long") || got[1] != "after" {
		t.Errorf("got %q", got)
	}
	if cap(l.buf) > 4*maxLine {
		t.Errorf("the buffer grew to %d bytes", cap(l.buf))
	}
}

// TestReceiveHeardAndAt: Started reports the SUT heard once it wrote a
// readiness line; outputs carry the time they were read.
func TestReceiveHeardAndAt(t *testing.T) {
	l, w := pipeConn(t)
	if _, heard := l.Started(); heard {
		t.Error("heard before anything was written")
	}
	io.WriteString(w, `{"ready":true}`+"\n")
	if out, err := l.Receive(context.Background(), 0); out != nil || err != nil {
		t.Fatalf("readiness: %v, %v", out, err)
	}
	if _, heard := l.Started(); !heard {
		t.Error("not heard after the readiness line")
	}
	before := time.Now()
	io.WriteString(w, `{"action":"a"}`+"\n")
	out, err := l.Receive(context.Background(), 0)
	if err != nil || out == nil {
		t.Fatalf("%v, %v", out, err)
	}
	if out.At.Before(before) || out.At.After(time.Now()) {
		t.Errorf("At %v is not between the write (%v) and now", out.At, before)
	}
}

// TestReceiveWaitsForOutput: a positive wait returns the output when it
// comes, not at the end of the wait.
func TestReceiveWaitsForOutput(t *testing.T) {
	l, w := pipeConn(t)
	go func() {
		time.Sleep(10 * time.Millisecond)
		io.WriteString(w, `{"action":"late"}`+"\n")
	}()
	begin := time.Now()
	if got := describe(l.Receive(context.Background(), noHang)); got != "late" {
		t.Errorf("got %s", got)
	}
	if d := time.Since(begin); d >= noHang {
		t.Errorf("Receive took %v", d)
	}
}

// TestReceiveCancel: ctx's end interrupts a blocked Receive, and the next
// Receive still works.
func TestReceiveCancel(t *testing.T) {
	l, w := pipeConn(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(10 * time.Millisecond)
		cancel()
	}()
	if out, err := l.Receive(ctx, time.Hour); out != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, %v", out, err)
	}
	if out, err := l.Receive(ctx, 0); out != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled ctx: got %v, %v", out, err)
	}
	io.WriteString(w, `{"action":"a"}`+"\n")
	if got := describe(l.Receive(context.Background(), 0)); got != "a" {
		t.Errorf("after the cancellation: %s", got)
	}
}

// TestSendNotRead: a SUT that does not read its input blocks Send until
// ctx ends; the error is ctx's.
func TestSendNotRead(t *testing.T) {
	l, _ := pipeConn(t)
	huge := new(big.Int).Lsh(big.NewInt(1), 8*maxLine) // a 2.5 MB argument: more than a pipe holds
	in := Input{Action: "in", Args: map[string]expr.Value{"p": expr.IntValue(huge)}}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := l.Send(ctx, in)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "does not read its input") {
		t.Errorf("got %v", err)
	}
}
