package runner

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec"
)

// wait waits for an output of the SUT (adapter.Listener); silence is the
// observation delta. Quiescence is explained once: to decide whether a
// silence must be confirmed, and then to conclude it.
func (x *execution) wait(ctx, runCtx context.Context) error {
	explainQuiet := sync.OnceValues(func() (explanation, error) { return x.explain(spec.Delta, nil, true) })
	wouldFail := func() bool {
		quiet, err := explainQuiet()
		return err == nil && len(quiet.hyps) == 0 && !x.lost
	}
	out, silence, err := x.listen.Wait(runCtx, wouldFail)
	if err != nil {
		return x.receiveFailed(ctx, err)
	}
	if out != nil {
		return x.observe(out)
	}
	quiet, err := explainQuiet()
	if err != nil {
		return err
	}
	return x.conclude(Step{Kind: Quiescence, From: x.location(), Action: spec.Delta, Silence: silence}, quiet)
}

// timing returns the quiescence policy of the options.
func (o Options) timing() adapter.Timing {
	return adapter.Timing{Quiescence: o.Quiescence, Auto: o.AutoQuiescence, LatencyFactor: o.LatencyFactor, Confirm: o.Confirm, Startup: o.Startup}
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
