package runner

import (
	"fmt"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// An unrolled step is a transition taken as step k of a path, the one
// bounded unrolling of planning (plan.go) and of the coverage search
// (coverage.go): the parameters renamed p@k, the variables it assigns
// x@k, the constraints of the assignments, and the variables after it.
//
// It is not the unrolling of package instantiate, and cannot serve it,
// nor the other way round: here the transition of each step is known
// (the search picks it, then pushes its constraints on an incremental
// solver and pops them on backtracking), so the state after a step is
// the state before with the assigned variables substituted: a variable
// the step does not assign keeps its expression (no frame), and a ground
// value stays a constant. instantiate unrolls a whole symbolic test into
// one formula whose slots are disjunctions (several EGAs, or nothing for
// an optional slot): which one fires is the solver's choice, so it
// frames every variable at every position (x#j) and reads the steps back
// out of the model.
type unrolled struct {
	params  map[string]expr.Expr
	ids     []*expr.Ident // the renamed parameters, in the action's order
	assigns []expr.Expr   // x@k == value, for each assignment whose value is not ground
	next    map[string]expr.Expr
}

// unrollStep unrolls t as step k from the variables vars (constants or
// expressions over earlier steps). An assignment whose value is ground
// gives the variable that value, so that the state stays comparable and a
// guard on known values costs no check; assignments into Pass are left
// out (nothing follows them).
func unrollStep(tc *spec.Model, t *spec.Transition, k int, vars map[string]expr.Expr) unrolled {
	u := unrolled{params: map[string]expr.Expr{}, next: vars}
	for _, pa := range tc.Action(t.Action).Params {
		id := &expr.Ident{Name: fmt.Sprintf("%s@%d", pa.Name, k), Kind: expr.ParamIdent, T: pa.Type}
		u.params[pa.Name] = id
		u.ids = append(u.ids, id)
	}
	if tc.Verdict(t.To) == "pass" || len(t.Assign) == 0 {
		return u
	}
	u.next = make(map[string]expr.Expr, len(vars))
	for n, v := range vars {
		u.next[n] = v
	}
	for _, as := range t.Assign {
		e := expr.Substitute(as.Value, vars, u.params)
		if v, ok := groundValue(e); ok {
			u.next[as.Var] = v
			continue
		}
		fresh := &expr.Ident{Name: fmt.Sprintf("%s@%d", as.Var, k), Kind: expr.VarIdent, T: tc.Variable(as.Var).Type}
		u.assigns = append(u.assigns, expr.Compare(expr.Eq, fresh, e))
		u.next[as.Var] = fresh
	}
	return u
}
