package online

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec"
)

// AfterWeakPass says what an on-line run does on WeakPass
// (Options.AfterWeakPass).
type AfterWeakPass string

// The policies after WeakPass.
const (
	// Stop ends the run on WeakPass (rule 5), as the paper's tester does.
	Stop AfterWeakPass = "stop"
	// Observe goes on observing after WeakPass, without stimulating:
	// the later outputs, and quiescence, may refute the explanations of
	// one kind, and tell Pass from WeakPass.
	Observe AfterWeakPass = "observe"
)

// ParseAfterWeakPass reads "stop" or "observe".
func ParseAfterWeakPass(s string) (AfterWeakPass, error) {
	switch a := AfterWeakPass(s); a {
	case Stop, Observe:
		return a, nil
	}
	return "", fmt.Errorf("after WeakPass: %q is neither stop nor observe", s)
}

// DefaultObserveLimit bounds the observations after WeakPass
// (Options.ObserveLimit).
const DefaultObserveLimit = 16

// Observing is the rule of a step observed after WeakPass
// (Options.AfterWeakPass Observe): not one of the paper's rules, but
// rules 1-5 on the run's explanations, each one known to have reached an
// accept node (Context.Accepted) or not. With Next the successors of the
// event from the contexts:
//
//	Next = ∅                                  Fail (rule 2: an unspecified output)
//	every context of Next accepted, decided   Pass
//	no context of Next accepted               Inconc (the target was not reached)
//	both kinds, after δ or the last
//	observation allowed                       WeakPass
//	both kinds otherwise                      SC := Next, observe on
//
// Fail is judged as by rule 2 on more observations: a conformant SUT
// never gets it. An explanation that reaches an accept node while
// observed becomes accepted.
const Observing Rule = -2

// watching is what an execution observing after WeakPass knows: the
// event of the WeakPass, and the observations made since.
type watching struct {
	began string
	seen  int
}

// watch begins observing after the WeakPass st (the run goes on from
// its explanations: view, the contexts after the stimuli in flight q,
// when the output was judged in queued semantics, else Next closed
// under internal transitions), or reports false when it cannot or need
// not: with stimuli still in flight (whose consumption observation
// would have to follow), too many contexts, or on quiescence (the SUT,
// left without stimuli, stays quiescent).
func (x *execution) watch(st *Step, view []Context, q inflight) (play.Judgement, bool) {
	if x.r.opts.AfterWeakPass != Observe || len(q.sent) > 0 || st.Event.Action == spec.Delta {
		return play.Judgement{}, false
	}
	sc := view
	if sc == nil {
		var err error
		if sc, err = x.t.closure(st.Next); err != nil {
			return play.Judgement{}, false
		}
	}
	x.sc, x.q, x.quiet, x.w = sc, q, nil, &watching{began: st.Event.String()}
	return play.Judgement{Transition: st.Rule.String() + ", observe", To: nodes(sc, st),
		State: fmt.Sprintf("%d context(s)", len(sc)), States: 1, Detail: st}, true
}

// observed applies the rule Observing to ev from sc; seen counts the
// observations after WeakPass with this one, last reports that it is
// the last one allowed.
func (t *Tester) observed(sc []Context, ev Event, began string, seen int, last bool) (*Step, error) {
	st := &Step{Event: ev, Rule: Observing}
	if err := t.successors(sc, st); err != nil {
		return nil, err
	}
	acc, undecided := 0, false
	for _, c := range st.Next {
		if c.Accepted {
			acc++
			undecided = undecided || c.Undecided
		}
	}
	after := fmt.Sprintf("after WeakPass on %s, %d observation(s)", began, seen)
	switch {
	case len(st.Next) == 0:
		st.Rule, st.Verdict, st.Reason = 2, Fail, reason(&Step{Event: ev, Rule: 2})+"; "+after
	case acc == len(st.Next) && !undecided:
		st.Verdict = Pass
		st.Reason = fmt.Sprintf("%s: %s leaves only explanations that reached accept (%s)", after, ev, paths(st.Next))
	case acc == 0:
		st.Verdict = Inconc
		st.Reason = fmt.Sprintf("%s: %s refutes every explanation that reached accept; %s remain(s)", after, ev, paths(st.Next))
	case ev.Action == spec.Delta || last:
		st.Verdict = WeakPass
		st.Reason = fmt.Sprintf("%s: %s leaves both kinds of explanations, %s", after, ev, kinds(st.Next))
	default:
		var err error
		if st.SC, err = t.closure(st.Next); errors.Is(err, errTooMany) {
			st.SC, st.Verdict = nil, WeakPass
			st.Reason = fmt.Sprintf("%s: more than %d contexts explain the run", after, t.MaxContexts)
		} else if err != nil {
			return nil, err
		}
		if st.Verdict == None {
			st.Reason = fmt.Sprintf("%s keeps both kinds of explanations, %s", ev, kinds(st.Next))
		}
	}
	return st, nil
}

// kinds prints the accepted and the other contexts of cs.
func kinds(cs []Context) string {
	var acc, other []Context
	for _, c := range cs {
		if c.Accepted {
			acc = append(acc, c)
		} else {
			other = append(other, c)
		}
	}
	return fmt.Sprintf("accepted %s and not %s", paths(acc), paths(other))
}

// observeWatching judges an observation after WeakPass.
func (x *execution) observeWatching(ev Event) (*Step, error) {
	last := x.w.seen+1 >= x.r.opts.ObserveLimit || x.steps >= x.r.opts.MaxSteps
	st, err := x.t.observed(x.sc, ev, x.w.began, x.w.seen+1, last)
	if err != nil {
		return nil, err
	}
	excuse(st, x.q.lost)
	return st, nil
}

// ReplayObserving is Replay under Options.AfterWeakPass Observe, as an
// on-line run judges its events (with no stimulus in flight): a WeakPass
// on an output begins the observation, its step returned with Verdict
// None and the contexts SC observed on (WriteStep says so); each later
// event is judged by the rule Observing, the limit-th (ObserveLimit,
// DefaultObserveLimit when limit <= 0) being the last allowed. A
// stimulus after the WeakPass is an error: an on-line run sends none.
func (t *Tester) ReplayObserving(events []Event, limit int, visit func(i int, sc []Context, st *Step) error) ([]*Step, error) {
	if limit <= 0 {
		limit = DefaultObserveLimit
	}
	var w *watching
	return t.replay(events, visit, func(sc []Context, ev Event) (*Step, []Context, error) {
		if w != nil {
			if ev.Stim {
				return nil, nil, fmt.Errorf("a stimulus after WeakPass on %s: an on-line run observing after WeakPass sends none", w.began)
			}
			st, err := t.observed(sc, ev, w.began, w.seen+1, w.seen+1 >= limit)
			if err != nil {
				return nil, nil, err
			}
			w.seen++
			return st, st.SC, nil
		}
		st, err := t.Apply(sc, ev)
		if err != nil || st.Verdict != WeakPass || ev.Action == spec.Delta {
			return st, stepSC(st), err
		}
		next, err := t.closure(st.Next)
		if err != nil {
			return st, nil, nil // the WeakPass stands, as in a run (watch)
		}
		w = &watching{began: ev.String()}
		begun := *st
		begun.Verdict, begun.SC = None, next
		return &begun, next, nil
	})
}

// stepSC returns st.SC, nil for no step.
func stepSC(st *Step) []Context {
	if st == nil {
		return nil
	}
	return st.SC
}
