package online

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/summary"
	"github.com/stg-tool/stg/symex"
)

// A candidate is a symbolic input toward accept: a context (s, f) and a
// child n of s by an input, with TP(n) = skip.
type candidate struct {
	c Context
	n *symex.Node
}

// stimulus chooses the next stimulus, with the step of rule 6 it
// makes from the contexts after every stimulus in flight, or nil when
// the tester should wait for an output: when no context can progress by
// an input toward accept, and, with Options.AvoidCrossing on a Timed
// adapter, when some context allows an output (see outputPossible).
//
// For a candidate (s, f) --c?z--> n and an accept node a below n, it
// solves f ∧ π(a) for z (π(a) implies π(n), so the stimulus keeps a
// reachable: NextSkip is not empty), the values diversified by the
// run's seed as runner's planning does.
func (x *execution) stimulus() (*Event, *Step, error) { return x.stimulusOf("") }

// stimulusOf is stimulus, for inputs of the action named action only
// when it is not "".
func (x *execution) stimulusOf(action string) (*Event, *Step, error) {
	var cands []candidate
	for _, c := range x.sc {
		children, err := x.t.tp.x.Expand(c.Node)
		if err != nil {
			return nil, nil, err
		}
		for _, n := range children {
			if n.Action != nil && n.Action.Dir == spec.Input && x.t.tp.Label(n) == symex.Skip && (action == "" || n.Action.Name == action) {
				cands = append(cands, candidate{c, n})
			}
		}
	}
	if len(cands) == 0 {
		return nil, nil, nil
	}
	if x.timed && x.r.opts.AvoidCrossing {
		if out, err := x.outputPossible(); err != nil || out {
			return nil, nil, err
		}
	}
	tries := x.r.opts.Tries
	for _, i := range x.rng.Perm(len(cands)) {
		k := cands[i]
		targets := x.t.tp.Targets(k.n)
		for _, j := range x.rng.Perm(len(targets)) {
			goal := k.c.under(x.t.tp.Cond(targets[j]))
			for _, steer := range []bool{true, false} {
				if tries--; tries < 0 {
					return nil, nil, nil
				}
				ev, st, steered, err := x.try(goal, k.n, steer)
				if err != nil || st != nil {
					return ev, st, err
				}
				if !steered {
					break // the picking without the tables' solution is made
				}
			}
		}
	}
	return nil, nil, nil
}

// try solves goal for the input of n (steered by the tables' solution
// when steer is set, see solve) and returns the stimulus with its step
// when rule 6 applies to it; steered reports whether the values came
// from a solution.
func (x *execution) try(goal expr.Expr, n *symex.Node, steer bool) (ev *Event, st *Step, steered bool, err error) {
	args, ok, steered, err := x.solve(goal, n, steer)
	if unknownCall(err) || err == nil && !ok {
		return nil, nil, steered, nil
	}
	if err != nil {
		return nil, nil, steered, err
	}
	ev = &Event{Stim: true, Action: n.Action.Name, Args: args}
	st, err = x.t.Apply(x.sc, *ev)
	if unknownCall(err) {
		return nil, nil, steered, nil // values whose effect the tester cannot compute: not a stimulus
	}
	if err != nil || st.Rule != 6 {
		return nil, nil, steered, err
	}
	return ev, st, steered, nil
}

// unknownCall reports an error of a call whose inputs are in no table
// row of a function without implementation: a stimulus leading to it is
// one the tester cannot judge, so it tries another. Any other failure of
// an implementation (a crash, a timeout) ends the run.
func unknownCall(err error) bool { return errors.Is(err, extfunc.ErrNoImplementation) }

// outputPossible reports whether some context allows an output of the
// SUT (not δ). Only where none does can a stimulus not cross an output
// of a conformant SUT on the wire: with Options.AvoidCrossing the
// tester then waits instead.
func (x *execution) outputPossible() (bool, error) {
	for _, c := range x.sc {
		children, err := x.t.tp.x.Expand(c.Node)
		if err != nil {
			return false, err
		}
		for _, n := range children {
			if n.Action == nil || n.Action.Dir != spec.Output || n.Name == symex.DeltaName {
				continue
			}
			a, err := x.t.sat(c.under(n.State.PC))
			if err != nil || a != unsat {
				return err == nil, err
			}
		}
	}
	return false, nil
}

