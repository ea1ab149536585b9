package adapter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"
)

// TCP is an Adapter to a SUT listening on a TCP port, speaking the same
// JSON Lines protocol as a SUT process. It is Timed. A connection closed
// or reset by the SUT is an *ExitError.
type TCP struct {
	*lineConn
	conn *net.TCPConn
}

// DialTCP connects to the SUT at addr ("host:port", or "tcp://host:port"),
// giving up when ctx ends. An address where no SUT answers gives an error
// wrapping ErrSUTUnavailable.
func DialTCP(ctx context.Context, addr string) (*TCP, error) {
	addr = strings.TrimPrefix(addr, "tcp://")
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, unavailable("cannot connect to the SUT at %s: %v", addr, err)
	}
	tc, ok := conn.(*net.TCPConn)
	if !ok { // not for "tcp"; kept for safety
		conn.Close()
		return nil, unavailable("cannot connect to the SUT at %s: not a TCP connection", addr)
	}
	t := &TCP{lineConn: newLineConn(tc, tc, time.Now()), conn: tc}
	t.lineConn.ended = func(_ context.Context, _ time.Duration, err error) error { return connEnded(err) }
	t.lineConn.sendFailed = func(_ context.Context, in Input, err error) error {
		return fmt.Errorf("cannot send %s: %w", in.Action, connEnded(err))
	}
	return t, nil
}

// connEnded describes the end of a connection, seen by a read or a write.
func connEnded(err error) *ExitError {
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, syscall.EPIPE):
		return &ExitError{What: "connection closed by the SUT"}
	case errors.Is(err, syscall.ECONNRESET):
		return &ExitError{What: "connection reset by peer"}
	}
	return &ExitError{What: "connection lost: " + err.Error()}
}

// Close closes the connection.
func (t *TCP) Close() error {
	return t.conn.Close()
}
