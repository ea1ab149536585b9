package online

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
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
			if tries--; tries < 0 {
				return nil, nil, nil
			}
			args, ok, err := x.solve(k.c.under(x.t.tp.Cond(targets[j])), k.n)
			if unknownCall(err) {
				continue
			}
			if err != nil {
				return nil, nil, err
			}
			if !ok {
				continue
			}
			ev := &Event{Stim: true, Action: k.n.Action.Name, Args: args}
			st, err := x.t.Apply(x.sc, *ev)
			if unknownCall(err) {
				continue // values whose effect the tester cannot compute: not a stimulus
			}
			if err != nil {
				return nil, nil, err
			}
			if st.Rule == 6 {
				return ev, st, nil
			}
		}
	}
	return nil, nil, nil
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
// proved satisfiable.
func (x *execution) solve(goal spec.Expr, n *symex.Node) (map[string]spec.Value, bool, error) {
	goal, err := x.t.calls(goal)
	if err != nil {
		return nil, false, err
	}
	goal = symex.FoldGround(goal)
	if spec.IsFalse(goal) {
		return nil, false, nil
	}
	s := x.solver()
	base := s.Scopes()
	s.Push()
	defer s.PopTo(base)
	if err := s.Assert(goal); err != nil {
		return nil, false, err
	}
	if r, err := s.Check(); err != nil || r != solver.Sat {
		return nil, false, nil // unsat, or undecided: not a stimulus
	}
	if _, err := x.tableHint(s, goal); err != nil { // popped with goal
		return nil, false, err
	}
	vals, err := x.pick(s, n.Args)
	if err != nil {
		return nil, false, err
	}
	args := make(map[string]spec.Value, len(n.Args))
	for i, p := range n.Action.Params {
		v, ok := vals[n.Args[i].Name]
		if !ok {
			v = x.randomValue(p.Type)
		}
		args[p.Name] = v
	}
	return args, true, nil
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
func (x *execution) tableHint(s *solver.Solver, goal spec.Expr) (bool, error) {
	if x.t.Funcs == nil || x.rng.IntN(8) == 0 {
		return false, nil
	}
	return pushHint(s, x.t.Funcs.Hints(goal))
}

// pushHint asserts the first of hs that keeps s satisfiable, in a pushed
// scope, and reports whether it did.
func pushHint(s *solver.Solver, hs []spec.Expr) (bool, error) {
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

// pick returns values, in a model of the assertions of s (satisfiable),
// for ids, diversified by the run's random source as runner/plan.go's
// pick: for each identifier in random order it asks for a value equal
// to a random small target, else near the solver's value (equal, at
// least or at most), keeping the first hint that stays satisfiable;
// sometimes it gives no hint, and the solver's own model, typically on
// a boundary of the guard, is taken.
func (x *execution) pick(s *solver.Solver, ids []*spec.Ident) (map[string]spec.Value, error) {
	pushed := 0
	defer func() {
		if pushed > 0 {
			s.Pop(pushed)
		}
	}()
	try := func(hs []spec.Expr) (bool, error) {
		for _, h := range hs {
			s.Push()
			if err := s.Assert(h); err != nil {
				s.Pop(1)
				return false, err
			}
			if r, err := s.Check(); err != nil || r != solver.Sat {
				s.Pop(1)
				if err != nil {
					return false, err
				}
				continue
			}
			pushed++
			return true, nil
		}
		return false, nil
	}
	for _, i := range x.rng.Perm(len(ids)) {
		id := ids[i]
		if x.rng.IntN(8) == 0 {
			continue
		}
		ok, err := try(x.hints(id, x.randomValue(id.T))[:1])
		if err != nil {
			return nil, err
		}
		if ok || !id.T.IsNumeric() {
			continue
		}
		m, err := model(s)
		if err != nil {
			return nil, err
		}
		if v, found := m[id.Name]; found {
			if _, err := try(x.hints(id, x.near(v))); err != nil {
				return nil, err
			}
		}
	}
	m, err := model(s)
	if err != nil {
		return nil, err
	}
	vals := map[string]spec.Value{}
	for _, id := range ids {
		if v, found := m[id.Name]; found {
			vals[id.Name] = v
		}
	}
	return vals, nil
}

// model returns the values of the symbols in a model of s; none when s
// is not proved satisfiable.
func model(s *solver.Solver) (map[string]spec.Value, error) {
	if r, err := s.Check(); err != nil || r != solver.Sat {
		return nil, err
	}
	m, err := s.Model()
	if err != nil {
		return nil, err
	}
	return m.Vars, nil
}

// hints returns soft targets for the value of id, most specific first:
// equal to v, then at least or at most v.
func (x *execution) hints(id *spec.Ident, v spec.Value) []spec.Expr {
	eq := spec.Compare(spec.Eq, id, v.Expr())
	if !id.T.IsNumeric() {
		return []spec.Expr{eq}
	}
	ge, le := spec.Compare(spec.Ge, id, v.Expr()), spec.Compare(spec.Le, id, v.Expr())
	if x.rng.IntN(2) == 0 {
		ge, le = le, ge
	}
	return []spec.Expr{eq, ge, le}
}

// near returns a random number a small distance from v.
func (x *execution) near(v spec.Value) spec.Value { return play.Near(x.rng, v) }

// randomValue returns a random value of type t (play.RandomValue).
func (x *execution) randomValue(t spec.Type) spec.Value { return play.RandomValue(x.rng, t) }
