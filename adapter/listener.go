package adapter

import (
	"context"
	"time"
)

// Timing says how a tester observes quiescence on a Timed adapter, where
// silence can only be concluded by waiting (Tretmans: quiescence is
// observed by a time-out, and a time-out is only as good as its length):
//
//   - Quiescence is the window of silence that counts as quiescence; with
//     Auto it is the floor of a window set to LatencyFactor times the
//     largest response latency measured so far (Calibration);
//   - Confirm is how long a silence must last before it is concluded when
//     quiescence would be Fail, so that a slow SUT is not failed; on an
//     Active adapter (a local SUT process) it is counted only while the
//     SUT is idle: blocked, consuming no CPU (see Listener.Listen);
//   - Startup is the start-up allowance: until the SUT has been heard
//     from, no quiescence is concluded before Startup has passed since it
//     was started, nor, on an Active adapter, while it works;
//   - MaxConfirm bounds both waits on an Active adapter, from the start of
//     the silence (or of the SUT): a SUT that works for ever without
//     output still ends, its silence concluded unconfirmed (Heard.Working).
//
// Adapters that are not Timed have exact quiescence and need none of it.
type Timing struct {
	Quiescence    time.Duration
	Auto          bool
	LatencyFactor int
	Confirm       time.Duration
	Startup       time.Duration
	MaxConfirm    time.Duration
}

// Defaults of Timing.
const (
	DefaultQuiescence    = 200 * time.Millisecond
	DefaultLatencyFactor = 4
	DefaultConfirm       = 5 * time.Second
	DefaultStartup       = 5 * time.Second
	DefaultMaxConfirm    = time.Minute
)

// sampleEvery is how often a Listener samples the activity of an Active
// SUT while it confirms a silence or waits for a starting SUT; it does
// not sample during the other windows.
const sampleEvery = 100 * time.Millisecond

// WithDefaults returns t with its zero fields set to the defaults.
func (t Timing) WithDefaults() Timing {
	if t.Quiescence <= 0 {
		t.Quiescence = DefaultQuiescence
	}
	if t.LatencyFactor <= 0 {
		t.LatencyFactor = DefaultLatencyFactor
	}
	if t.Confirm <= 0 {
		t.Confirm = DefaultConfirm
	}
	if t.Startup <= 0 {
		t.Startup = DefaultStartup
	}
	if t.MaxConfirm <= 0 {
		t.MaxConfirm = DefaultMaxConfirm
	}
	return t
}

// maxWait is the cap of the waits on an Active SUT: MaxConfirm, and never
// less than Confirm or Startup.
func (t Timing) maxWait() time.Duration {
	return max(t.MaxConfirm, t.Confirm, t.Startup)
}

// A Calibration keeps the largest response latency measured over the runs
// of one tester (one goroutine).
type Calibration struct {
	Max time.Duration
}

// A Listener waits for the outputs of one SUT during one run and
// measures their latencies: the time from the last send or output to the
// next output.
type Listener struct {
	sut    Adapter
	timed  Timed // sut when it is Timed, nil when its quiescence is exact
	timing Timing
	cal    *Calibration
	last   time.Time // the last send or output: silence is counted from it
	heard  bool      // an output has arrived in this run

	// Latencies are the latencies measured in the run. The first output
	// of a run may include the SUT's start-up, and is left out.
	Latencies []time.Duration
}

// NewListener starts listening to sut; cal may be shared by the runs of
// one tester, never by two goroutines.
func NewListener(sut Adapter, timing Timing, cal *Calibration) *Listener {
	if cal == nil {
		cal = &Calibration{}
	}
	timed, _ := sut.(Timed)
	return &Listener{sut: sut, timed: timed, timing: timing, cal: cal, last: time.Now()}
}

// Sent records that an input was just sent.
func (l *Listener) Sent() { l.last = time.Now() }

// Took records an output the tester read, for the latencies.
func (l *Listener) Took(out *Output) {
	at := out.At
	if at.IsZero() {
		at = time.Now()
	}
	prev, first := l.last, !l.heard
	l.last, l.heard = at, true
	if l.timed == nil || first || at.Before(prev) {
		return
	}
	lat := at.Sub(prev)
	l.Latencies = append(l.Latencies, lat)
	l.cal.Max = max(l.cal.Max, lat)
}

// Window returns the quiescence window a wait uses now: 0 for an
// adapter whose quiescence is exact.
func (l *Listener) Window() time.Duration {
	if l.timed == nil {
		return 0
	}
	return l.window()
}

// window returns the quiescence window.
func (l *Listener) window() time.Duration {
	t := l.timing
	if !t.Auto {
		return t.Quiescence
	}
	return max(t.Quiescence, time.Duration(t.LatencyFactor)*l.cal.Max)
}

// Heard is what a Listener heard: an output (not yet recorded: call
// Took), or silence for Silence, confirmed or not.
type Heard struct {
	Out     *Output
	Silence time.Duration
	// Confirmed reports that the silence is quiescence as far as the
	// policy can tell: the adapter's quiescence is exact, or the SUT
	// stayed silent for Timing.Confirm (of idleness, on an Active
	// adapter). An unconfirmed silence lasted the window only: a
	// hypothesis that a later output may contradict.
	Confirmed bool
	// Working reports a silence that would decide but that ended at
	// Timing.MaxConfirm while the SUT was still working or waiting for
	// the CPU: it was not idle for Confirm, so its silence is no refusal
	// to output. Confirmed is false.
	Working bool
}

// A Partial adapter tells whether it holds the bytes of an output line
// not yet complete: the SUT is writing, so it is not silent.
type Partial interface {
	Partial() bool
}

