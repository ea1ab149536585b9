package online

import "context"

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
