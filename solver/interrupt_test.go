package solver

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestInterruptOn: once the context is done, a hard check stops (without
// the time limit's message), and after stop the solver works again.
func TestInterruptOn(t *testing.T) {
	c := newContext(t)
	c.SetTimeout(10 * time.Minute) // a safety net only: the interrupt must come first
	ctx, cancel := context.WithCancel(context.Background())
	stop := c.InterruptOn(ctx)
	cancel()
	r, err := c.Sat(pigeons(t, 12))
	if r != Unknown {
		t.Fatalf("Sat(pigeons) after cancel = %v, %v; want unknown", r, err)
	}
	if err != nil && strings.Contains(err.Error(), "time limit") {
		t.Fatalf("the check ran to the time limit: %v", err)
	}
	stop()
	stop() // idempotent
	if r, err := c.Sat(parse(t, "x > 1")); r != Sat || err != nil {
		t.Errorf("Sat after stop = %v, %v; want sat", r, err)
	}
}

// TestInterruptOnNotDone: a context that never ends interrupts nothing.
func TestInterruptOnNotDone(t *testing.T) {
	c := newContext(t)
	stop := c.InterruptOn(context.Background())
	defer stop()
	for range 20 {
		if r, err := c.Sat(parse(t, "x > 1 && x < 3")); r != Sat || err != nil {
			t.Fatalf("Sat = %v, %v; want sat", r, err)
		}
	}
}

// TestNoZ3SigintHandler: Z3 4.8.12 replaces SIGINT's handler during a
// check and puts the old one back without SA_ONSTACK, after which the Go
// runtime crashes on the next signal. Checks must leave it alone.
func TestNoZ3SigintHandler(t *testing.T) {
	if !sigintOnStack() {
		t.Skip("SIGINT's handler has no SA_ONSTACK before any check")
	}
	c := newContext(t)
	c.SetTimeout(100 * time.Millisecond)
	if r, err := c.Sat(parse(t, "x > 1")); r != Sat || err != nil {
		t.Fatalf("Sat = %v, %v", r, err)
	}
	_, err := c.Sat(pigeons(t, 10)) // interrupted by the watchdog
	if err != nil && !errors.Is(err, ErrUnknown) {
		t.Fatalf("Sat(pigeons): %v", err)
	}
	s := c.NewSolver()
	s.Assert(parse(t, "x > 2"))
	if r, err := s.Check(); r != Sat || err != nil {
		t.Fatalf("Check = %v, %v", r, err)
	}
	if !sigintOnStack() {
		t.Fatal("after Z3 checks, SIGINT's handler has lost SA_ONSTACK (Z3 installed its own)")
	}
}
