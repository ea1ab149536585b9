package runner

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// choice is a send the tester has decided on.
type choice struct {
	t       *spec.Transition
	args    map[string]expr.Value
	planned bool
}

// next decides what the tester does in the current state: send (a
// choice) or wait for the SUT (nil). See the package documentation.
func (x *execution) next() (*choice, error) {
	vs, err := x.views()
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	x.cur = vs[0]
	x.curVals, x.ground = x.cur.Values()
	sends := x.r.sends[x.cur.Loc]
	if len(sends) == 0 {
		return nil, nil
	}
	if x.r.opts.Depth > 0 && x.r.opts.Plan != Walk {
		c, wait, err := x.plan()
		if err != nil {
			return nil, err
		}
		if c != nil || wait {
			return c, nil
		}
	}
	return x.randomSend(sends)
}

// randomSend picks an enabled send transition at random and values for
// its parameters; nil when no send is enabled. A send whose values
// nothing decides (ErrUndecided) gives way to the others; the error is
// returned when no other send is enabled.
func (x *execution) randomSend(sends []*spec.Transition) (*choice, error) {
	consts := x.constants()
	var undecidedErr error
	for _, i := range x.rng.Perm(len(sends)) {
		t := sends[i]
		c, err := x.sendValues(t, consts)
		if errors.Is(err, ErrUndecided) {
			undecidedErr = err
			continue
		}
		if err != nil || c != nil {
			return c, err
		}
	}
	return nil, undecidedErr
}

// sendValues looks for values of t's parameters that its guard allows;
// nil when it is disabled.
func (x *execution) sendValues(t *spec.Transition, consts map[string]expr.Expr) (*choice, error) {
	a := x.r.tc.Action(t.Action)
	params := map[string]expr.Expr{}
	var ids []*expr.Ident
	for _, p := range a.Params {
		id := &expr.Ident{Name: p.Name, Kind: expr.ParamIdent, T: p.Type}
		params[p.Name] = id
		ids = append(ids, id)
	}
	// A guard that calls functions on the parameters is solved
	// with the calls uninterpreted: the values are then checked
	// exactly, and refused ones replaced (see calls.go).
	tries := 1
	if extfunc.HasCall(t.Guard) {
		tries = callTries
	}
	for range tries {
		c, next, err := x.trySend(t, a, consts, params, ids)
		if err != nil || c != nil || !next {
			return c, err
		}
	}
	return nil, nil
}

// callTries bounds the attempts at values for a send whose guard calls
// external functions.
const callTries = 8

// trySend makes one attempt at values for t; again is false when
// another attempt is pointless (t is disabled).
func (x *execution) trySend(t *spec.Transition, a *spec.Action, consts, params map[string]expr.Expr, ids []*expr.Ident) (c *choice, again bool, err error) {
	// Most guards admit a random small value, or read no parameter:
	// exact evaluation then decides without the solver.
	if c, decided, err := x.guess(t, a); err != nil || c != nil {
		return c, false, err
	} else if decided {
		return nil, false, nil
	}
	g, err := x.fold(expr.Substitute(t.Guard, consts, params))
	if err != nil {
		return nil, false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
	}
	guard := expr.AndOf(x.cur.PC, g)
	if expr.IsFalse(guard) {
		return nil, false, nil
	}
	s := x.solver()
	base := s.Scopes()
	s.Push()
	args, ok, err := x.solveAndPick(s, guard, ids)
	s.PopTo(base)
	if err != nil || !ok {
		return nil, false, err
	}
	c, err = x.checked(t, a, ids, args, false)
	return c, true, err
}

// guess tries t with random small parameter values (the hint "equal to a
// random target" of pick, checked by exact evaluation); string
// parameters take the candidates of the guard (strings.go). decided is
// true when t, having no parameters, is disabled.
func (x *execution) guess(t *spec.Transition, a *spec.Action) (c *choice, decided bool, err error) {
	if !x.ground || len(a.Params) > 0 && x.rng.IntN(8) == 0 && guessTries(a) == 1 {
		return nil, false, nil // leave it to the solver: a boundary value (strings have none: strings.go)
	}
	cands := x.guardCandidates(t, a)
	for k := range guessTries(a) { // strings.go: more tries when strings are drawn
		args := make(map[string]expr.Value, len(a.Params))
		for _, p := range a.Params {
			if cs := cands[p.Name]; len(cs) > 0 && k%4 != 3 {
				args[p.Name] = expr.StringValue(cs[(k-k/4)%len(cs)])
				continue
			}
			args[p.Name] = x.randomValue(p.Type)
		}
		if k%4 == 3 {
			x.relateStrings(a, args)
		}
		ok, err := expr.EvalBool(t.Guard, x.env(x.curVals, args))
		if err != nil {
			// Say a division by zero for these values, or a call that
			// fails: ask the solver (allows reports the call's error).
			return nil, false, nil
		}
		if ok {
			return &choice{t: t, args: args}, true, nil
		}
	}
	return nil, len(a.Params) == 0, nil
}

