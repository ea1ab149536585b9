package runner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
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
	// undecided names the guard (FILE:LINE:COL) whose truth the solver
	// could not decide on the way here, "" when every one was decided.
	undecided string
}

// sent is an input the tester has sent.
type sent struct {
	action string
	args   map[string]expr.Value
}

// maxHyps bounds the explanations a run keeps; a run that needs more ends
// Inconc (it never drops one and risks a false Fail).
const maxHyps = 256

// successors returns the states that st reaches by the action with the
// given argument values (a send when send is true, else an output of the
// SUT or delta), and whether some concrete state of st has no transition
// for it (gap). Each transition whose guard may hold gives a successor,
// whose path condition records the guard when it does not always hold.
func (x *execution) successors(st *symex.State, action string, args map[string]expr.Value, send bool) (next []hyp, gap bool, err error) {
	ts := x.r.receives[st.Loc]
	if send {
		ts = x.r.sends[st.Loc]
	}
	if vals, ok := st.Values(); ok {
		return x.groundSuccessors(st, vals, ts, action, args)
	}
	params := make(map[string]expr.Expr, len(args))
	for k, v := range args {
		params[k] = v.Expr()
	}
	var guards []expr.Expr
	var always *spec.Transition
	for _, t := range ts {
		if t.Action != action {
			continue
		}
		g, err := x.fold(st.Substitute(t.Guard, params))
		if err != nil {
			return nil, false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
		}
		truth, unknown, err := x.decide(st, g)
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
		ft, err := x.folded(st, t, params)
		if err != nil {
			return nil, false, err
		}
		h := hyp{st: st.Fire(ft, params, g, truth == symex.Always), via: t.Label()}
		if unknown {
			h.undecided = fmt.Sprintf("%s (guard of %s)", t.Pos, t.Label())
		}
		next = append(next, h)
	}
	if always != nil {
		return next, false, nil
	}
	if len(guards) == 0 {
		return nil, true, nil
	}
	truth, err := st.Decide(x.r.z, expr.OrOf(guards...))
	return next, truth != symex.Always, err
}

