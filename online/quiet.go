package online

import (
	"context"
	"time"

	"github.com/stg-tool/stg/adapter"
)

// wait waits for an output of the SUT; silence is the observation δ. As
// runner does (runner/quiet.go), on a Timed adapter it gives a SUT not
// yet heard from the start-up allowance, and concludes a silence after
// which δ would be Fail only once the SUT has been silent for
// Options.Confirm. An adapter that is not Timed has exact quiescence.
func (x *execution) wait(ctx, runCtx context.Context) error {
	timed, isTimed := x.sut.(adapter.Timed)
	d := x.window()
	if isTimed {
		x.res.Window = d
		if at, heard := timed.Started(); !heard {
			d = max(d, time.Until(at.Add(x.r.opts.Startup)))
		}
	}
	out, err := x.sut.Receive(runCtx, d)
	if err != nil {
		return x.receiveFailed(ctx, err)
	}
	if out != nil {
		return x.observe(out)
	}
	st, err := x.t.Apply(x.sc, Quiescence())
	if err != nil {
		return err
	}
	if isTimed && st.Verdict == Fail {
		// Confirm: the silence since the last event must last Confirm.
		if rest := x.r.opts.Confirm - time.Since(x.last); rest > 0 {
			out, err = x.sut.Receive(runCtx, rest)
			if err != nil {
				return x.receiveFailed(ctx, err)
			}
			if out != nil {
				return x.observe(out)
			}
		}
	}
	x.record(st, nil)
	return nil
}

// window returns the quiescence window: Options.Quiescence, or with
// AutoQuiescence LatencyFactor times the largest latency measured by
// the Runner, if that is longer.
func (x *execution) window() time.Duration {
	o := x.r.opts
	if !o.AutoQuiescence {
		return o.Quiescence
	}
	return max(o.Quiescence, time.Duration(o.LatencyFactor)*x.r.maxLatency)
}

// measure records the latency of an output of a Timed SUT: the time
// from the last send or output to its arrival. The first output of a
// run may include the SUT's start-up, and is left out.
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
	x.res.Latencies = append(x.res.Latencies, lat)
	x.r.maxLatency = max(x.r.maxLatency, lat)
}
