package runner

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// Replaying a run (stg run --replay, and the candidates of shrinking)
// plays a fixed sequence of stimuli instead of choosing them: the SUT's
// outputs are judged by the test case as in any run, so a replay gives a
// sound verdict of its own.

// Stimulus is an input a replayed run sends: a send action of the test
// case with its argument values.
type Stimulus struct {
	Action string
	Args   map[string]spec.Value
	// Waits is how many observations (an output, or quiescence) the run
	// makes before sending it: those of the recorded run.
	Waits int
	// Toward, when not "", names a parameter whose value is solved
	// afresh: the value the test case allows there that is closest to
	// Target (shrinking asks for smaller values this way).
	Toward string
	Target spec.Value
}

// String prints the stimulus as "in(p=5)".
func (s Stimulus) String() string { return describe(s.Action, s.Args) }

// Script is what a replayed run does: it sends the stimuli in order,
// each after its observations, then observes the SUT until a verdict or
// until the SUT stays quiescent where it is.
type Script []Stimulus

// ScriptOf returns the stimuli of a run's trace, each with the
// observations made before it.
func ScriptOf(trace []Step) Script {
	var sc Script
	waits := 0
	for _, s := range trace {
		if s.Kind != Sent {
			waits++
			continue
		}
		args := make(map[string]spec.Value, len(s.Args))
		for _, b := range s.Args {
			args[b.Name] = b.Value
		}
		sc = append(sc, Stimulus{Action: s.Action, Args: args, Waits: waits})
		waits = 0
	}
	return sc
}

// ScriptFromTrace returns the stimuli of a trace file's events (FORMAT.md
// §5), typed against the send actions of the test case tc. An event that
// sends an action tc does not send, or ill-typed arguments, is an error
// FILE:LINE: message.
func ScriptFromTrace(tc *spec.Model, filename string, events []spec.TraceEvent) (Script, error) {
	var sc Script
	var errs spec.ErrorList
	waits := 0
	for _, ev := range events {
		if !ev.Send {
			waits++
			continue
		}
		pos := spec.Pos{File: filename, Line: ev.Line, Col: 1}
		a := tc.Action(ev.Action)
		if a == nil || a.Dir != spec.Send {
			errs = append(errs, &spec.Error{Pos: pos, Msg: fmt.Sprintf("%s is not a send action of test case %s", ev.Action, tc.Name)})
			continue
		}
		args, err := adapter.DecodeArgs(a, ev.Args)
		if err != nil {
			errs = append(errs, &spec.Error{Pos: pos, Msg: fmt.Sprintf("arguments of %s: %v", ev.Action, err)})
			continue
		}
		sc = append(sc, Stimulus{Action: ev.Action, Args: args, Waits: waits})
		waits = 0
	}
	return sc, errs.Err()
}

// TraceEvents returns the events of a run's trace as a trace file holds
// them (FORMAT.md §5): sends, outputs and quiescence (delta). An output
// that could not be read is written with the action "?".
func TraceEvents(trace []Step) []spec.TraceEvent {
	evs := make([]spec.TraceEvent, 0, len(trace))
	for _, s := range trace {
		ev := spec.TraceEvent{Send: s.Kind == Sent, Action: s.Action}
		switch {
		case s.Kind == Quiescence:
			ev.Action = spec.Delta
		case ev.Action == "":
			ev.Action = "?"
		}
		if len(s.Args) > 0 && s.Kind != Quiescence {
			ev.Args = make(map[string]any, len(s.Args))
			for _, b := range s.Args {
				ev.Args[b.Name] = b.Value
			}
		}
		evs = append(evs, ev)
	}
	return evs
}

// A StimulusError reports a stimulus of a replay that the test case does
// not allow where the run is.
type StimulusError struct {
	Index    int // from 1
	Stimulus Stimulus
	Location string
	State    string
}

func (e *StimulusError) Error() string {
	return fmt.Sprintf("stimulus %d, %s, is not allowed by the test case in %s (%s): the run went another way than the one replayed",
		e.Index, e.Stimulus, e.Location, e.State)
}

