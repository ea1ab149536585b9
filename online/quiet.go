package online

import (
	"context"

	"github.com/stg-tool/stg/adapter"
)

// wait waits for an output of the SUT with the runner's quiescence policy
// (adapter.Listener: a start-up allowance for a SUT not yet heard from,
// and a silence after which δ would be Fail concluded only once the SUT
// has been silent for Options.Confirm); silence is the observation δ.
func (x *execution) wait(ctx, runCtx context.Context) error {
	var quiet *Step
	var qerr error
	wouldFail := func() bool {
		quiet, qerr = x.t.Apply(x.sc, Quiescence())
		return qerr == nil && quiet.Verdict == Fail
	}
	out, _, err := x.listen.Wait(runCtx, wouldFail)
	x.res.Window = x.listen.Window
	if err != nil {
		return x.receiveFailed(ctx, err)
	}
	if out != nil {
		return x.observe(out)
	}
	if quiet == nil && qerr == nil {
		quiet, qerr = x.t.Apply(x.sc, Quiescence())
	}
	if qerr != nil {
		return qerr
	}
	x.record(quiet, nil)
	return nil
}

// timing returns the quiescence policy of the options.
func (o Options) timing() adapter.Timing {
	return adapter.Timing{Quiescence: o.Quiescence, Auto: o.AutoQuiescence, LatencyFactor: o.LatencyFactor, Confirm: o.Confirm, Startup: o.Startup}
}
