package runner

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// execution is the oracle of one run of a test case (play.Oracle): the
// explanations of what was observed, and the tester's choices.
type execution struct {
	ctx   context.Context // the bound of the current choice: planning stops when it ends
	r     *Runner
	timed bool // the SUT's outputs may cross the inputs sent
	rng   *rand.Rand
	src   *rand.PCG // rng's source, saved and restored by Choose
	hyps  []hyp     // the explanations of what was observed
	lost  bool      // some states were dropped: a send the test case does not cover there
	// undecided names a guard that the solver could not decide on the way
	// to some explanation: a verdict then cannot be Pass.
	undecided string

	// taken holds the transition of each step the run has made, as the
	// oracle judged it ("" for none): planning follows its route on it.
	taken []string

	// the state the tester plans from (the first of views), its values
	// when it is ground
	cur     *symex.State
	curVals map[string]expr.Value
	ground  bool

	// stretch is the steps by which the Diverse strategy lengthens the
	// run's path to Pass (0: none, or given up), and target the trace
	// length it aims at once fixed (0: not yet).
	stretch, target int

	// s is the run's solver (made on first use, closed at the end of the
	// run): planning and the choice of values work in scopes of it, and
	// route is the path to Pass the run follows (plan.go).
	s     solver.Lazy
	route *route

	// views, once computed for the current hyps; quiet, the explanation
	// of quiescence, once computed for them.
	viewCache []*symex.State
	viewsOK   bool
	quiet     *explanation

	// last is the send the tester decided on last (Choose, Allow): the
	// transition it takes, for the trace.
	last *choice

	// seen holds the string values of the run's steps, candidates for
	// the strings to send (strings.go).
	seen []string
}

// Begin implements play.Route: the oracle of a run with seed.
func (r *Runner) Begin(seed int64, timed bool) (play.Oracle, error) {
	x := &execution{
		r:     r,
		timed: timed,
		hyps:  []hyp{{st: r.init}},
		s:     solver.Lazy{Context: r.z},
	}
	x.src = rand.NewPCG(uint64(seed), 0x5354472d72756e)
	x.rng = rand.New(x.src)
	x.stretch = stretchOf(seed, r.opts.Depth)
	return x, nil
}

// solver returns the run's solver. One solver serves the whole run, in
// scopes pushed and popped by each use, so that a run's choices depend on
// its seed alone and no check pays for making a solver.
func (x *execution) solver() *solver.Solver { return x.s.Get() }

// Close implements play.Oracle.
func (x *execution) Close() { x.s.Close() }

// Output implements play.Oracle: the receive actions of the test case,
// quiescence aside.
func (x *execution) Output(name string) *spec.Action {
	if a := x.r.tc.Action(name); a != nil && a.Dir == spec.Receive && name != spec.Delta {
		return a
	}
	return nil
}

// Observe implements play.Oracle: the explanations of an output or of
// quiescence, judged.
func (x *execution) Observe(o play.Observation) (play.Judgement, error) {
	x.see(o.Args)
	var e explanation
	var err error
	if o.Quiet && x.quiet != nil {
		e = *x.quiet
	} else if e, err = x.explain(o.Action, o.Args, o.Quiet); err != nil {
		return play.Judgement{}, err
	}
	return x.conclude(e), nil
}

// Quiet implements play.Oracle.
func (x *execution) Quiet() (Verdict, error) {
	if x.quiet == nil {
		e, err := x.explain(spec.Delta, nil, true)
		if err != nil {
			return play.None, err
		}
		x.quiet = &e
	}
	v, _ := x.judge(states(x.quiet.hyps), undecidedIn(x.quiet.hyps, x.undecided))
	return v, nil
}

// conclude moves to the explanations e and judges them.
func (x *execution) conclude(e explanation) play.Judgement {
	v, reason := x.judge(states(e.hyps), undecidedIn(e.hyps, x.undecided))
	var j play.Judgement
	switch {
	case len(e.hyps) > 0:
		x.setHyps(e.hyps)
		j.Transition, j.To = e.hyps[0].via, e.hyps[0].st.Loc
	case v == Fail && e.fail != nil:
		j.Transition, j.To = e.fail.via, e.fail.st.Loc
	}
	x.taken = append(x.taken, j.Transition)
	j.Verdict, j.Reason = v, reason
	x.describe(&j)
	return j
}