// Replay plays the script against sut: each stimulus after its recorded
// observations and the outputs already emitted. Exact replay (adapt
// false) sends the values recorded; a stimulus the test case does not
// allow at that point (with those values) ends the replay with a
// *StimulusError. An adapting replay (shrinking) waits for more
// observations until the stimulus is enabled and solves its values
// afresh, as close to the recorded ones as the test case allows, when
// those are not allowed; a stimulus it cannot send still ends it with a
// *StimulusError. Other errors are those of Run.
func (r *Runner) Replay(ctx context.Context, sut adapter.Adapter, sc Script, adapt bool) (*Result, error) {
	start := time.Now()
	x := &execution{
		r:    r,
		sut:  sut,
		rng:  rand.New(rand.NewPCG(0, 0x5354472d72756e)),
		hyps: []hyp{{st: r.init}},
		res:  &Result{},
	}
	x.listen = adapter.NewListener(sut, r.opts.timing(), &r.cal)
	runCtx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	x.ctx = runCtx
	defer x.closeSolver()
	err := x.playScript(ctx, runCtx, sc, adapt)
	if vs, verr := x.views(); verr == nil && len(vs) > 0 {
		x.res.Location = vs[0].Loc
	}
	x.res.Elapsed = time.Since(start)
	x.res.Latencies = x.listen.Latencies
	x.res.Window = x.listen.Window()
	return x.res, err
}

// ReplayOnce starts a SUT with start, replays sc against it and releases
// the SUT, as RunOnce does.
func ReplayOnce(ctx context.Context, r *Runner, start adapter.Starter, sc Script, adapt bool) (*Result, error) {
	sut, err := start(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", adapter.ErrSUTUnavailable, err)
	}
	defer sut.Close()
	return r.Replay(ctx, sut, sc, adapt)
}

func (x *execution) playScript(ctx, runCtx context.Context, sc Script, adapt bool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in the runner: %v", p)
		}
	}()
	for i, st := range sc {
		for k := 0; k < st.Waits && x.res.Verdict == 0; k++ {
			if _, err := x.observeOne(ctx, runCtx); err != nil {
				return err
			}
		}
		if err := x.drain(ctx, runCtx); err != nil || x.res.Verdict != 0 {
			return err
		}
		c, err := x.stimulus(st, adapt)
		for err == nil && c == nil && adapt && x.res.Verdict == 0 {
			var moved bool
			if moved, err = x.observeOne(ctx, runCtx); err != nil || !moved {
				break
			}
			c, err = x.stimulus(st, adapt)
		}
		switch {
		case err != nil || x.res.Verdict != 0:
			return err
		case c == nil:
			loc, state := x.location(), ""
			if x.cur != nil {
				state = x.cur.Describe(x.r.tc.Variables)
			}
			return &StimulusError{Index: i + 1, Stimulus: st, Location: loc, State: state}
		}
		if err := x.send(runCtx, c); err != nil {
			if runCtx.Err() != nil {
				return x.stopped(ctx, runCtx.Err(), err.Error())
			}
			return err
		}
		if x.res.Verdict != 0 {
			return nil
		}
	}
	for x.res.Verdict == 0 {
		moved, err := x.observeOne(ctx, runCtx)
		if err != nil {
			return err
		}
		if !moved && x.res.Verdict == 0 {
			return x.end(Inconc, "the replayed stimuli ended without a verdict: the SUT stays quiescent")
		}
	}
	return nil
}

// observeOne makes one observation: an output already emitted, or one
// waited for, or quiescence. moved is false when it was quiescence that
// left the run where it was (nothing more will happen without a
// stimulus) or when the run ended.
func (x *execution) observeOne(ctx, runCtx context.Context) (moved bool, err error) {
	if len(x.res.Trace) >= x.r.opts.MaxSteps {
		return false, x.end(Inconc, fmt.Sprintf("step limit: %d steps without a verdict", x.r.opts.MaxSteps))
	}
	if runCtx.Err() != nil {
		return false, x.stopped(ctx, runCtx.Err(), "")
	}
	before := x.hypsKey()
	out, err := x.sut.Receive(runCtx, 0)
	if err != nil {
		return false, x.receiveFailed(ctx, err)
	}
	if out != nil {
		return x.res.Verdict == 0, x.observe(out)
	}
	n := len(x.res.Trace)
	if err := x.wait(ctx, runCtx); err != nil {
		return false, err
	}
	if x.res.Verdict != 0 {
		return false, nil
	}
	quiet := len(x.res.Trace) > n && x.res.Trace[len(x.res.Trace)-1].Kind == Quiescence
	return !quiet || x.hypsKey() != before, nil
}

