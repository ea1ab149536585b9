package adapter

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/stg-tool/stg/spec/expr"
)

// This file lends the JSON Lines discipline of the SUT adapters (reads
// with deadlines and no goroutine, a read that does not wait before
// silence is concluded, the stderr tail of a process that ended) to other
// line protocols over a process, such as the reference implementations
// of external functions (package extfunc): one request line, one reply
// line.

// StartProcessIn is StartProcess with the working directory dir ("": the
// tester's).
func StartProcessIn(dir string, argv []string, stderr io.Writer) (*Process, error) {
	return startProcess(dir, argv, stderr)
}

// WriteLine writes line, which must end with a newline, to the process's
// standard input. A process that does not read blocks it until ctx ends;
// a process that ended gives an error wrapping its *ExitError.
func (p *Process) WriteLine(ctx context.Context, line []byte) error {
	if p.endErr != nil {
		if err := p.ended(ctx, 0, p.endErr); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { p.w.SetWriteDeadline(longAgo) })
	defer stop()
	for len(line) > 0 {
		if err := p.w.SetWriteDeadline(time.Time{}); err != nil {
			return p.writeFailed(ctx, err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("the process does not read its input: %w", err)
		}
		n, err := p.w.Write(line)
		line = line[n:]
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			// ctx ended (checked above), or a late AfterFunc: go on.
		case err != nil:
			return p.writeFailed(ctx, err)
		}
	}
	return nil
}

// writeFailed explains a write error: the process exited, or closed its
// standard input.
func (p *Process) writeFailed(ctx context.Context, err error) error {
	if xerr := p.waitExit(ctx, p.grace); xerr != nil {
		return xerr
	}
	return unavailable("the process's input is closed: %v", err)
}

// ReadLine returns the next non-blank line the process writes on its
// standard output, without its newline, waiting at most wait; nil when
// no complete line came (a line already written is never missed: the
// last read does not wait). A process that ended gives its *ExitError,
// ctx's end ctx's error, a line longer than 1 MiB an *OutputError (the
// rest of the stream is then out of step: close the process).
func (p *Process) ReadLine(ctx context.Context, wait time.Duration) ([]byte, error) {
	return p.lineConn.readLine(ctx, wait)
}

func (l *lineConn) readLine(ctx context.Context, wait time.Duration) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	var stop func() bool
	defer func() {
		if stop != nil {
			stop()
		}
	}()
	for {
		if line, ok := l.cut(); ok {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			l.heard.Store(true)
			return bytes.Clone(line), nil
		}
		if len(l.buf)-l.off > maxLine {
			l.off = len(l.buf)
			return nil, &OutputError{Line: "(a line longer than 1 MiB)", Msg: "line too long"}
		}
		if done, err := l.fill(ctx, deadline, &stop); done {
			return nil, err
		}
	}
}

// EncodeValue writes v as on the wire (docs/reference.md#wire-protocol): an int as a JSON
// number of any size, a real as a number when integral and as an "N/D"
// string otherwise, a bool, an enum constant as a string.
func EncodeValue(v expr.Value) []byte { return encodeValue(v) }

// DecodeValue converts a value read from the wire (with
// json.Decoder.UseNumber) or given by Go code to a value of type t, with
// the conversions of Output's arguments.
func DecodeValue(raw any, t expr.Type) (expr.Value, error) { return convertValue(raw, t) }

// Kill is Close, returning the last lines the process wrote on its
// standard error (for the report of a process that hung).
func (p *Process) Kill() []string {
	p.Close()
	return p.stderr.finish()
}
