package instantiate

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// Reach looks for a concrete execution of the spec that follows a path of
// the product sp (SP', or SP) from one of its initial states and ends
// with the transition target (of SP or of sp: the transition of sp with
// the same ends and action), in at most bound steps (bounded model checking over
// the product: at each position either nothing or one transition of sp,
// with the rules of Animate: every state in the abstract state of its
// product state and satisfying the invariant, an input only where the
// spec is quiescent). The lengths tried double from 4 up to bound.
//
// It returns the instance when one exists (its symbolic test is the path
// found, without insertions), or nil and proved = true when no execution
// of at most bound steps reaches target. A query the solver cannot decide
// gives nil and proved = false.
func (a *Animator) Reach(ctx *solver.Context, sp *predabs.Product, target *predabs.ProductTransition, bound int) (inst *Instance, proved bool, err error) {
	idx := -1
	for i, t := range sp.Transitions {
		if keyOf(t) == keyOf(target) {
			idx = i
		}
	}
	if idx < 0 || len(sp.Initial) == 0 || bound < 1 {
		return nil, idx >= 0 && bound >= 1, nil
	}
	for n := min(4, bound); ; n = min(2*n, bound) {
		r := &reach{unrolling: unrolling{a: a}, sp: sp, n: n}
		m, ok, err := ctx.Model(r.formula(idx))
		if errors.Is(err, solver.ErrUnknown) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		if ok {
			inst, err := r.decode(m)
			if err != nil {
				return nil, false, err
			}
			if err := a.Replay(inst); err != nil {
				return nil, false, fmt.Errorf("instantiate: internal error: the execution found does not replay: %v", err)
			}
			return inst, false, nil
		}
		if n == bound {
			return nil, true, nil
		}
	}
}

// reach is the formula of Reach for n positions.
type reach struct {
	unrolling
	sp *predabs.Product
	n  int
}

func pqName(j int) string     { return fmt.Sprintf("pq#%d", j) }
func choiceName(j int) string { return fmt.Sprintf("c#%d", j) }

func (r *reach) pq(j int) expr.Expr     { return expr.VarRef(pqName(j), expr.IntType) }
func (r *reach) choice(j int) expr.Expr { return expr.VarRef(choiceName(j), expr.IntType) }

func (r *reach) is(x expr.Expr, v int) expr.Expr {
	return expr.Compare(expr.Eq, x, expr.IntConst(int64(v)))
}

func (r *reach) formula(target int) expr.Expr {
	b := r.a.b
	var starts []expr.Expr
	for _, q := range r.sp.Initial {
		starts = append(starts, expr.AndOf(r.is(r.pq(0), q.ID), r.at(0, q.Pred())))
	}
	parts := []expr.Expr{r.at(0, b.Init), expr.OrOf(starts...)}
	for j := 0; j <= r.n; j++ {
		parts = append(parts, r.at(j, b.Invariant))
	}
	for j := 0; j < r.n; j++ {
		alts := []expr.Expr{expr.AndOf(r.is(r.choice(j), -1), r.same(j), expr.Compare(expr.Eq, r.pq(j+1), r.pq(j)))}
		for i, t := range r.sp.Transitions {
			alts = append(alts, r.move(j, i, t))
		}
		parts = append(parts, expr.OrOf(alts...))
	}
	parts = append(parts, r.is(r.choice(r.n-1), target))
	return expr.AndOf(parts...)
}

// move is the product transition t (index i) from position j.
func (r *reach) move(j, i int, t *predabs.ProductTransition) expr.Expr {
	var steps []expr.Expr
	for _, st := range t.Steps {
		steps = append(steps, r.step(j, st.EGA))
	}
	return expr.AndOf(r.is(r.choice(j), i), r.is(r.pq(j), t.From.ID), r.is(r.pq(j+1), t.To.ID),
		r.at(j, t.From.Pred()), r.at(j+1, t.To.Pred()), expr.OrOf(steps...))
}

// decode reads the path and the instance out of a model, dropping the
// positions where nothing happens.
func (r *reach) decode(m expr.Valuation) (*Instance, error) {
	state := func(j int) map[string]expr.Value {
		x := map[string]expr.Value{}
		for _, v := range r.a.b.Vars {
			val, ok := m.Vars[varName(v.Name, j)]
			if !ok {
				val = expr.Zero(v.Type)
			}
			x[v.Name] = val
		}
		return x
	}
	inst := &Instance{Init: state(0)}
	for j := 0; j < r.n; j++ {
		c, ok := m.Vars[choiceName(j)]
		if !ok || c.Int == nil || !c.Int.IsInt64() || c.Int.Int64() < 0 || c.Int.Int64() >= int64(len(r.sp.Transitions)) {
			continue
		}
		t := r.sp.Transitions[c.Int.Int64()]
		var egas []*predabs.EGA
		for _, st := range t.Steps {
			egas = append(egas, st.EGA)
		}
		st, err := r.pick(j, slot{egas: egas, state: t.To}, m, state(j), state(j+1))
		if err != nil {
			return nil, err
		}
		inst.Symbolic = append(inst.Symbolic, t)
		inst.Steps = append(inst.Steps, st)
	}
	return inst, nil
}
