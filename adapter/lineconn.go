package adapter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// A stream is one direction of a connection to a SUT whose reads or
// writes can be given a deadline and which exposes its file descriptor
// for a read that does not wait: *os.File (from os.Pipe) and
// *net.TCPConn.
type stream interface {
	io.ReadWriter
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
	SyscallConn() (syscall.RawConn, error)
}

// longAgo is a deadline in the past: it interrupts a blocked read or write.
var longAgo = time.Unix(1, 0)

// readChunk is how much one read asks for.
const readChunk = 64 << 10

// lineConn speaks the JSON Lines protocol of docs/reference.md#wire-protocol over a pair of
// streams, without goroutines: Receive reads synchronously with a read
// deadline and, once the wait is over, reads once more without waiting,
// so that a line the SUT has written is never mistaken for silence. Send
// writes with no deadline but ctx's: a SUT that stops reading blocks it
// until ctx ends.
type lineConn struct {
	r, w stream

	buf  []byte    // bytes read and not yet consumed: buf[off:]
	off  int       // start of the unconsumed bytes
	scan int       // buf[off:scan] holds no newline
	at   time.Time // when the bytes holding buf's complete lines were read
	skip bool      // discarding the rest of a line that was too long

	raw syscall.RawConn // r's, for the reads that do not wait; nil until the first

	start time.Time
	heard atomic.Bool

	// ended is called, once the SUT's output has ended with err (io.EOF
	// or a transport error), by every Receive from then on: it returns
	// the error to report, or nil while the SUT is alive and quiescent,
	// having waited at most wait.
	ended func(ctx context.Context, wait time.Duration, err error) error
	// sendFailed explains a write error: an error wrapping
	// ErrSUTUnavailable.
	sendFailed func(ctx context.Context, in Input, err error) error
	endErr     error // what ended the output, nil while it goes on
}

func newLineConn(r, w stream, start time.Time) *lineConn {
	return &lineConn{r: r, w: w, start: start}
}

// Started implements Timed.
func (l *lineConn) Started() (time.Time, bool) { return l.start, l.heard.Load() }

// Receive implements Adapter: it returns nil only when, the wait over, a
// read that does not wait found no complete line.
func (l *lineConn) Receive(ctx context.Context, wait time.Duration) (*Output, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	// ctx's end interrupts a read that waits (readBy); the reads that do
	// not wait need no hook, so that Receive(ctx, 0) registers none.
	var stop func() bool
	defer func() {
		if stop != nil {
			stop()
		}
	}()
	for {
		if out, ok, err := l.next(); ok {
			return out, err
		}
		if done, err := l.fill(ctx, deadline, &stop); done {
			return nil, err
		}
	}
}

// fill is one step of the read loops of Receive and readLine, when the
// buffer holds no complete line: it reads into the buffer, waiting until
// deadline at most (registering on *stop, once, ctx's AfterFunc that
// interrupts the wait), or, the wait over, without waiting. done reports
// that the loop ends with err: the output ended, ctx ended, or silence
// (nil).
func (l *lineConn) fill(ctx context.Context, deadline time.Time, stop *func() bool) (done bool, err error) {
	if l.endErr != nil {
		return true, l.ended(ctx, time.Until(deadline), l.endErr)
	}
	if err := ctx.Err(); err != nil {
		return true, err
	}
	waiting := time.Now().Before(deadline)
	var n int
	if waiting {
		if *stop == nil {
			*stop = context.AfterFunc(ctx, func() { l.r.SetReadDeadline(longAgo) })
		}
		n, err = l.readBy(ctx, deadline)
	} else {
		n, err = l.readNow()
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The wait is over (or ctx ended, checked above): the loop
		// reads once more, without waiting.
	case err != nil:
		l.endErr = err
	case n == 0 && !waiting:
		return true, nil // nothing was there: silence
	}
	return false, nil
}

// readBy reads into the buffer, waiting until deadline at most.
func (l *lineConn) readBy(ctx context.Context, deadline time.Time) (int, error) {
	if err := l.r.SetReadDeadline(deadline); err != nil {
		return 0, err
	}
	if ctx.Err() != nil {
		// ctx ended before the deadline was set: its AfterFunc's past
		// deadline may have been overwritten.
		return 0, os.ErrDeadlineExceeded
	}
	l.grow()
	n, err := l.r.Read(l.buf[len(l.buf):cap(l.buf)])
	l.took(n)
	return n, err
}

