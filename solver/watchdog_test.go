package solver

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestWatchdogTimeout: a hard check stops at the time limit with a
// message that names it, and the context keeps working after.
func TestWatchdogTimeout(t *testing.T) {
	c := newContext(t)
	c.SetTimeout(200 * time.Millisecond)
	start := time.Now()
	r, err := c.Sat(pigeons(t, 10))
	if r != Unknown || !errors.Is(err, ErrUnknown) {
		t.Fatalf("Sat(pigeons) = %v, %v; want unknown and ErrUnknown", r, err)
	}
	if !strings.Contains(err.Error(), "time limit of 200ms") {
		t.Errorf("error %q does not name the time limit", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("timeout took effect after %v", d)
	}
	if r, err := c.Sat(parse(t, "x > 1")); r != Sat || err != nil {
		t.Errorf("Sat after a timeout = %v, %v", r, err)
	}
	if _, err := c.Simplify(pigeons(t, 10)); err == nil {
		t.Errorf("Simplify(pigeons) within 200ms: no error")
	}
	if r, err := c.Sat(parse(t, "x > 1")); r != Sat || err != nil {
		t.Errorf("Sat after a tactic timeout = %v, %v", r, err)
	}
}

// TestWatchdogLate: an interrupt that reaches Z3 after the call it was
// meant for has returned (the race of a watchdog firing as the check
// ends) is drained and never stops a later query.
func TestWatchdogLate(t *testing.T) {
	c := newContext(t)
	c.SetMemo(false)
	c.Sat(parse(t, "x > 1")) // the shared solver exists
	c.mu.Lock()
	c.interrupted = true
	c.rawInterrupt() // pending in the idle context
	c.mu.Unlock()
	c.drain()
	if r, err := c.Sat(parse(t, "x > 2")); r != Sat || err != nil {
		t.Fatalf("Sat after a drained late interrupt = %v, %v", r, err)
	}
	// Many short queries, each bounded by a timer that expires about
	// when it ends: none may fail.
	c.SetTimeout(time.Millisecond)
	for i := 0; i < 300; i++ {
		if r, err := c.Sat(parse(t, "x > 1 && x < 5")); r != Sat && !errors.Is(err, ErrUnknown) {
			t.Fatalf("query %d = %v, %v", i, r, err)
		}
	}
	c.SetTimeout(0)
	if r, err := c.Sat(parse(t, "x > 1")); r != Sat || err != nil {
		t.Errorf("Sat after racing timers = %v, %v", r, err)
	}
}

// TestMemo: a question asked again is answered from the memo, the
// answer is the same, and SetMemo(false) makes every question reach Z3.
func TestMemo(t *testing.T) {
	c := newContext(t)
	qs := []func() (any, error){
		func() (any, error) { return c.Sat(parse(t, "x > 1 && x < 3")) },
		func() (any, error) { return c.Entails(parse(t, "x > 2"), parse(t, "x > 1")) },
		func() (any, error) { return c.Valid(parse(t, "x > 1 || x <= 1")) },
		func() (any, error) { return c.Equivalent(parse(t, "x > 1"), parse(t, "x >= 2")) },
		func() (any, error) { return c.Simplify(parse(t, "x > 1 && x > 2")) },
	}
	var first []string
	for _, q := range qs {
		r, err := q()
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, stringOf(r))
	}
	s0 := c.Stats()
	for i, q := range qs {
		r, err := q()
		if err != nil || stringOf(r) != first[i] {
			t.Errorf("question %d again = %v, %v; first %v", i, r, err, first[i])
		}
	}
	d := c.Stats().Sub(s0)
	if d.Hits != len(qs) || d.Checks != 0 || d.Tactics != 0 {
		t.Errorf("asked again: %+v; want %d hits and no Z3 work", d, len(qs))
	}
	c.SetMemo(false)
	s0 = c.Stats()
	for _, q := range qs {
		q()
	}
	if d := c.Stats().Sub(s0); d.Hits != 0 || d.Checks < len(qs) {
		t.Errorf("memo off: %+v; want no hits", d)
	}
}

func stringOf(x any) string {
	if s, ok := x.(interface{ String() string }); ok {
		return s.String()
	}
	if b, ok := x.(bool); ok && b {
		return "true"
	}
	return "false"
}
