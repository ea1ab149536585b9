package play

import (
	"fmt"
	"strings"
	"time"

	"github.com/stg-tool/stg/spec"
)

// wait waits for an output of the SUT (adapter.Listener); silence is the
// observation delta. A silence after which quiescence would decide the
// run (a verdict) is confirmed over Timing.Confirm before it is
// concluded; any other is concluded after the window, as a hypothesis:
// it is kept pending until the next output, which may show it was
// latency (late). A deciding silence that reached Timing.MaxConfirm
// while a local SUT was still working (Heard.Working) is no quiescence
// that can fail: a Fail it would give is Inconc.
func (x *run) wait() error {
	decides := func() bool {
		v, err := x.o.Quiet()
		return err != nil || v != None
	}
	heard, err := x.listen.Listen(x.runCtx, decides)
	if err != nil {
		return x.receiveFailed(err)
	}
	if heard.Out != nil {
		return x.observe(heard.Out)
	}
	var snap any
	r, retracts := x.o.(Retracter)
	if !heard.Confirmed && retracts {
		snap = r.Snapshot()
	}
	loc := x.o.Where()
	step := Step{Kind: Quiescence, From: loc, Action: spec.Delta, Silence: heard.Silence, Unconfirmed: !heard.Confirmed}
	j, err := x.o.Observe(Observation{Quiet: true, Action: spec.Delta, Silence: heard.Silence})
	if err != nil {
		return x.failed(err)
	}
	if heard.Working && j.Verdict == Fail {
		j.Verdict = Inconc
		j.Reason = fmt.Sprintf("quiescence would fail, but the SUT, silent for %v, kept working or waiting for the CPU (--max-confirm): a SUT that has not been idle for the confirmation has not refused to output", heard.Silence.Round(time.Millisecond))
	}
	if !heard.Confirmed && j.Verdict == None {
		x.pending = append(x.pending, pending{step: len(x.res.Trace), snap: snap})
	}
	return x.conclude(step, j)
}

// late judges an output obs that the oracle failed (j) after quiescences
// concluded without confirmation: each may have been latency, the output
// on its way. If quiescence k was latency, so was every later one before
// the output (the SUT was not quiescent while it had an output to emit),
// so the readings are: the silences from k on were latency, for each k,
// the inputs sent since then crossing the output (queued semantics).
// Fail stands when every reading fails; when exactly one reading explains
// the output, the run goes on in it, the silences it drops marked
// Retracted; when several do, the run ends Inconc (which one holds
// cannot be told, and keeping one could make a later Fail false).
func (x *run) late(obs Observation, j Judgement) (Judgement, error) {
	r, ok := x.o.(Retracter)
	if !ok {
		return x.undecidedLate(obs, j, "the oracle cannot judge it without them"), nil
	}
	failed := r.Snapshot()
	var found []int
	var kept any
	var keptJ Judgement
	for k := len(x.pending) - 1; k >= 0; k-- {
		jk, err := x.reading(r, k, obs)
		if err != nil {
			return j, err
		}
		if jk.Verdict != Fail {
			found = append(found, k)
			kept, keptJ = r.Snapshot(), jk
		}
	}
	switch len(found) {
	case 0:
		r.Restore(failed)
		return j, nil
	case 1:
		r.Restore(kept)
		for _, p := range x.pending[found[0]:] {
			x.res.Trace[p.step].Retracted = true
		}
		if keptJ.Reason == "" && keptJ.Verdict != None {
			keptJ.Reason = fmt.Sprintf("%s after the silence(s) at step(s) %s, read as latency", keptJ.Verdict, x.steps(found[0]))
		}
		return keptJ, nil
	}
	r.Restore(failed)
	return x.undecidedLate(obs, j, "several readings of them explain the run"), nil
}

// reading restores the oracle to before pending quiescence k, sends again
// the stimuli sent since (without the quiescences), and judges obs.
func (x *run) reading(r Retracter, k int, obs Observation) (Judgement, error) {
	r.Restore(x.pending[k].snap)
	for _, s := range x.res.Trace[x.pending[k].step+1:] {
		if s.Kind != Sent {
			continue
		}
		j, err := x.o.Send(Stimulus{Action: s.Action, Args: s.args()})
		if err != nil {
			return j, err
		}
		if j.Verdict != None {
			return j, nil
		}
	}
	return x.o.Observe(obs)
}

// undecidedLate is the Inconc of an output that fails only if the
// unconfirmed silences before it were quiescence.
func (x *run) undecidedLate(obs Observation, j Judgement, why string) Judgement {
	j.Verdict = Inconc
	j.Reason = fmt.Sprintf("output %s fails only if the silence(s) at step(s) %s were quiescence, concluded after the window without confirmation, and %s",
		DescribeAction(obs.Action, obs.Args), x.steps(0), why)
	return j
}

// steps lists the trace positions (from 1) of the pending quiescences
// from k on.
func (x *run) steps(k int) string {
	var ns []string
	for _, p := range x.pending[k:] {
		ns = append(ns, fmt.Sprint(p.step+1))
	}
	return strings.Join(ns, ", ")
}