// drain takes the outputs the SUT has already emitted.
func (x *execution) drain(ctx, runCtx context.Context) error {
	for x.res.Verdict == 0 {
		out, err := x.sut.Receive(runCtx, 0)
		if err != nil {
			return x.receiveFailed(ctx, err)
		}
		if out == nil {
			return nil
		}
		if err := x.observe(out); err != nil {
			return err
		}
	}
	return nil
}

func (x *execution) hypsKey() string {
	keys := make([]string, len(x.hyps))
	for i, h := range x.hyps {
		keys[i] = h.key()
	}
	return strings.Join(keys, "\x01")
}

// stimulus returns the send of st from the state the tester is in: with
// its recorded values when the test case allows them; when adapting (or
// asked for with Toward), with values solved afresh. nil when no send
// transition of st's action is enabled.
func (x *execution) stimulus(st Stimulus, adapt bool) (*choice, error) {
	vs, err := x.views()
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	x.cur = vs[0]
	x.curVals, x.ground = x.cur.Values()
	a := x.r.tc.Action(st.Action)
	if a == nil {
		return nil, nil
	}
	var ts []*spec.Transition
	for _, t := range x.r.sends[x.cur.Loc] {
		if t.Action == st.Action {
			ts = append(ts, t)
		}
	}
	if st.Toward == "" && len(st.Args) == len(a.Params) {
		for _, t := range ts {
			ok, err := x.allows(t, st.Args)
			if err != nil || ok {
				if !ok {
					return nil, err
				}
				return &choice{t: t, args: st.Args}, nil
			}
		}
	}
	if !adapt && st.Toward == "" {
		return nil, nil
	}
	for _, t := range ts {
		c, err := x.solveNear(t, a, st)
		if err != nil || c != nil {
			return c, err
		}
	}
	return nil, nil
}

// solveNear solves values for the parameters of t that its guard allows
// in the current state: the one named st.Toward as close to st.Target as
// allowed, the others equal to st's values where allowed.
func (x *execution) solveNear(t *spec.Transition, a *spec.Action, st Stimulus) (*choice, error) {
	params := map[string]spec.Expr{}
	ids := make([]*spec.Ident, len(a.Params))
	for i, p := range a.Params {
		ids[i] = &spec.Ident{Name: p.Name, Kind: spec.ParamIdent, T: p.Type}
		params[p.Name] = ids[i]
	}
	g, err := x.fold(spec.Substitute(t.Guard, x.constants(), params))
	if err != nil {
		return nil, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
	}
	s := x.solver() // the run's, in scopes popped on return
	defer s.PopTo(s.Scopes())
	if ok, err := assertSat(s, spec.AndOf(x.cur.PC, g)); err != nil || !ok {
		return nil, err
	}
	for _, id := range ids {
		if id.Name == st.Toward {
			if err := closest(s, id, st.Target); err != nil {
				return nil, err
			}
		}
	}
	for _, id := range ids {
		if v, ok := st.Args[id.Name]; ok && id.Name != st.Toward {
			s.Push()
			if ok, err := assertSat(s, spec.Compare(spec.Eq, id, v.Expr())); err != nil {
				return nil, err
			} else if !ok {
				s.Pop(1)
			}
		}
	}
	if res, err := s.Check(); err != nil || res != solver.Sat {
		return nil, err
	}
	vals, err := modelValues(s, ids)
	if err != nil {
		return nil, err
	}
	return x.checked(t, a, ids, vals, false)
}

// modelValues returns the values of ids in the model of s's last
// satisfiable check (those the model gives).
func modelValues(s *solver.Solver, ids []*spec.Ident) (map[string]spec.Value, error) {
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	vals := map[string]spec.Value{}
	for _, id := range ids {
		if v, ok := lookup(m, id); ok {
			vals[id.Name] = v
		}
	}
	return vals, nil
}

