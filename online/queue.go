package online

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stg-tool/stg/spec"
)

// inflight is what the oracle of a run knows of the stimuli in flight on
// a Timed SUT: sent to it, not known to be consumed. An output the SUT
// emits before it reads a stimulus already sent crosses it on the wire,
// so the oracle judges an output in every context the SUT may have
// emitted it from, having consumed a prefix of the stimuli in flight
// (queued semantics: Tretmans and Verhaard, "A queue model relating
// synchronous and asynchronous communication", PSTV 1992). With no
// stimulus in flight the oracle applies the paper's rules to its set of
// contexts as they are. An inflight is immutable: every change makes new
// slices, so that a snapshot (play.Retracter) stays valid.
type inflight struct {
	// sent are the stimuli in flight, oldest first.
	sent []Event
	// lower[k], k < len(sent), holds the contexts in which the SUT has
	// consumed sent[:k] only; the contexts after all of them (the view,
	// where the tester chooses its stimuli) are the run's SC.
	lower [][]Context
	// base counts the stimuli sent before sent[0].
	base int
	// lost, when not "", says how a reading of the run left the traces
	// of the spec by an input (see consumed): ioco does not constrain
	// what the SUT does after that, so no output or quiescence can be
	// Fail any more; the run gives Inconc instead.
	lost string
}

// levels returns the contexts by the number of stimuli in flight
// consumed: lower, then view.
func (q inflight) levels(view []Context) [][]Context {
	return append(slices.Clip(q.lower), view)
}

// push returns q with the stimulus ev sent from view (the contexts after
// the stimuli already in flight); next are its successors.
func (q inflight) push(view, next []Context, ev Event) inflight {
	if q.lost == "" {
		q.lost = consumed(view, next, ev)
	}
	q.lower = append(slices.Clip(q.lower), view)
	q.sent = append(slices.Clip(q.sent), ev)
	return q
}

// drained returns q once the SUT has consumed every stimulus in flight
// (it was observed quiescent).
func (q inflight) drained() inflight {
	return inflight{base: q.base + len(q.sent), lost: q.lost}
}

// key identifies q, for play.Oracle.Key.
func (q inflight) key() string {
	if len(q.sent) == 0 {
		return ""
	}
	var b strings.Builder
	for k, ev := range q.sent {
		fmt.Fprintf(&b, " | %s before %s", setString(q.lower[k]), ev)
	}
	return b.String()
}

// applyQueued applies rules 1-5 to an output ev observed while the
// stimuli q.sent are in flight and view are the contexts after all of
// them. Next, NextSkip and NextPass are the unions, over k, of the sets
// of ev from the contexts having consumed sent[:k] (those of lower[k],
// and the successors by sent[k-1], all of them, of the contexts having
// consumed sent[:k-1], closed under internal transitions: the SUT
// consumes its inputs whatever the purpose says), and the rule is the
// one that fits the unions. The step's SC holds the contexts of every
// level after the step; applyQueued returns the new stimuli in flight
// and the new view, also after WeakPass (to observe after it).
func (t *Tester) applyQueued(q inflight, view []Context, ev Event) (*Step, inflight, []Context, error) {
	levels := q.levels(view)
	st := &Step{Event: ev, InFlight: len(q.sent)}
	nexts := make([][]Context, len(levels))
	for k, sc := range levels {
		sk := &Step{Event: ev}
		if err := t.successors(sc, sk); err != nil {
			return nil, q, nil, err
		}
		tag := "," + strconv.Itoa(q.base+k)
		for _, cs := range [][]Context{sk.Next, sk.NextSkip, sk.NextPass} {
			for i := range cs {
				cs[i].sig += tag
			}
		}
		nexts[k] = sk.Next
		st.Next = append(st.Next, sk.Next...)
		st.NextSkip = append(st.NextSkip, sk.NextSkip...)
		st.NextPass = append(st.NextPass, sk.NextPass...)
		st.Undecided += sk.Undecided
	}
	if guessed(st) {
		return st, q, nil, nil
	}
	if st.Verdict != None && st.Verdict != WeakPass {
		st.Reason = reason(st)
		return st, q, nil, nil
	}
	nq, nview, err := t.propagate(q, nexts)
	if st.Verdict == WeakPass {
		// The explanations after it, for observing after WeakPass.
		st.Reason = reason(st)
		if err != nil {
			return st, q, nil, nil
		}
		return st, nq, nview, nil
	}
	if errors.Is(err, errTooMany) {
		st.Verdict = Inconc
		st.Reason = fmt.Sprintf("more than %d contexts explain the run with the stimuli in flight: the tester does not tell them apart", t.MaxContexts)
		return st, q, nil, nil
	}
	if err != nil {
		return nil, q, nil, err
	}
	for _, cs := range nq.lower {
		st.SC = append(st.SC, cs...)
	}
	st.SC = append(st.SC, nview...)
	st.Reason = reason(st)
	return st, nq, nview, nil
}

