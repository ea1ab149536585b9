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
//     quiescence would be Fail, so that a slow SUT is not failed;
//   - Startup is the start-up allowance: until the SUT has been heard
//     from, no quiescence is concluded before Startup has passed since it
//     was started.
//
// Adapters that are not Timed have exact quiescence and need none of it.
type Timing struct {
	Quiescence    time.Duration
	Auto          bool
	LatencyFactor int
	Confirm       time.Duration
	Startup       time.Duration
}

// Defaults of Timing.
const (
	DefaultQuiescence    = 200 * time.Millisecond
	DefaultLatencyFactor = 4
	DefaultConfirm       = 5 * time.Second
	DefaultStartup       = 5 * time.Second
)

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
	return t
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
	// stayed silent for Timing.Confirm. An unconfirmed silence lasted the
	// window only: a hypothesis that a later output may contradict.
	Confirmed bool
}

// A Partial adapter tells whether it holds the bytes of an output line
// not yet complete: the SUT is writing, so it is not silent.
type Partial interface {
	Partial() bool
}

// Listen waits for an output of the SUT. On a Timed adapter it waits for
// the window (at least until the start-up allowance has passed, if the
// SUT was not heard from), and, when decides says that quiescence now
// would decide the run, until the SUT has been silent for
// Timing.Confirm. Bytes of an unfinished line are never silence: while
// the adapter holds some (Partial), the wait goes on until the line is
// complete or ctx ends.
func (l *Listener) Listen(ctx context.Context, decides func() bool) (Heard, error) {
	d := l.window()
	if l.timed != nil {
		if at, heard := l.timed.Started(); !heard {
			d = max(d, time.Until(at.Add(l.timing.Startup)))
		}
	}
	out, err := l.receive(ctx, d)
	if err != nil || out != nil || l.timed == nil {
		return Heard{Out: out, Confirmed: l.timed == nil}, err
	}
	if decides() {
		if rest := l.timing.Confirm - time.Since(l.last); rest > 0 {
			out, err = l.receive(ctx, rest)
			if err != nil || out != nil {
				return Heard{Out: out}, err
			}
		}
		return Heard{Silence: time.Since(l.last), Confirmed: true}, nil
	}
	return Heard{Silence: time.Since(l.last)}, nil
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