// describe sets the state after a step.
func (x *execution) describe(j *play.Judgement) {
	if vs, err := x.views(); err == nil && len(vs) > 0 {
		j.State = vs[0].Describe(x.r.tc.Variables)
		j.States = len(vs)
	}
}

// Choose implements play.Oracle (choose.go, plan.go). A choice to wait
// leaves no trace: the random source, the route and the Diverse target
// are as they were, so that whether the engine asked before an output
// arrived (a matter of timing) does not change the choices that follow,
// and a run depends on its seed and on what the SUT did alone.
func (x *execution) Choose(ctx context.Context) (*play.Stimulus, error) {
	x.ctx = ctx
	src, route, stretch, target := *x.src, x.route, x.stretch, x.target
	c, err := x.next()
	if c == nil && err == nil {
		*x.src, x.route, x.stretch, x.target = src, route, stretch, target
	}
	return x.stimulusOf(c), err
}

// Allow implements play.Oracle (replay.go).
func (x *execution) Allow(st play.Stimulus, adapt bool) (*play.Stimulus, error) {
	c, err := x.stimulus(st, adapt)
	return x.stimulusOf(c), err
}

func (x *execution) stimulusOf(c *choice) *play.Stimulus {
	x.last = c
	if c == nil {
		return nil
	}
	return &play.Stimulus{Action: c.t.Action, Args: c.args, Planned: c.planned}
}

// Send implements play.Oracle: every explanation queues the input.
func (x *execution) Send(st play.Stimulus) (play.Judgement, error) {
	x.see(st.Args)
	hs := make([]hyp, len(x.hyps))
	for i, h := range x.hyps {
		h.queue = append(h.queue[:len(h.queue):len(h.queue)], sent{st.Action, st.Args})
		hs[i] = h
	}
	var j play.Judgement
	if c := x.last; c != nil && c.t.Action == st.Action && maps.EqualFunc(c.args, st.Args, expr.Value.Equal) {
		j.Transition, j.To = c.t.Label(), c.t.To
	}
	x.last = nil
	x.setHyps(hs)
	x.taken = append(x.taken, j.Transition)
	vs, err := x.views()
	if err != nil {
		return j, err
	}
	if j.Transition == "" && len(vs) > 0 {
		j.To = vs[0].Loc
	}
	if v, reason := x.judge(vs, x.undecided); v != play.None && v != Fail {
		j.Verdict, j.Reason = v, reason
	}
	x.describe(&j)
	return j, nil
}

// Where implements play.Oracle: the location of the first state the
// tester plans from.
func (x *execution) Where() string {
	if vs, err := x.views(); err == nil && len(vs) > 0 {
		return vs[0].Loc
	}
	return x.hyps[0].st.Loc
}

// Key implements play.Oracle.
func (x *execution) Key() string {
	keys := make([]string, len(x.hyps))
	for i, h := range x.hyps {
		keys[i] = h.key()
	}
	return strings.Join(keys, "\x01")
}

// snapshot is what the oracle knows at a point of the run.
type snapshot struct {
	hyps      []hyp
	lost      bool
	undecided string
	taken     []string
}

// Snapshot implements play.Retracter.
func (x *execution) Snapshot() any {
	return snapshot{hyps: x.hyps, lost: x.lost, undecided: x.undecided, taken: slices.Clone(x.taken)}
}

// Restore implements play.Retracter; the route planned is dropped.
func (x *execution) Restore(s any) {
	sn := s.(snapshot)
	x.setHyps(sn.hyps)
	x.lost, x.undecided, x.taken = sn.lost, sn.undecided, slices.Clone(sn.taken)
	x.route, x.last = nil, nil
}

func sortedKeys(m map[string]expr.Value) []string {
	return slices.Sorted(maps.Keys(m))
}

// undecidedIn returns the first undecided guard of the explanations hs,
// or prev.
func undecidedIn(hs []hyp, prev string) string {
	for _, h := range hs {
		if prev == "" {
			prev = h.undecided
		}
	}
	return prev
}
