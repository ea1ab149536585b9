package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// The time limit of SetTimeout is kept by Z3's resource limit
// (rlimit.go) and, as a backstop at backstopFactor times the limit, by
// a Go-side watchdog rather than by Z3's timeout parameter: with a
// timeout set, Z3 4.8.12 starts a timer thread for every check, which
// cost seconds of system time on large generations. The watchdog is a
// runtime timer armed for the call in progress; when it fires it
// interrupts that call, and only that call: each call has a generation
// number, and the timer of an older generation does nothing.
//
// An interrupt that reaches Z3 just as the call returns stays pending in
// the idle context and would make every later call fail ("canceled").
// So after any call that an interrupt may have reached, the context runs
// one check of an empty solver, which clears the pending interrupt.

// rearm is how often a watchdog repeats its interrupt while the call it
// bounds has not returned (an interrupt that arrives as Z3 enters a
// check can be lost).
const rearm = 50 * time.Millisecond

// interruptible runs f, a call into Z3 that Interrupt, the watchdog and
// the resource limit may stop. The watchdog fires at the time limit when
// the question is uncounted (nonlinear: rlimit.go), else at
// backstopFactor times it. It reports whether the watchdog fired for
// this call (timedOut) and whether any interrupt reached it (hit).
func (c *Context) interruptible(uncounted bool, f func()) (timedOut, hit bool) {
	c.mu.Lock()
	c.busy = true
	c.gen++
	gen := c.gen
	c.mu.Unlock()
	var t *time.Timer
	if c.timeout > 0 {
		d := time.Duration(c.timeout) * time.Millisecond
		if !uncounted && c.rlimit > 0 {
			d *= backstopFactor
		}
		t = time.AfterFunc(d, func() { c.expire(gen) })
	}
	f()
	if t != nil {
		t.Stop()
	}
	c.mu.Lock()
	c.busy = false
	c.gen++ // a timer of this call that runs late finds another generation
	hit = c.interrupted
	timedOut = c.expired == gen
	c.interrupted = false
	c.mu.Unlock()
	if hit {
		c.drain()
	}
	return timedOut, hit
}

// limited reports whether a call that Z3 stopped with the message msg
// (a check's reason for unknown, a tactic's error) ran out of its limit:
// the watchdog fired, or, with no interrupt, Z3 says "canceled" or a
// bare "unknown", which it says when the resource limit runs out. (A
// bare "unknown" may also be Z3 giving up: the error then names the
// limit where it need not, and still wraps ErrUnknown.) The units used
// are not read instead: reading a solver's statistics makes Z3 build
// terms, which shifts the order of Simplify's results.
func (c *Context) limited(timedOut, hit bool, msg string) bool {
	if timedOut {
		return true
	}
	return !hit && c.rlimit > 0 && (strings.Contains(msg, "canceled") || msg == "unknown")
}

// expire interrupts the call of generation gen if it is still running,
// and keeps doing so until it returns.
func (c *Context) expire(gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || !c.busy || c.gen != gen {
		return
	}
	c.expired = gen
	c.interrupted = true
	C.Z3_interrupt(c.z)
	time.AfterFunc(rearm, func() { c.expire(gen) })
}

// drain clears an interrupt that may have reached Z3 after the call it
// was meant for had finished: a check of an empty solver resets Z3's
// cancellation flag.
func (c *Context) drain() {
	if c.z == nil {
		return
	}
	if d := c.spare(); d != nil {
		C.Z3_solver_check(c.z, d)
		_ = c.failed("drain")
	}
}

// spare returns the context's empty solver (the drainer), made on first
// use, or nil when it cannot be made.
func (c *Context) spare() C.Z3_solver {
	if c.drainer == nil {
		s, err := c.z3Solver(true)
		if err != nil {
			return nil
		}
		c.drainer = s
	}
	return c.drainer
}

// timeoutError is the error of a call stopped by its limit.
func (c *Context) timeoutError(op string) error {
	return fmt.Errorf("%w (%s ran past the solver time limit of %v; raise --solver-timeout or simplify the guards)",
		ErrUnknown, op, time.Duration(c.timeout)*time.Millisecond)
}

// rawInterrupt delivers an interrupt whatever the context is doing; for
// the tests of the drain.
func (c *Context) rawInterrupt() { C.Z3_interrupt(c.z) }

// InterruptOn stops, once ctx is done, the check or tactic running in c
// and every later one, until stop is called: they answer Unknown (or
// fail) within about 50 ms. stop waits until no interrupt of this call
// can reach c any more, so checks made after stop returns run normally.
// InterruptOn and stop may be called from any goroutine.
func (c *Context) InterruptOn(ctx context.Context) (stop func()) {
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-quit:
			return
		case <-ctx.Done():
		}
		t := time.NewTicker(rearm) // an interrupt as Z3 enters a check can be lost
		defer t.Stop()
		for {
			c.Interrupt()
			select {
			case <-quit:
				return
			case <-t.C:
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(quit) })
		<-finished
	}
}

// sigintOnStack reports whether the process's SIGINT handler is
// installed with SA_ONSTACK, as the Go runtime installs it; for the tests
// that Z3 leaves the handler alone.
func sigintOnStack() bool { return C.stg_sigint_onstack() != 0 }
