package runner

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
)

// Quiescence is observed by waiting (Tretmans: "quiescence is observed by
// a time-out"), and a time-out is only as good as its length. A window too
// short for a slow or loaded SUT turns a late output into a false
// quiescence, and a quiescence the test case does not allow into a false
// Fail. The runner therefore:
//
//   - takes an output before silence whenever one has arrived: the
//     adapters never report silence while a line is waiting;
//   - waits, before the SUT has been heard from (a readiness line or an
//     output), until Options.Startup has passed since it was started;
//   - concludes a quiescence that would lead to Fail only after the SUT
//     has been silent for Options.Confirm (passing runs do not pay for it);
//   - with Options.AutoQuiescence, sizes the window from the response
//     latencies measured so far (LatencyFactor times the largest), never
//     below Options.Quiescence.
//
// An adapter that is not adapter.Timed (in-process Go SUTs) knows when the
// SUT has nothing to say: its silence is exact and needs none of this.

// wait waits for an output of the SUT; silence is the observation delta.
func (x *execution) wait(ctx, runCtx context.Context) error {
	timed, isTimed := x.sut.(adapter.Timed)
	d := x.window()
	if isTimed {
		x.res.Window = d
	}
	if isTimed {
		if at, heard := timed.Started(); !heard {
			d = max(d, time.Until(at.Add(x.r.opts.Startup)))
		}
	}
	out, err := x.sut.Receive(runCtx, d)
	if err != nil {
		return x.receiveFailed(ctx, err)
	}
	if out == nil && isTimed && x.quiescenceFails() {
		// Confirm: silence since the last event must last Confirm.
		if rest := x.r.opts.Confirm - time.Since(x.last); rest > 0 {
			out, err = x.sut.Receive(runCtx, rest)
			if err != nil {
				return x.receiveFailed(ctx, err)
			}
		}
	}
	if out != nil {
		return x.observe(out)
	}
	step := Step{Kind: Quiescence, From: x.location(), Action: spec.Delta}
	if isTimed {
		step.Silence = time.Since(x.last)
	}
	return x.apply(step, nil, true)
}

// quiescenceFails reports whether quiescence now would be Fail: no
// explanation of the run allows it.
func (x *execution) quiescenceFails() bool {
	hs, err := x.explain(spec.Delta, nil, true)
	return err == nil && len(hs) == 0 && !x.lost
}

// window returns the quiescence window: Options.Quiescence, or with
// AutoQuiescence LatencyFactor times the largest latency measured by the
// Runner, if that is longer.
func (x *execution) window() time.Duration {
	o := x.r.opts
	if !o.AutoQuiescence {
		return o.Quiescence
	}
	return max(o.Quiescence, time.Duration(o.LatencyFactor)*x.r.maxLatency)
}

// measure records the latency of an output: the time from the last send
// or output to its arrival. The first output of a run may include the
// SUT's start-up, and is left out.
func (x *execution) measure(out *adapter.Output) {
	at := out.At
	if at.IsZero() {
		at = time.Now()
	}
	prev, first := x.last, !x.heard
	x.last, x.heard = at, true
	if _, timed := x.sut.(adapter.Timed); !timed || first || at.Before(prev) {
		return
	}
	lat := at.Sub(prev)
	x.samples = append(x.samples, lat)
	x.r.maxLatency = max(x.r.maxLatency, lat)
}

// Latencies summarises the response latencies of a run.
type Latencies struct {
	N                int
	Min, Median, Max time.Duration
}

func (l Latencies) String() string {
	if l.N == 0 {
		return "no latency measured"
	}
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	return fmt.Sprintf("latency min %v, median %v, max %v (%d outputs)", r(l.Min), r(l.Median), r(l.Max), l.N)
}

// Summarize returns the minimum, median and maximum of latencies.
func Summarize(ds []time.Duration) Latencies {
	if len(ds) == 0 {
		return Latencies{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return Latencies{N: len(s), Min: s[0], Median: s[len(s)/2], Max: s[len(s)-1]}
}

// Window is a quiescence window as the command line gives it: a
// fixed duration, or Auto (set from measured latencies, at least Window).
type Window struct {
	Window time.Duration
	Auto   bool
}

// ParseQuiescence reads "auto" or a positive Go duration ("500ms").
func ParseQuiescence(s string) (Window, error) {
	if s == "auto" {
		return Window{Window: DefaultQuiescence, Auto: true}, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return Window{}, fmt.Errorf("%q is neither auto nor a positive duration such as 500ms", s)
	}
	return Window{Window: d}, nil
}