// groundSuccessors is successors for a state whose values are known:
// guards and assignments are evaluated exactly.
func (x *execution) groundSuccessors(st *symex.State, vals map[string]expr.Value, ts []*spec.Transition, action string, args map[string]expr.Value) ([]hyp, bool, error) {
	var taken *spec.Transition
	env := x.env(vals, args)
	for _, t := range ts {
		if t.Action != action {
			continue
		}
		ok, err := expr.EvalBool(t.Guard, env)
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
	taken, err := x.evaluated(taken, vals, args)
	if err != nil {
		return nil, false, err
	}
	next, err := st.FireValues(taken, args)
	if err != nil {
		return nil, false, err
	}
	return []hyp{{st: next, via: taken.Label()}}, false, nil
}

// replay returns the states st reaches by consuming the inputs qs in
// order (see consume).
func (x *execution) replay(st *symex.State, qs []sent) ([]*symex.State, error) {
	cur := []*symex.State{st}
	for _, s := range qs {
		var err error
		if cur, err = x.consume(cur, s); err != nil {
			return nil, err
		}
	}
	return cur, nil
}

// consume returns the states that the states cur reach by consuming the
// input s. Concrete states for which the test case has no transition for
// it are lost: the test case does not say what follows. A state at a
// verdict stays there: the verdict was reached first.
func (x *execution) consume(cur []*symex.State, s sent) ([]*symex.State, error) {
	var next []*symex.State
	for _, c := range cur {
		if x.r.tc.Verdict(c.Loc) != "" {
			next = append(next, c)
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
	return next, nil
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
	x.hyps, x.viewsOK, x.quiet = hs, false, nil
	for _, h := range hs {
		if h.undecided != "" && x.undecided == "" {
			x.undecided = h.undecided
		}
	}
}

// decide tells whether g holds in the concrete states of st, as
// symex.State.Decide does, and whether the solver left a query
// undecided (counted as possible, so that no state is dropped).
func (x *execution) decide(st *symex.State, g expr.Expr) (t symex.Truth, unknown bool, err error) {
	if t, ok := symex.Exact(g); ok {
		return t, false, nil
	}
	some, u1, err := x.possible(expr.AndOf(st.PC, g))
	if err != nil || !some {
		return symex.Never, u1, err
	}
	notAll, u2, err := x.possible(expr.AndOf(st.PC, expr.NotOf(g)))
	if err != nil {
		return symex.Never, u1, err
	}
	if notAll {
		// Sometimes: an undecided "not always" keeps g open, which is
		// sound; only an undecided "possible" is a guess.
		return symex.Sometimes, u1, nil
	}
	_ = u2
	return symex.Always, u1, nil
}

// possible reports whether e is satisfiable, and whether the solver
// could not tell (then true: possible).
func (x *execution) possible(e expr.Expr) (bool, bool, error) {
	r, err := x.r.z.Sat(e)
	if errors.Is(err, solver.ErrUnknown) {
		return true, true, nil
	}
	return r != solver.Unsat, false, err
}

// An explanation is what explain makes of an observation: the
// explanations it leaves (none: Fail) and, for the trace, the first
// transition to a Fail location that it met.
type explanation struct {
	hyps []hyp
	fail *hyp
}

// explain returns the explanations of an output (or of quiescence, when
// quiet) observed after the current ones: for an output, in every state
// the SUT may have emitted it from, having consumed a prefix of the
// queued inputs; for quiescence, after all of them. Explanations that
// reach Fail are dropped: the observation rules them out.
func (x *execution) explain(action string, args map[string]expr.Value, quiet bool) (explanation, error) {
	var e explanation
	seen := map[string]bool{}
	// An in-process SUT has answered before its Input returns: its
	// outputs cannot cross an input.
	crossing := x.timed && !quiet
	for _, h := range x.hyps {
		prefixes, err := x.prefixes(h, crossing)
		if err != nil {
			return e, err
		}
		// In order first (the SUT read every input before it answered):
		// the likeliest explanation is the one shown in the trace.
		for k := len(h.queue); k >= 0; k-- {
			for _, st := range prefixes[k] {
				if x.r.tc.Verdict(st.Loc) != "" {
					continue // explained by an earlier verdict: not here
				}
				next, _, err := x.successors(st, action, args, false)
				if err != nil {
					return e, err
				}
				for _, n := range next {
					n.queue = h.queue[k:]
					if n.undecided == "" {
						n.undecided = h.undecided
					}
					switch key := n.key(); {
					case x.r.tc.Verdict(n.st.Loc) == "fail":
						if e.fail == nil {
							e.fail = &n
						}
					case !seen[key]:
						seen[key] = true
						e.hyps = append(e.hyps, n)
					}
				}
			}
		}
	}
	return e, nil
}

// prefixes returns, for k = 0 .. len(h.queue), the states of h after the
// SUT consumed the first k queued inputs; without crossing, only the last
// (all consumed) is computed, the others are empty.
func (x *execution) prefixes(h hyp, crossing bool) ([][]*symex.State, error) {
	ps := make([][]*symex.State, len(h.queue)+1)
	if !crossing {
		var err error
		ps[len(h.queue)], err = x.replay(h.st, h.queue)
		return ps, err
	}
	ps[0] = []*symex.State{h.st}
	for k, s := range h.queue {
		var err error
		if ps[k+1], err = x.consume(ps[k], s); err != nil {
			return nil, err
		}
	}
	return ps, nil
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

// judge says what the states the run may be in mean: the verdict, with
// its reason, or none while the run goes on. An observation that no
// explanation allows (no state) is Fail, unless the tester lost track of
// some states by sending what the test case does not cover for them
// (then Inconc); Pass needs every state at Pass.
func (x *execution) judge(sts []*symex.State, undecided string) (Verdict, string) {
	var live, pass, inconc int
	for _, st := range sts {
		switch x.r.tc.Verdict(st.Loc) {
		case "pass":
			pass++
		case "inconc":
			inconc++
		default:
			live++
		}
	}
	switch {
	case len(sts) == 0 && x.lost:
		return Inconc, "no tracked state allows the observation, but the test case did not cover an input for some states"
	case len(sts) == 0:
		return Fail, ""
	case len(sts) > maxHyps:
		return Inconc, fmt.Sprintf("more than %d possible states: the observations do not tell which", maxHyps)
	case live > 0 && pass+inconc > 0:
		return Inconc, "the observations reach a verdict in some possible states and not in others"
	case live > 0:
		return 0, ""
	case inconc == 0 && !x.lost && undecided != "":
		return Inconc, "Pass only if an undecided solver answer holds: " + undecided + " could not be decided"
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

func describe(action string, args map[string]expr.Value) string {
	if len(args) == 0 {
		return action
	}
	var parts []string
	for _, k := range sortedKeys(args) {
		parts = append(parts, k+"="+args[k].String())
	}
	return action + "(" + strings.Join(parts, ", ") + ")"
}

// states returns the states of the explanations hs.
func states(hs []hyp) []*symex.State {
	sts := make([]*symex.State, len(hs))
	for i, h := range hs {
		sts[i] = h.st
	}
	return sts
}
