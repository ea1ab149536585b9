package instantiate

import (
	"fmt"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Replay checks an instance on the behavioural model with the concrete
// evaluator, independently of the solver: the initial state satisfies
// init and the invariant, every step is an EGA of the spec enabled with
// its values (an input only in a quiescent state), leads to the state
// recorded, which satisfies the invariant and lies in the abstract state
// of its product state; the main steps follow the symbolic test's
// actions and product states in order.
func (a *Animator) Replay(inst *Instance) error {
	cur := inst.Init
	env := expr.Valuation{Vars: cur}
	for _, c := range []expr.Expr{a.b.Init, a.b.Invariant} {
		if ok, err := expr.EvalBool(c, env); err != nil || !ok {
			return fmt.Errorf("initial state %v does not satisfy %s (%v)", cur, expr.Format(c), err)
		}
	}
	main := 0
	for i, st := range inst.Steps {
		g := a.ega(st.Transition)
		if g == nil {
			return fmt.Errorf("step %d: %s is not a transition of the spec", i+1, st.Transition.Label())
		}
		ok, err := a.fires(g, cur, st.Args, st.After)
		if err != nil || !ok {
			return fmt.Errorf("step %d: %s with %v does not lead from %v to %v (%v)", i+1, st.Transition.Label(), st.Args, cur, st.After, err)
		}
		after := expr.Valuation{Vars: st.After}
		conds := []expr.Expr{a.b.Invariant}
		if st.Pending {
			if st.Input || st.Reflexive {
				return fmt.Errorf("step %d: a pending step must be an output", i+1)
			}
		} else {
			switch {
			case st.Product != nil:
				conds = append(conds, st.Product.Pred())
			case !st.Reflexive:
				return fmt.Errorf("step %d: no product state", i+1)
			}
		}
		for _, c := range conds {
			if ok, err := expr.EvalBool(c, after); err != nil || !ok {
				return fmt.Errorf("step %d: state %v does not satisfy %s (%v)", i+1, st.After, expr.Format(c), err)
			}
		}
		if !st.Reflexive && !st.Pending {
			if main >= len(inst.Symbolic) {
				return fmt.Errorf("step %d: more steps than the symbolic test has", i+1)
			}
			want := inst.Symbolic[main]
			if want.Action != g.Action || want.To != st.Product {
				return fmt.Errorf("step %d: %s to %s, the symbolic test has %s to %s", i+1, g.Action, st.Product.Name(), want.Action, want.To.Name())
			}
			main++
		}
		cur = st.After
	}
	if main != len(inst.Symbolic) {
		return fmt.Errorf("%d steps of the symbolic test, %d instantiated", len(inst.Symbolic), main)
	}
	return nil
}

func (a *Animator) ega(t *spec.Transition) *predabs.EGA {
	for _, g := range a.b.EGAs {
		if g.Transition == t {
			return g
		}
	}
	return nil
}
