package pipeline

import (
	"errors"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// decideGuards rewrites the guards of tc that call external functions
// under the facts of ctx (the tables' rows): in each conjunct that is a
// disjunction, a disjunct that the facts and the other conjuncts rule
// out is dropped, then each conjunct with a call that the facts and the
// other conjuncts imply. The guard is equivalent to the old one in every state
// where the facts hold, which is every state of a run (the functions
// answer their rows), so the test case keeps its runs and verdicts; it
// only reads as decided: after [148, 141], the microgrid's answer to
// Pass is the alarm, not "ok if RISE(300) <= 1, or alarm". A conjunct
// whose every disjunct would go is kept as it is. Undecided questions
// keep the disjunct.
func decideGuards(ctx *solver.Context, tc *spec.Model) error {
	if ctx.Facts() == nil {
		return nil
	}
	for i, tr := range tc.Transitions {
		if !extfunc.HasCall(tr.Guard) {
			continue
		}
		g, err := decideGuard(ctx, tr.Guard)
		if err != nil {
			return err
		}
		if g != nil {
			u := *tr
			u.Guard = g
			tc.Transitions[i] = &u
		}
	}
	return nil
}

// decideGuard returns g with the disjuncts the facts rule out and the
// conjuncts with calls they imply dropped, or nil when none is.
func decideGuard(ctx *solver.Context, g expr.Expr) (expr.Expr, error) {
	cs := expr.Conjuncts(g)
	changed := false
	for i, c := range cs {
		ds := expr.Disjuncts(c)
		if len(ds) < 2 {
			continue
		}
		rest := expr.AndOf(append(append([]expr.Expr(nil), cs[:i]...), cs[i+1:]...)...)
		var keep []expr.Expr
		for _, d := range ds {
			ok, err := ctx.Possible(expr.AndOf(d, rest))
			if err != nil {
				return nil, err
			}
			if ok {
				keep = append(keep, d)
			}
		}
		if len(keep) > 0 && len(keep) < len(ds) {
			cs[i], changed = expr.OrOf(keep...), true
		}
	}
	cs = expr.Conjuncts(expr.AndOf(cs...)) // a kept disjunct may be a conjunction
	for i := 0; i < len(cs) && len(cs) > 1; {
		if !extfunc.HasCall(cs[i]) {
			i++
			continue
		}
		rest := expr.AndOf(append(append([]expr.Expr(nil), cs[:i]...), cs[i+1:]...)...)
		ok, err := ctx.Entails(rest, cs[i])
		if errors.Is(err, solver.ErrUnknown) {
			ok, err = false, nil // undecided: keep the conjunct
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			i++
			continue
		}
		cs, changed = append(cs[:i], cs[i+1:]...), true
	}
	if !changed {
		return nil, nil
	}
	return expr.AndOf(cs...), nil
}