// readNow reads into the buffer what the stream already holds, without
// waiting: 0 bytes and no error when it holds nothing.
func (l *lineConn) readNow() (int, error) {
	if l.raw == nil {
		raw, err := l.r.SyscallConn()
		if err != nil {
			return 0, err
		}
		l.raw = raw
	}
	l.grow()
	n, err := readNow(l.r, l.raw, l.buf[len(l.buf):cap(l.buf)])
	l.took(n)
	return n, err
}

// readNow reads what f already holds into p with one read system call
// on raw, f's raw connection, that does not wait: 0 bytes and no error
// when it holds nothing, io.EOF at its end. It clears f's read deadline.
func readNow(f interface{ SetReadDeadline(time.Time) error }, raw syscall.RawConn, p []byte) (int, error) {
	if err := f.SetReadDeadline(time.Time{}); err != nil {
		return 0, err
	}
	var n int
	var rerr error
	err := raw.Read(func(fd uintptr) bool {
		for {
			n, rerr = syscall.Read(int(fd), p)
			if rerr != syscall.EINTR {
				return true // whatever the result: never wait
			}
		}
	})
	switch {
	case err != nil:
		return 0, err
	case rerr == syscall.EAGAIN:
		return 0, nil
	case rerr != nil:
		return 0, os.NewSyscallError("read", rerr)
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// grow makes room for a chunk at the end of the buffer, dropping the
// consumed bytes.
func (l *lineConn) grow() {
	if l.off > 0 {
		n := copy(l.buf, l.buf[l.off:])
		l.buf = l.buf[:n]
		l.scan -= l.off
		l.off = 0
	}
	if cap(l.buf)-len(l.buf) < readChunk {
		b := make([]byte, len(l.buf), 2*cap(l.buf)+readChunk)
		copy(b, l.buf)
		l.buf = b
	}
}

// took records n bytes just read into the buffer.
func (l *lineConn) took(n int) {
	if n > 0 {
		l.buf = l.buf[:len(l.buf)+n]
		l.at = time.Now()
	}
}

// next takes the next message out of the buffer; ok is false when the
// buffer holds no complete line. Blank lines are skipped and a readiness
// line is consumed. A line longer than maxLine is reported once, as an
// *OutputError, and then discarded up to its newline.
func (l *lineConn) next() (out *Output, ok bool, err error) {
	for {
		line, ok := l.cut()
		switch {
		case !ok && l.skip:
			l.off = len(l.buf) // the rest of a long line: drop it
			return nil, false, nil
		case !ok && len(l.buf)-l.off > maxLine:
			l.skip = true
			l.off = len(l.buf)
			l.heard.Store(true)
			return nil, true, &OutputError{Line: "(a line longer than 1 MiB)", Msg: "output line too long"}
		case !ok:
			return nil, false, nil
		case l.skip:
			l.skip = false // the end of a long line
			continue
		case len(bytes.TrimSpace(line)) == 0:
			continue
		}
		l.heard.Store(true)
		out, ready, err := decodeLine(line)
		if ready {
			continue
		}
		if out != nil {
			out.At = l.at
		}
		return out, true, err
	}
}

// cut takes the next complete line out of the buffer, without its
// newline; once the output has ended, its last bytes count as a line.
func (l *lineConn) cut() ([]byte, bool) {
	if i := bytes.IndexByte(l.buf[l.scan:], '\n'); i >= 0 {
		line := l.buf[l.off : l.scan+i]
		l.off = l.scan + i + 1
		l.scan = l.off
		return line, true
	}
	l.scan = len(l.buf)
	if l.endErr != nil && l.off < len(l.buf) {
		line := l.buf[l.off:]
		l.off = len(l.buf)
		return line, true
	}
	return nil, false
}

// Send implements Adapter.
func (l *lineConn) Send(ctx context.Context, in Input) error {
	if l.endErr != nil {
		// The SUT's output has ended: it has very likely gone.
		if err := l.ended(ctx, 0, l.endErr); err != nil {
			return fmt.Errorf("cannot send %s: %w", in.Action, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { l.w.SetWriteDeadline(longAgo) })
	defer stop()
	msg := encodeInput(in)
	for len(msg) > 0 {
		if err := l.w.SetWriteDeadline(time.Time{}); err != nil {
			return l.sendFailed(ctx, in, err)
		}
		if err := ctx.Err(); err != nil {
			// A write was blocked, or cut short.
			return fmt.Errorf("sending %s: the SUT does not read its input: %w", in.Action, err)
		}
		n, err := l.w.Write(msg)
		msg = msg[n:]
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			// ctx ended (checked above), or an earlier call's AfterFunc
			// struck late: write the rest.
		case err != nil:
			return l.sendFailed(ctx, in, err)
		}
	}
	return nil
}