// guardCandidates returns the string candidates of t's guard for each
// string parameter of a, in the state the tester plans from (ground).
func (x *execution) guardCandidates(t *spec.Transition, a *spec.Action) map[string][]string {
	if guessTries(a) == 1 || t.Guard == nil {
		return nil
	}
	params := map[string]expr.Expr{}
	for _, p := range a.Params {
		params[p.Name] = &expr.Ident{Name: p.Name, Kind: expr.ParamIdent, T: p.Type}
	}
	g := expr.Substitute(t.Guard, x.constants(), params)
	out := map[string][]string{}
	for _, p := range a.Params {
		if p.Type == expr.StringType {
			out[p.Name] = x.stringCandidates(params[p.Name].(*expr.Ident), []expr.Expr{g}, nil)
		}
	}
	return out
}

func (x *execution) solveAndPick(s *solver.Solver, guard expr.Expr, ids []*expr.Ident) (map[string]expr.Value, bool, error) {
	if err := s.Assert(guard); err != nil {
		return nil, false, err
	}
	res, err := s.Check()
	if err != nil || res == solver.Unsat {
		return nil, false, err
	}
	if res == solver.Unknown && !hasStringIdent(ids) {
		return nil, false, undecided(ids[0], []expr.Expr{guard})
	}
	// With strings an unknown answer is no verdict on the guard: the
	// candidates of pick may still decide (pickString).
	vals, err := x.pickStrict(s, ids, []expr.Expr{guard})
	return vals, err == nil, err
}

// checked turns solver values for the parameters ids of t into a choice,
// after checking exactly that they satisfy t's guard (a safeguard: the
// tester must never send what the test case does not allow).
func (x *execution) checked(t *spec.Transition, a *spec.Action, ids []*expr.Ident, vals map[string]expr.Value, planned bool) (*choice, error) {
	args := map[string]expr.Value{}
	for i, p := range a.Params {
		v, ok := vals[ids[i].Name]
		if !ok {
			v = x.randomValue(p.Type)
		}
		args[p.Name] = v
	}
	ok, err := x.allows(t, args)
	if err != nil {
		return nil, err
	}
	if !ok {
		// The solver's reals or integer division disagree with exact
		// evaluation (only possible in a non-linear guard): skip.
		return nil, nil
	}
	return &choice{t: t, args: args, planned: planned}, nil
}

// allows reports whether t with the parameter values args may fire in
// the state the tester plans from (exactly, when that state is known).
func (x *execution) allows(t *spec.Transition, args map[string]expr.Value) (bool, error) {
	if x.ground {
		ok, err := expr.EvalBool(t.Guard, x.env(x.curVals, args))
		if err != nil {
			return false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
		}
		return ok, nil
	}
	params := make(map[string]expr.Expr, len(args))
	for k, v := range args {
		params[k] = v.Expr()
	}
	g, err := x.fold(x.cur.Substitute(t.Guard, params))
	if err != nil {
		return false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
	}
	truth, err := x.cur.Decide(x.r.z, g)
	if err != nil {
		return false, fmt.Errorf("%s: guard of %s: %v", t.Pos, t.Label(), err)
	}
	return truth != symex.Never, nil
}

// constants maps the variables to their values in the state the tester
// plans from: constants, or expressions over symbols.
func (x *execution) constants() map[string]expr.Expr { return x.cur.Vars }

// randomValue returns a random value of type t (play.RandomValue), a
// random word for a string.
func (x *execution) randomValue(t expr.Type) expr.Value {
	v := play.RandomValue(x.rng, t)
	if t.Kind == expr.Str {
		return expr.StringValue(randomWord(x.rng, 1+x.rng.IntN(8))) // strings.go
	}
	return v
}

func hasStringIdent(ids []*expr.Ident) bool {
	for _, id := range ids {
		if id.T == expr.StringType {
			return true
		}
	}
	return false
}
