package solver

import (
	"errors"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/spec/expr"
)

// cpuTime returns the processor time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestRlimitRate measures how many of Z3's resource units a check uses
// per second of processor time (which is what a second of wall time
// gives on an idle machine), on arithmetic and string questions that
// take Z3 0.1 to 10 seconds: the figure behind rlimitPerMs. Run it with
// STG_LONG=1 go test ./solver -run TestRlimitRate -v.
func TestRlimitRate(t *testing.T) {
	testlong.Skip(t)
	c := newContext(t)
	c.SetMemo(false)
	c.SetTimeout(30 * time.Second)
	c.setRlimit(0) // measure the work, unbounded
	qs := []expr.Expr{pigeons(t, 5), pigeons(t, 6), pigeons(t, 7)}
	for _, src := range stressQueries {
		qs = append(qs, parseIn(t, strScope, src))
	}
	var rates []float64
	for _, q := range qs {
		s := c.NewSolver()
		if err := s.Assert(q); err != nil {
			t.Fatal(err)
		}
		u0, cpu0, wall0 := s.rlimitCount(), cpuTime(), time.Now()
		r, err := s.Check()
		units, cpu, wall := s.rlimitCount()-u0, cpuTime()-cpu0, time.Since(wall0)
		s.Close()
		if cpu < 50*time.Millisecond {
			continue // too short to measure
		}
		rate := float64(units) / cpu.Seconds()
		rates = append(rates, rate)
		t.Logf("%v (%v) in %v processor time, %v wall: %d units, %.0f units/s; %.60s", r, err, cpu.Round(time.Millisecond), wall.Round(time.Millisecond), units, rate, expr.Format(q))
	}
	sort.Float64s(rates)
	if len(rates) > 0 {
		t.Logf("units per processor second: min %.0f, median %.0f, max %.0f over %d questions (rlimitPerMs is %d)",
			rates[0], rates[len(rates)/2], rates[len(rates)-1], len(rates), rlimitPerMs)
	}
}

// spin keeps n goroutines busy, with garbage for the collector, until
// the returned stop is called: two busy loops beside the checks.
func spin(n int) (stop func()) {
	var wg sync.WaitGroup
	var done atomic.Bool
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sink []byte
			for i := 0; !done.Load(); i++ {
				if i%1024 == 0 {
					sink = make([]byte, 4096)
				}
			}
			_ = sink
		}()
	}
	return func() { done.Store(true); wg.Wait() }
}

// rlimitAnswers asks each question in a fresh context bounded by the
// resource limit n alone (no watchdog), and returns the answers.
func rlimitAnswers(t *testing.T, qs []expr.Expr, n uint32) []Result {
	c := newContext(t)
	c.SetMemo(false)
	c.setRlimit(n)
	rs := make([]Result, len(qs))
	for i, q := range qs {
		r, err := c.Sat(q)
		if err != nil && !errors.Is(err, ErrUnknown) {
			t.Fatalf("%s: %v", expr.Format(q), err)
		}
		if r == Unknown && !strings.Contains(err.Error(), "time limit") {
			t.Errorf("%s: unknown without naming the limit: %v", expr.Format(q), err)
		}
		rs[i] = r
	}
	return rs
}

// TestRlimitDeterministic: bounded by the resource limit, the same
// questions get the same answers, unknown or definite, whether the
// machine is idle or two busy loops compete with Z3 for the processors;
// no timer decides anything here. Some of the answers are unknown and
// some definite, so the limit does bind.
func TestRlimitDeterministic(t *testing.T) {
	qs := []expr.Expr{pigeons(t, 4), pigeons(t, 5), pigeons(t, 6)}
	for _, src := range stressQueries {
		qs = append(qs, parseIn(t, strScope, src))
	}
	const units = 40 * rlimitPerMs // about 40 ms on an idle machine
	idle := rlimitAnswers(t, qs, units)
	stop := spin(2)
	loaded := rlimitAnswers(t, qs, units)
	stop()
	kinds := map[Result]int{}
	for i := range qs {
		kinds[idle[i]]++
		if idle[i] != loaded[i] {
			t.Errorf("%.80s: %v idle, %v under load", expr.Format(qs[i]), idle[i], loaded[i])
		}
	}
	if kinds[Unknown] == 0 || kinds[Unknown] == len(qs) {
		t.Errorf("answers %v: the limit should stop some questions and not others", kinds)
	}
}

// TestRlimitFor: the resource limit follows the time limit and is left
// off (the watchdog alone) where it would not fit Z3's parameter.
func TestRlimitFor(t *testing.T) {
	c := newContext(t)
	for _, tc := range []struct {
		d    time.Duration
		want uint32
	}{
		{0, 0},
		{time.Microsecond, rlimitPerMs},
		{2 * time.Second, 2000 * rlimitPerMs},
		{time.Minute, 60000 * rlimitPerMs},
		{24 * time.Hour, 0},
	} {
		c.SetTimeout(tc.d)
		if c.rlimit != tc.want {
			t.Errorf("SetTimeout(%v): rlimit %d, want %d", tc.d, c.rlimit, tc.want)
		}
	}
}

// TestUncounted: the questions whose work Z3 does not count against the
// resource limit are those with nonlinear arithmetic.
func TestUncounted(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"x + 2*y > 3", false},
		{"x*3 - (y + 1)*2 == z", false},
		{"x*y > 3", true},
		{"x / y == 1", true},
		{"x % 3 == 1", false},
		{"x % y == 1", true},
		{"f || x*x*x + y*y*y + z*z*z == 33", true},
	} {
		if got := uncounted(parse(t, tc.src)); got != tc.want {
			t.Errorf("uncounted(%s) = %v, want %v", tc.src, got, tc.want)
		}
	}
	if uncounted(parseIn(t, strScope, `len(s) * 2 == i && s[i:j] == "a"`)) {
		t.Errorf("string questions are counted")
	}
}

// TestUncountedStops: Z3 4.8.12 does not count the work of nonlinear
// integer arithmetic, so a resource limit alone would let this check
// run for minutes; the watchdog stops it and it reports the time limit.
func TestUncountedStops(t *testing.T) {
	c := newContext(t)
	c.SetTimeout(200 * time.Millisecond)
	r, err := c.Sat(parse(t, "x*x*x + y*y*y + z*z*z == 33"))
	if r != Unknown || !errors.Is(err, ErrUnknown) || !strings.Contains(err.Error(), "time limit of 200ms") {
		t.Errorf("Sat(sum of three cubes is 33) = %v, %v; want unknown at the time limit", r, err)
	}
}