// propagate returns the levels after an output whose successors from
// level k are nexts[k]: level k holds them, closed under internal
// transitions, and the successors by sent[k-1] of level k-1. The stimuli
// that every context has consumed leave the queue.
func (t *Tester) propagate(q inflight, nexts [][]Context) (inflight, []Context, error) {
	out := make([][]Context, len(nexts))
	lost, total := q.lost, 0
	for k := range nexts {
		cs, err := t.closure(nexts[k])
		if err != nil {
			return q, nil, err
		}
		if k > 0 {
			up, why, err := t.consume(out[k-1], q.sent[k-1])
			if err != nil {
				return q, nil, err
			}
			if lost == "" {
				lost = why
			}
			cs = append(up, cs...)
		}
		out[k] = cs
		if total += len(cs); total > t.MaxContexts {
			return q, nil, errTooMany
		}
	}
	i := 0
	for i < len(q.sent) && len(out[i]) == 0 {
		i++
	}
	nq := inflight{sent: q.sent[i:], lower: out[i : len(out)-1], base: q.base + i, lost: lost}
	return nq, out[len(out)-1], nil
}

// consume returns the contexts cs reach by the SUT consuming the
// stimulus ev: all its successors (Next), closed under internal
// transitions, and, if a reading of the run has no successor, why (see
// consumed).
func (t *Tester) consume(cs []Context, ev Event) ([]Context, string, error) {
	if len(cs) == 0 {
		return nil, "", nil
	}
	st := &Step{Event: ev}
	if err := t.successors(cs, st); err != nil {
		return nil, "", err
	}
	next, err := t.closure(st.Next)
	return next, consumed(cs, st.Next, ev), err
}

// consumed tells whether a reading of the run leaves the traces of the
// spec by the SUT consuming ev: the contexts before are those of every
// reading, next their successors by ev. The contexts of one reading (one
// order of the outputs and the stimuli they crossed, Context.sig) share
// its trace; when none of them allows ev, that trace followed by ev is
// not a trace of the spec, and ioco requires nothing of the SUT after
// it. With no crossing there is one reading, and the tester sends only
// what rule 6 allows from it.
func consumed(before, next []Context, ev Event) string {
	alive := map[string]bool{}
	for _, c := range next {
		alive[c.sig] = true
	}
	for _, c := range before {
		if !alive[c.sig] {
			return fmt.Sprintf("in a reading where outputs crossed stimuli, the SUT consumed %s where the spec does not allow it (ioco requires nothing after that)", ev)
		}
	}
	return ""
}

// excuse turns a Fail of st into Inconc when a reading of the run left
// the traces of the spec by an input (inflight.lost).
func excuse(st *Step, lost string) {
	if st.Verdict == Fail && lost != "" {
		st.Verdict = Inconc
		st.Reason += "; but " + lost
	}
}

// ReplayQueued is Replay for a trace recorded from a SUT whose outputs
// may cross the stimuli sent (a Timed adapter: stg run against a
// process): outputs are judged in queued semantics, as the on-line
// oracle judged them (see the package documentation). sc given to visit
// is the set of contexts after every stimulus sent.
func (t *Tester) ReplayQueued(events []Event, visit func(i int, sc []Context, st *Step) error) ([]*Step, error) {
	var q inflight
	return t.replay(events, visit, func(sc []Context, ev Event) (*Step, []Context, error) {
		st, view, nq, err := t.applyIn(sc, q, ev)
		q = nq
		return st, view, err
	})
}

// applyIn applies the rule for ev where view are the contexts after
// every stimulus sent and q the stimuli in flight: rule 6 for a
// stimulus, which joins the queue; rules 1-5 for δ after the whole
// queue, which empties it; rules 1-5 in queued semantics for an output.
// It returns the step, and the new view and queue.
func (t *Tester) applyIn(view []Context, q inflight, ev Event) (*Step, []Context, inflight, error) {
	if !ev.Stim && ev.Action != spec.Delta && len(q.sent) > 0 {
		st, nq, nview, err := t.applyQueued(q, view, ev)
		if err == nil {
			excuse(st, q.lost)
		}
		return st, nview, nq, err
	}
	st, err := t.Apply(view, ev)
	if err != nil {
		return nil, nil, q, err
	}
	excuse(st, q.lost)
	switch {
	case ev.Stim:
		q = q.push(view, st.Next, ev)
	case ev.Action == spec.Delta:
		q = q.drained()
	}
	return st, st.SC, q, nil
}
