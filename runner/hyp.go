package runner

import (
	"fmt"
	"github.com/stg-tool/stg/adapter"
	"strings"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// A hyp is one explanation of what the run has observed so far: a
// symbolic state of the test case (a location and the variables, known
// or symbolic), reached assuming the SUT has consumed all the inputs sent
// before queue and none of those in queue. Inputs and outputs cross on
// the wire: the SUT may emit an output before it reads an input the
// tester has already sent, so the runner judges an output in every state
// the SUT may have been in when it emitted it (queued semantics).
type hyp struct {
	st    *symex.State
	queue []sent
	via   string // the transition that led here, for the trace
}

// sent is an input the tester has sent.
type sent struct {
	action string
	args   map[string]spec.Value
}

// maxHyps bounds the explanations a run keeps; a run that needs more ends
// Inconc (it never drops one and risks a false Fail).
const maxHyps = 256

// successors returns the states that st reaches by the action with the
// given argument values (a send when send is true, else an output of the
// SUT or delta), and whether some concrete state of st has no transition
// for it (gap). Each transition whose guard may hold gives a successor,
// whose path condition records the guard when it does not always hold.
func (x *execution) successors(st *symex.State, action string, args map[string]spec.Value, send bool) (next []hyp, gap bool, err error) {
	ts := x.r.receives[st.Loc]
	if send {
		ts = x.r.sends[st.Loc]
	}
	if vals, ok := st.Values(); ok {
		return x.groundSuccessors(st, vals, ts, action, args)
	}
	params := make(map[string]spec.Expr, len(args))
	for k, v := range args {
		params[k] = v.Expr()
	}
	var guards []spec.Expr
	var always *spec.Transition
	for _, t := range ts {
		if t.Action != action {
			continue
		}
		g := st.Substitute(t.Guard, params)
		truth, err := st.Decide(x.r.z, g)
		if err != nil {
			return nil, false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
		}
		if truth == symex.Never {
			continue
		}
		if truth == symex.Always {
			if always != nil {
				return nil, false, fmt.Errorf("the test case is not deterministic: %s and %s both accept %s in %s",
					always.Label(), t.Label(), describe(action, args), st.Loc)
			}
			always = t
		}
		guards = append(guards, g)
		next = append(next, hyp{st: st.Fire(t, params, g, truth == symex.Always), via: t.Label()})
	}
	if always != nil {
		return next, false, nil
	}
	if len(guards) == 0 {
		return nil, true, nil
	}
	truth, err := st.Decide(x.r.z, spec.OrOf(guards...))
	return next, truth != symex.Always, err
}

// groundSuccessors is successors for a state whose values are known:
// guards and assignments are evaluated exactly.
func (x *execution) groundSuccessors(st *symex.State, vals map[string]spec.Value, ts []*spec.Transition, action string, args map[string]spec.Value) ([]hyp, bool, error) {
	var taken *spec.Transition
	env := spec.Valuation{Vars: vals, Params: args}
	for _, t := range ts {
		if t.Action != action {
			continue
		}
		ok, err := spec.EvalBool(t.Guard, env)
		if err != nil {
			return nil, false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
		}
		if !ok {
			continue
		}
		if taken != nil {
			return nil, false, fmt.Errorf("the test case is not deterministic: %s and %s both accept %s in %s",
				taken.Label(), t.Label(), describe(action, args), st.Loc)
		}
		taken = t
	}
	if taken == nil {
		return nil, true, nil
	}
	next, err := st.FireValues(taken, args)
	if err != nil {
		return nil, false, err
	}
	return []hyp{{st: next, via: taken.Label()}}, false, nil
}

// replay returns the states st reaches by consuming the inputs qs in
// order. Concrete states of st for which the test case has no transition
// for one of them are lost: the test case does not say what follows.
func (x *execution) replay(st *symex.State, qs []sent) ([]*symex.State, error) {
	cur := []*symex.State{st}
	for _, s := range qs {
		var next []*symex.State
		for _, c := range cur {
			if x.r.tc.Verdict(c.Loc) != "" {
				next = append(next, c) // a verdict was reached first
				continue
			}
			hs, gap, err := x.successors(c, s.action, s.args, true)
			if err != nil {
				return nil, err
			}
			x.lost = x.lost || gap
			for _, h := range hs {
				next = append(next, h.st)
			}
		}
		cur = next
	}
	return cur, nil
}

// views returns the states the tester is in once the SUT has consumed
// every input sent: where it plans its next move.
func (x *execution) views() ([]*symex.State, error) {
	if x.viewsOK {
		return x.viewCache, nil
	}
	var out []*symex.State
	for _, h := range x.hyps {
		sts, err := x.replay(h.st, h.queue)
		if err != nil {
			return nil, err
		}
		out = append(out, sts...)
	}
	x.viewCache, x.viewsOK = out, true
	return out, nil
}

// setHyps replaces the explanations of the run.
func (x *execution) setHyps(hs []hyp) {
	x.hyps, x.viewsOK = hs, false
}

// explain returns the explanations of an output (or of quiescence, when
// quiet) observed after the current ones: for an output, in every state
// the SUT may have emitted it from, having consumed a prefix of the
// queued inputs; for quiescence, after all of them. Explanations that
// reach Fail are dropped: the observation rules them out.
func (x *execution) explain(action string, args map[string]spec.Value, quiet bool) ([]hyp, error) {
	x.failVia, x.failTo = "", ""
	var out []hyp
	seen := map[string]bool{}
	for _, h := range x.hyps {
		// In order first (the SUT read every input before it answered):
		// the likeliest explanation is the one shown in the trace.
		// An in-process SUT has answered before its Input returns: its
		// outputs cannot cross an input.
		to := 0
		if _, timed := x.sut.(adapter.Timed); quiet || !timed {
			to = len(h.queue)
		}
		for k := len(h.queue); k >= to; k-- {
			sts, err := x.replay(h.st, h.queue[:k])
			if err != nil {
				return nil, err
			}
			for _, st := range sts {
				if x.r.tc.Verdict(st.Loc) != "" {
					continue // explained by an earlier verdict: not here
				}
				next, _, err := x.successors(st, action, args, false)
				if err != nil {
					return nil, err
				}
				for _, n := range next {
					if x.r.tc.Verdict(n.st.Loc) == "fail" {
						if x.failVia == "" {
							x.failVia, x.failTo = n.via, n.st.Loc
						}
						continue
					}
					n.queue = h.queue[k:]
					if key := n.key(); !seen[key] {
						seen[key] = true
						out = append(out, n)
					}
				}
			}
		}
	}
	return out, nil
}

// key identifies a hyp for de-duplication.
func (h hyp) key() string {
	var b strings.Builder
	b.WriteString(h.st.String())
	for _, s := range h.queue {
		b.WriteString("\x00" + describe(s.action, s.args))
	}
	return b.String()
}

// judge says what the explanations of the run so far mean: the verdict,
// with its reason, or none while the run goes on. An observation that no
// explanation allows is Fail, unless the tester lost track of some
// states by sending what the test case does not cover for them (then
// Inconc); Pass needs every explanation at Pass.
func (x *execution) judge(hs []hyp) (Verdict, string) {
	var live, pass, inconc int
	for _, h := range hs {
		switch x.r.tc.Verdict(h.st.Loc) {
		case "pass":
			pass++
		case "inconc":
			inconc++
		default:
			live++
		}
	}
	switch {
	case len(hs) == 0 && x.lost:
		return Inconc, "no tracked state allows the observation, but the test case did not cover an input for some states"
	case len(hs) == 0:
		return Fail, ""
	case len(hs) > maxHyps:
		return Inconc, fmt.Sprintf("more than %d possible states: the observations do not tell which", maxHyps)
	case live > 0 && pass+inconc > 0:
		return Inconc, "the observations reach a verdict in some possible states and not in others"
	case live > 0:
		return 0, ""
	case inconc == 0 && !x.lost:
		return Pass, ""
	case inconc == 0:
		return Inconc, "Pass in every tracked state, but the test case did not cover an input for some states"
	}
	if pass > 0 {
		return Inconc, "Pass in some possible states, Inconc in others"
	}
	return Inconc, ""
}

func describe(action string, args map[string]spec.Value) string {
	if len(args) == 0 {
		return action
	}
	var parts []string
	for _, k := range sortedKeys(args) {
		parts = append(parts, k+"="+args[k].String())
	}
	return action + "(" + strings.Join(parts, ", ") + ")"
}