// An Active adapter can tell what its SUT is doing (Activity), as a
// Process can from the proc file system. An error means it cannot tell:
// the Listener then counts wall-clock time.
type Active interface {
	Activity() (Activity, error)
}

// Listen waits for an output of the SUT. On a Timed adapter it waits for
// the window (at least until the start-up allowance has passed, if the
// SUT was not heard from), and, when decides says that quiescence now
// would decide the run, until the SUT has been silent for
// Timing.Confirm. Bytes of an unfinished line are never silence: while
// the adapter holds some (Partial), the wait goes on until the line is
// complete or ctx ends.
//
// On an Active adapter the Listener also asks whether the SUT is still
// working: a SUT not yet heard from is waited for while it works, past
// the start-up allowance; and the confirmation counts only the time in
// which the SUT was idle, sampled every sampleEvery from its start (a
// thread runnable, in uninterruptible sleep or stopped, or CPU consumed,
// make an interval not idle; the window before the first sample is not
// counted). Both waits end at Timing.MaxConfirm (maxWait).
func (l *Listener) Listen(ctx context.Context, decides func() bool) (Heard, error) {
	d := l.window()
	if l.timed == nil {
		out, err := l.receive(ctx, d)
		return Heard{Out: out, Confirmed: true}, err
	}
	w := l.watch()
	at, heard := l.timed.Started()
	starting := false // the wait covers the rest of the start-up allowance
	if rest := time.Until(at.Add(l.timing.Startup)); !heard && rest > d {
		d, starting = rest, true
	}
	out, err := l.receive(ctx, d)
	if err == nil && out == nil && starting {
		out, err = l.starting(ctx, w, at.Add(l.timing.maxWait()))
	}
	if err != nil || out != nil {
		return Heard{Out: out}, err
	}
	if decides() {
		return l.confirm(ctx, w)
	}
	return Heard{Silence: time.Since(l.last)}, nil
}

// starting waits, at the end of the start-up allowance, for a SUT not
// yet heard from while it works (it may be loading an interpreter on a
// loaded machine), until it is idle over one sample, it outputs, or
// until.
func (l *Listener) starting(ctx context.Context, w *watch, until time.Time) (*Output, error) {
	for w.src != nil && w.sample() && time.Now().Before(until) {
		out, err := l.receive(ctx, min(sampleEvery, time.Until(until)))
		if err != nil || out != nil {
			return out, err
		}
	}
	return nil, nil
}

// confirm waits until the SUT has been silent and idle for Confirm, or
// silent for maxWait, whichever comes first.
func (l *Listener) confirm(ctx context.Context, w *watch) (Heard, error) {
	end := l.last.Add(l.timing.maxWait())
	for {
		w.sample()
		rest := l.timing.Confirm - w.idle(l.last)
		if rest <= 0 {
			return Heard{Silence: time.Since(l.last), Confirmed: true}, nil
		}
		left := time.Until(end)
		if left <= 0 {
			return Heard{Silence: time.Since(l.last), Working: true}, nil
		}
		step := min(rest, left)
		if w.src != nil {
			step = min(step, sampleEvery)
		}
		out, err := l.receive(ctx, step)
		if err != nil || out != nil {
			return Heard{Out: out}, err
		}
		if w.src == nil { // maxWait >= Confirm: step is the rest of Confirm
			// The activity cannot be told: the adapter waited the rest of
			// Confirm in wall-clock time, as it did before activity was
			// watched (an adapter whose clock is not the wall's, as in
			// tests, is trusted to have waited).
			return Heard{Silence: time.Since(l.last), Confirmed: true}, nil
		}
	}
}

// A watch follows the activity of an Active SUT during one Listen: the
// time in which it was idle, over the intervals between samples. Its
// first sample is taken when a confirmation or a start-up wait begins,
// not when the Listen does (the other windows cost no sample): the
// silence before it is not counted as idle.
type watch struct {
	src    Active   // nil: the activity cannot be told; wall-clock time counts
	primed bool     // last holds a sample
	last   Activity // the last sample
	at     time.Time
	idled  time.Duration
}

// watch returns the watch of the SUT's activity, if it can be told.
func (l *Listener) watch() *watch {
	a, _ := l.sut.(Active)
	return &watch{src: a}
}

// sample ends the interval since the last sample; it reports whether
// the SUT worked in it, or may have (the first sample: the interval is
// unknown). It reports false when the activity cannot be told.
func (w *watch) sample() bool {
	if w.src == nil {
		return false
	}
	act, err := w.src.Activity()
	if err != nil {
		w.src = nil // fall back to wall-clock time
		return false
	}
	now := time.Now()
	worked := !w.primed || act.WorkedSince(w.last)
	if !worked {
		w.idled += now.Sub(w.at)
	}
	w.primed, w.last, w.at = true, act, now
	return worked
}

// idle returns how long the SUT has been idle in a silence that began at
// from: the idle intervals sampled, or, when the activity cannot be told
// (or could not at some point), the wall-clock time since from.
func (w *watch) idle(from time.Time) time.Duration {
	if w.src == nil {
		return time.Since(from)
	}
	return w.idled
}

// receive waits for an output for d at most, and then on while the
// adapter holds an unfinished line.
func (l *Listener) receive(ctx context.Context, d time.Duration) (*Output, error) {
	out, err := l.sut.Receive(ctx, d)
	p, partial := l.sut.(Partial)
	for err == nil && out == nil && partial && p.Partial() {
		out, err = l.sut.Receive(ctx, max(d, 10*time.Millisecond))
	}
	return out, err
}
