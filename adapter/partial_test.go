package adapter

import (
	"context"
	"testing"
	"time"
)

// TestPartialLineIsNotSilence (issue 27, case 7): the SUT has written
// the first bytes of an output line; a wait that ends before the newline
// must not be taken for silence. The Listener keeps waiting while the
// connection holds an unfinished line, and gets the output once it is
// complete. No timer decides: the rest of the line is written only once
// the first wait has seen the partial bytes.
// closing gives a lineConn the Close of an Adapter; after its first
// wait that found no line, it calls then (once).
type closing struct {
	*lineConn
	then func()
}

func (closing) Close() error { return nil }

func (c *closing) Receive(ctx context.Context, wait time.Duration) (*Output, error) {
	out, err := c.lineConn.Receive(ctx, wait)
	if out == nil && err == nil && c.then != nil {
		c.then()
		c.then = nil
	}
	return out, err
}

func TestPartialLineIsNotSilence(t *testing.T) {
	l, w := pipeConn(t)
	if _, err := w.WriteString(`{"action":`); err != nil {
		t.Fatal(err)
	}
	out, err := l.Receive(context.Background(), time.Millisecond)
	if err != nil || out != nil {
		t.Fatalf("half a line: %s", describe(out, err))
	}
	if !l.Partial() {
		t.Fatal("the connection holds half a line but says it is not partial")
	}
	// The rest of the line comes only after the listener's first wait.
	rest := func() { w.WriteString(`"ok"}` + "\n") }
	lis := NewListener(&closing{l, rest}, Timing{Quiescence: time.Millisecond, Confirm: time.Millisecond, Startup: time.Nanosecond}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), noHang)
	defer cancel()
	heard, err := lis.Listen(ctx, func() bool { return false })
	if err != nil || heard.Out == nil || heard.Out.Action != "ok" {
		t.Fatalf("got %s, silence %v: the half line was taken for silence", describe(heard.Out, err), heard.Silence)
	}
	if l.Partial() {
		t.Error("the line is complete but the connection says it is partial")
	}
}

// TestListenConfirmsWhatDecides: a silence that decides is confirmed (a
// second wait); one that does not is concluded after the window, marked
// unconfirmed.
func TestListenConfirmsWhatDecides(t *testing.T) {
	for _, decides := range []bool{false, true} {
		l, _ := pipeConn(t)
		lis := NewListener(&closing{l, nil}, Timing{Quiescence: time.Millisecond, Confirm: 5 * time.Millisecond, Startup: time.Nanosecond}, nil)
		heard, err := lis.Listen(context.Background(), func() bool { return decides })
		if err != nil || heard.Out != nil {
			t.Fatalf("decides %v: %s", decides, describe(heard.Out, err))
		}
		if heard.Confirmed != decides {
			t.Errorf("decides %v: confirmed %v", decides, heard.Confirmed)
		}
		if decides && heard.Silence < 5*time.Millisecond {
			t.Errorf("a deciding silence concluded after %v, before Confirm", heard.Silence)
		}
	}
}