// solve returns values for the parameter symbols of n (the fresh
// symbols of the input) in a model of goal, or false when goal is not
// proved satisfiable. With steer, and when goal calls external functions
// on values still to choose, the picker asks first for the values of a
// solution of goal within the tables (steer); steered reports that one
// was found. Otherwise the values are steered toward the rows of the
// tables (tableHint). Either way they are values of a model of goal:
// the steering only chooses among them.
func (x *execution) solve(goal expr.Expr, n *symex.Node, steer bool) (vals map[string]expr.Value, ok, steered bool, err error) {
	goal, err = x.t.calls(goal)
	if err != nil {
		return nil, false, false, err
	}
	goal = symex.FoldGround(goal)
	if expr.IsFalse(goal) {
		return nil, false, false, nil
	}
	var sol map[string]expr.Value
	if steer && !x.r.opts.NoSteer {
		sol = x.steer(goal)
	}
	s := x.solver()
	base := s.Scopes()
	s.Push()
	defer s.PopTo(base)
	if err := s.Assert(goal); err != nil {
		return nil, false, false, err
	}
	if r, err := s.Check(); err != nil || r != solver.Sat {
		return nil, false, sol != nil, nil // unsat, or undecided: not a stimulus
	}
	if sol == nil {
		if _, err := x.tableHint(s, goal); err != nil { // popped with goal
			return nil, false, false, err
		}
	}
	picked, err := play.Picker{Rng: x.rng, Prefer: sol}.Pick(s, n.Args, []expr.Expr{goal})
	if errors.Is(err, play.ErrUndecided) {
		return nil, false, sol != nil, nil
	}
	if err != nil {
		return nil, false, false, err
	}
	args := make(map[string]expr.Value, len(n.Args))
	for i, p := range n.Action.Params {
		v, ok := picked[n.Args[i].Name]
		if !ok {
			v = play.RandomValue(x.rng, p.Type)
		}
		args[p.Name] = v
	}
	return args, true, sol != nil, nil
}

// SolveAttempts bounds the rounds of executions of the implementations
// in the search for a solution that steers a stimulus (the m of
// SolveTab, package summary).
const SolveAttempts = 8

// steer returns the values of a solution of goal within the tables of
// the external functions (summary.SolveCalls: SolveTab, Algorithm 1 of
// the function-summaries paper, on goal flattened): values of the
// symbols still to choose, the parameters of the input and of the
// steps after it, that realise the path to the target with every call a
// row, or nil when goal calls no function on them or there is none. The
// tables are the run's own (a copy of the registry's, made on first
// use), enriched by executing the implementations (up to SolveAttempts
// rounds): the rows learnt choosing one stimulus explain the next ones,
// and a run depends on its seed alone. A failure of an implementation
// only leaves the stimulus unsteered: the run meets it, and ends with
// it, if the values it sends need that call.
func (x *execution) steer(goal expr.Expr) map[string]expr.Value {
	if x.t.Funcs == nil || len(x.t.Funcs.Hints(goal)) == 0 {
		return nil // no call on values still to choose
	}
	if x.tab == nil {
		x.tab = x.t.Funcs.Tab()
	}
	x.solver() // makes the run's context
	res, err := summary.SolveCalls(x.s.Context, goal, x.t.tp.x.Spec().Funcs, x.tab, summary.Options{M: SolveAttempts, Exec: x.t.Funcs.Exec})
	if err != nil || !res.Found || res.Unknown {
		return nil
	}
	return res.Sol.Vars
}

// solver returns the run's solver: the stimuli of a run are solved in
// scopes of one solver, made on first use and closed when the run ends
// (closeSolver), rather than in a new solver each.
func (x *execution) solver() *solver.Solver {
	if x.s.Context == nil {
		z, err := solver.NewContext()
		if err != nil {
			panic(fmt.Sprintf("cannot start the solver: %v", err)) // the engine reports it as an error of the run
		}
		z.SetTimeout(StimulusTimeout)
		x.s.Context = z
	}
	return x.s.Get()
}

// tableHint steers the values toward the tables of the external
// functions that goal calls on values still to choose: it asserts, in a
// pushed scope of s, the summary Sums of all these calls (Def. 5 of the
// function-summaries paper: each call's inputs and result are a row of
// its table) or else of the innermost ones (whose arguments call
// nothing: the results of the others are then computed by the
// implementation once the arguments are sent), keeping the first that
// is satisfiable; now and then neither, for diversity. It reports
// whether it pushed a scope. The hint only chooses among the models of
// goal: the values sent still satisfy it, and the calls are evaluated
// exactly once their arguments are known, so a row steers but never
// decides a verdict.
func (x *execution) tableHint(s *solver.Solver, goal expr.Expr) (bool, error) {
	if x.t.Funcs == nil || x.rng.IntN(8) == 0 {
		return false, nil
	}
	return pushHint(s, x.t.Funcs.Hints(goal))
}

// pushHint asserts the first of hs that keeps s satisfiable, in a pushed
// scope, and reports whether it did.
func pushHint(s *solver.Solver, hs []expr.Expr) (bool, error) {
	for _, h := range hs {
		s.Push()
		if err := s.Assert(h); err != nil {
			s.Pop(1)
			return false, err
		}
		if r, err := s.Check(); err == nil && r == solver.Sat {
			return true, nil
		}
		s.Pop(1)
	}
	return false, nil
}
