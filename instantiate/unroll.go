package instantiate

import (
	"fmt"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// unrolling is the bounded-model-checking formula of one symbolic test
// with r optional reflexive slots before each of its steps.
//
// It is not runner's unrolling (runner/unroll.go), and neither can serve
// the other: a slot here is a disjunction, of the EGAs of a product
// transition and, for an optional slot, of doing nothing, and the whole
// test is one query; the step taken is the model's choice, so the state
// after a slot cannot be written as an expression of the state before.
// Every variable therefore has a copy at every position (x#j, framed:
// each alternative equates all of X_{j+1}), each (slot, EGA) its own
// parameters (p#j#action), and decode reads the states and the EGAs
// back from the model. runner unrolls one known transition at a time on
// an incremental solver, substituting the assigned variables only, with
// no frames.
type unrolling struct {
	a       *Animator
	path    []*predabs.ProductTransition
	slots   []slot
	formula expr.Expr
}

// slot is one position of the unrolling: X_j -> X_{j+1}.
type slot struct {
	egas      []*predabs.EGA
	optional  bool                  // an inserted slot: may also do nothing
	pending   bool                  // a pending output observed before an input
	reflexive bool                  // a slot of a reflexive insertion
	state     *predabs.ProductState // the product state after it; nil for a pending output and inside an insertion
}

// loopSlots returns r reflexive insertions before a step from the
// product state from: each one step of SP' that keeps the purpose
// location (a purpose self-loop), then up to Pending outputs the purpose
// also loops on (the insertion looks through the outputs the step
// causes), back in from's abstract state at its end only.
func (a *Animator) loopSlots(from *predabs.ProductState, r int) []slot {
	first, outs := a.reflexive[stateKey(from)], a.loopOutputs[from.Purpose]
	if len(first)+len(outs) == 0 {
		return nil
	}
	var slots []slot
	for k := 0; k < r; k++ {
		if len(first) > 0 {
			slots = append(slots, slot{egas: first, optional: true, reflexive: true})
		}
		for p := 0; p < a.Pending && len(outs) > 0; p++ {
			slots = append(slots, slot{egas: outs, optional: true, reflexive: true})
		}
		slots[len(slots)-1].state = from
	}
	return slots
}

func (a *Animator) unroll(path []*predabs.ProductTransition, r int) *unrolling {
	u := &unrolling{a: a, path: path}
	for _, t := range path {
		u.slots = append(u.slots, a.loopSlots(t.From, r)...)
		var egas []*predabs.EGA
		input := false
		for _, st := range t.Steps {
			if !containsEGA(egas, st.EGA) {
				egas = append(egas, st.EGA)
				input = input || a.isInput(st.EGA)
			}
		}
		if input && len(a.outputs) > 0 {
			for k := 0; k < a.Pending; k++ {
				u.slots = append(u.slots, slot{egas: a.outputs, optional: true, pending: true})
			}
		}
		u.slots = append(u.slots, slot{egas: egas, state: t.To})
	}
	b := a.b
	parts := []expr.Expr{u.at(0, b.Init), u.at(0, path[0].From.Pred())}
	for j := 0; j <= len(u.slots); j++ {
		parts = append(parts, u.at(j, b.Invariant))
	}
	for j, sl := range u.slots {
		var alts []expr.Expr
		if sl.optional {
			alts = append(alts, u.same(j))
		}
		for _, g := range sl.egas {
			alts = append(alts, u.step(j, g))
		}
		parts = append(parts, expr.OrOf(alts...))
		if sl.state != nil {
			parts = append(parts, u.at(j+1, sl.state.Pred()))
		}
	}
	u.formula = expr.AndOf(parts...)
	return u
}

// varName and paramName name the copies of the state variables and of
// the parameters in the unrolling ('#' is not an identifier character of
// the model language, so they never clash with the spec's names).
func varName(x string, j int) string { return fmt.Sprintf("%s#%d", x, j) }
func paramName(g *predabs.EGA, p string, j int) string {
	return fmt.Sprintf("%s#%d#%s", p, j, g.Action)
}

func (u *unrolling) vars(j int) map[string]expr.Expr {
	m := map[string]expr.Expr{}
	for _, v := range u.a.b.Vars {
		m[v.Name] = expr.VarRef(varName(v.Name, j), v.Type)
	}
	return m
}

func (u *unrolling) params(j int, g *predabs.EGA) map[string]expr.Expr {
	m := map[string]expr.Expr{}
	if act := u.a.s.Action(g.Action); act != nil {
		for _, p := range act.Params {
			m[p.Name] = expr.VarRef(paramName(g, p.Name, j), p.Type)
		}
	}
	return m
}

// at returns e on X_j.
func (u *unrolling) at(j int, e expr.Expr) expr.Expr { return expr.Substitute(e, u.vars(j), nil) }

// same is X_{j+1} == X_j.
func (u *unrolling) same(j int) expr.Expr {
	var eqs []expr.Expr
	now, next := u.vars(j), u.vars(j+1)
	for _, v := range u.a.b.Vars {
		eqs = append(eqs, expr.Compare(expr.Eq, next[v.Name], now[v.Name]))
	}
	return expr.AndOf(eqs...)
}

// step is the EGA g from X_j to X_{j+1}, under quiescence of X_j when
// g's action is an input.
func (u *unrolling) step(j int, g *predabs.EGA) expr.Expr {
	now, next, ps := u.vars(j), u.vars(j+1), u.params(j, g)
	parts := []expr.Expr{expr.Substitute(g.Guard, now, ps)}
	if u.a.isInput(g) {
		parts = append(parts, expr.Substitute(u.a.quiescent, now, nil))
	}
	for _, v := range u.a.b.Vars {
		parts = append(parts, expr.Compare(expr.Eq, next[v.Name], expr.Substitute(g.Assign[v.Name], now, ps)))
	}
	return expr.AndOf(parts...)
}

func (a *Animator) isInput(g *predabs.EGA) bool {
	act := a.s.Action(g.Action)
	return act != nil && act.Dir == spec.Input
}

// decode reads the instance out of a model of the formula: the states,
// then for each slot the first EGA that the values satisfy (an optional
// slot that leaves the state unchanged is dropped).
func (u *unrolling) decode(m expr.Valuation) (*Instance, error) {
	states := make([]map[string]expr.Value, len(u.slots)+1)
	for j := range states {
		states[j] = map[string]expr.Value{}
		for _, v := range u.a.b.Vars {
			x, ok := m.Vars[varName(v.Name, j)]
			if !ok {
				x = expr.Zero(v.Type)
			}
			states[j][v.Name] = x
		}
	}
	inst := &Instance{Symbolic: u.path, Init: states[0]}
	for j, sl := range u.slots {
		if sl.optional && sameState(states[j], states[j+1]) {
			// the end of an insertion left out: the insertion's last step
			// is back in its product state
			if n := len(inst.Steps); sl.reflexive && sl.state != nil && n > 0 && inst.Steps[n-1].Reflexive && inst.Steps[n-1].Product == nil {
				inst.Steps[n-1].Product = sl.state
			}
			continue
		}
		st, err := u.pick(j, sl, m, states[j], states[j+1])
		if err != nil {
			return nil, err
		}
		inst.Steps = append(inst.Steps, st)
		switch {
		case st.Reflexive:
			inst.Inserted++
		case st.Pending:
			inst.Pending++
		}
	}
	return inst, nil
}

func (u *unrolling) pick(j int, sl slot, m expr.Valuation, before, after map[string]expr.Value) (Step, error) {
	for _, g := range sl.egas {
		args := map[string]expr.Value{}
		if act := u.a.s.Action(g.Action); act != nil {
			for _, p := range act.Params {
				x, ok := m.Vars[paramName(g, p.Name, j)]
				if !ok {
					x = expr.Zero(p.Type)
				}
				args[p.Name] = x
			}
		}
		ok, err := u.a.fires(g, before, args, after)
		if err != nil {
			return Step{}, err
		}
		if ok {
			return Step{Transition: g.Transition, Args: args, After: after, Product: sl.state, Reflexive: sl.reflexive, Pending: sl.pending, Input: u.a.isInput(g)}, nil
		}
	}
	return Step{}, fmt.Errorf("instantiate: internal error: no EGA explains step %d of the solver's model", j)
}

// fires reports whether g, with the parameter values args, leads from
// before to after (and, for an input, whether before is quiescent).
func (a *Animator) fires(g *predabs.EGA, before, args, after map[string]expr.Value) (bool, error) {
	env := expr.Valuation{Vars: before, Params: args}
	ok, err := expr.EvalBool(g.Guard, env)
	if err != nil || !ok {
		return false, err
	}
	if a.isInput(g) {
		if ok, err := expr.EvalBool(a.quiescent, env); err != nil || !ok {
			return false, err
		}
	}
	for _, v := range a.b.Vars {
		x, err := expr.Eval(g.Assign[v.Name], env)
		if err != nil {
			return false, err
		}
		if !x.Equal(after[v.Name]) {
			return false, nil
		}
	}
	return true, nil
}

func sameState(x, y map[string]expr.Value) bool {
	for k, v := range x {
		if !v.Equal(y[k]) {
			return false
		}
	}
	return true
}
