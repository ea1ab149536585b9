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
	timing Timing
	cal    *Calibration
	last   time.Time // the last send or output: silence is counted from it
	heard  bool      // an output has arrived in this run

	// Window is the quiescence window of the last wait of a Timed
	// adapter (0 for exact quiescence); Latencies are the latencies
	// measured in the run. The first output of a run may include the
	// SUT's start-up, and is left out.
	Window    time.Duration
	Latencies []time.Duration
}

// NewListener starts listening to sut; cal may be shared by the runs of
// one tester, never by two goroutines.
func NewListener(sut Adapter, timing Timing, cal *Calibration) *Listener {
	if cal == nil {
		cal = &Calibration{}
	}
	return &Listener{sut: sut, timing: timing, cal: cal, last: time.Now()}
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
	if _, timed := l.sut.(Timed); !timed || first || at.Before(prev) {
		return
	}
	lat := at.Sub(prev)
	l.Latencies = append(l.Latencies, lat)
	l.cal.Max = max(l.cal.Max, lat)
}

// window returns the quiescence window.
func (l *Listener) window() time.Duration {
	t := l.timing
	if !t.Auto {
		return t.Quiescence
	}
	return max(t.Quiescence, time.Duration(t.LatencyFactor)*l.cal.Max)
}

// Wait waits for an output of the SUT. It returns nil when the SUT stays
// silent, with how long it was silent: on a Timed adapter, for the window
// (at least until the start-up allowance has passed, if the SUT was not
// heard from), and, when wouldFail says quiescence would be Fail, until
// it has been silent for Timing.Confirm. The output returned is not yet
// recorded: call Took.
func (l *Listener) Wait(ctx context.Context, wouldFail func() bool) (*Output, time.Duration, error) {
	timed, isTimed := l.sut.(Timed)
	d := l.window()
	if isTimed {
		l.Window = d
		if at, heard := timed.Started(); !heard {
			d = max(d, time.Until(at.Add(l.timing.Startup)))
		}
	}
	out, err := l.sut.Receive(ctx, d)
	if err != nil || out != nil || !isTimed {
		return out, 0, err
	}
	if wouldFail() {
		if rest := l.timing.Confirm - time.Since(l.last); rest > 0 {
			out, err = l.sut.Receive(ctx, rest)
			if err != nil || out != nil {
				return out, 0, err
			}
		}
	}
	return nil, time.Since(l.last), nil
}