// assertSat asserts e in a new scope and keeps it when the assertions
// stay satisfiable; otherwise it pops the scope and reports false.
func assertSat(s *solver.Solver, e spec.Expr) (bool, error) {
	s.Push()
	if err := s.Assert(e); err != nil {
		s.Pop(1)
		return false, err
	}
	res, err := s.Check()
	if err != nil || res != solver.Sat {
		s.Pop(1)
		return false, err
	}
	return true, nil
}

// closest asserts (in scopes it leaves open) that id is as close to
// target as the assertions of s (satisfiable) allow: equal when
// possible; for a number, within the least distance found by doubling
// and bisection.
func closest(s *solver.Solver, id *spec.Ident, target spec.Value) error {
	if !target.IsValid() || target.T.Kind != id.T.Kind {
		return nil
	}
	if ok, err := assertSat(s, spec.Compare(spec.Eq, id, target.Expr())); err != nil || ok || !id.T.IsNumeric() {
		return err
	}
	within := func(k *big.Int) (bool, error) {
		kv := spec.Value{T: id.T, Int: k}
		if id.T.Kind == spec.Real {
			kv = spec.RatValue(new(big.Rat).SetInt(k))
		}
		lo := spec.Compare(spec.Ge, id, spec.Arith(spec.Sub, target.Expr(), kv.Expr()))
		hi := spec.Compare(spec.Le, id, spec.Arith(spec.Add, target.Expr(), kv.Expr()))
		return assertSat(s, spec.AndOf(lo, hi))
	}
	// Doubling: the first k = 2^i within which a value lies.
	lo, hi := big.NewInt(0), big.NewInt(1)
	for i := 0; ; i++ {
		ok, err := within(hi)
		if err != nil {
			return err
		}
		if ok {
			s.Pop(1) // bisect below
			break
		}
		if i > 256 {
			return nil // unbounded above the reach of doubling: any value
		}
		lo.Set(hi)
		hi.Lsh(hi, 1)
	}
	// Bisection: no value within lo, one within hi.
	one := big.NewInt(1)
	for new(big.Int).Sub(hi, lo).Cmp(one) > 0 {
		mid := new(big.Int).Add(lo, hi)
		mid.Rsh(mid, 1)
		ok, err := within(mid)
		if err != nil {
			return err
		}
		if ok {
			s.Pop(1)
			hi = mid
		} else {
			lo = mid
		}
	}
	_, err := within(hi)
	return err
}

// Judge replays a recorded trace without a SUT: the stimuli are sent as
// recorded and the SUT's recorded outputs and quiescence are judged by
// the test case, as a run would have judged them. It gives the verdict
// the recorded run had, for comparison with a replay against the SUT.
func (r *Runner) Judge(ctx context.Context, filename string, events []spec.TraceEvent) (*Result, error) {
	sc, err := ScriptFromTrace(r.tc, filename, events)
	if err != nil {
		return nil, err
	}
	return r.Replay(ctx, &recorded{events: events}, sc, false)
}

// recorded plays back the outputs of a trace: an adapter with exact
// quiescence (a recorded delta is taken by a wait).
type recorded struct {
	events []spec.TraceEvent
	i      int
}

func (a *recorded) Send(ctx context.Context, in adapter.Input) error {
	for a.i < len(a.events) && !a.events[a.i].Send {
		a.i++ // outputs the replay did not wait for: not observed
	}
	if a.i < len(a.events) {
		a.i++
	}
	return ctx.Err()
}

func (a *recorded) Receive(ctx context.Context, wait time.Duration) (*adapter.Output, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if a.i >= len(a.events) || a.events[a.i].Send {
		return nil, nil
	}
	ev := a.events[a.i]
	if ev.Action == spec.Delta {
		if wait > 0 {
			a.i++
		}
		return nil, nil
	}
	a.i++
	return &adapter.Output{Action: ev.Action, Args: ev.Args}, nil
}

func (a *recorded) Close() error { return nil }
