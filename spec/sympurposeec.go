package spec

import (
	"strconv"
	"strings"

	"github.com/stg-tool/stg/spec/expr"
)

// An accept path may carry an external constraint (Def 10 of Faivre,
// Gaston and Le Gall, "Symbolic model based testing for component
// oriented systems", TestCom/FATES 2007): a
// predicate that the accept node must also satisfy, which the spec's
// symbolic execution does not compute. stg purposes SYSTEM --on
// COMPONENT writes it: it is what the rest of the system guarantees
// (0 < bet <= 100 from the slot machine's interface). Written
//
//	accept:
//	  - path: [s_init, s_bet, s_win, s_amount, s_pay, s_end]
//	    constraint: "0 < s_bet.v && s_bet.v <= 100 && s_amount.v == 10 * s_bet.v"
//
// The constraint reads the spec's variables (their values at the accept
// node) and the parameters of the path's steps: NAME.p is parameter p
// of the step by transition NAME, when NAME is an identifier that occurs
// once on the path; stepK.p is parameter p of the K-th step (from 1).
// The accept node's twin, where the constraint does not hold, is ⊥.

// StepName returns the name by which a constraint refers to step k
// (from 0) of a: the transition's name when it is an identifier that
// occurs once on the path, else "step" followed by k+1.
func (a AcceptPath) StepName(k int) string {
	name := a.Names[k]
	if expr.IsIdent(name) && name != Delta {
		count := 0
		for _, o := range a.Names {
			if o == name {
				count++
			}
		}
		if count == 1 {
			return name
		}
	}
	return "step" + strconv.Itoa(k+1)
}

// ParseConstraint reads a's constraint in the scope of spec m along the
// path whose k-th step fires trans[k] (nil for quiescence): m's
// variables, and NAME.p and stepK.p for the steps' parameters. It
// returns nil when a has no constraint. The identifiers of the result
// are m's variables and the names "NAME.p" / "stepK.p" (VarIdent).
func (a AcceptPath) ParseConstraint(m *Model, trans []*Transition) (expr.Expr, error) {
	if a.Constraint == "" {
		return nil, nil
	}
	scope := m.ParamScope(&Action{})
	for k, t := range trans {
		if t == nil {
			continue
		}
		act := m.Action(t.Action)
		if act == nil {
			continue
		}
		for _, p := range act.Params {
			scope.Vars["step"+strconv.Itoa(k+1)+"."+p.Name] = p.Type
			scope.Vars[a.StepName(k)+"."+p.Name] = p.Type
		}
	}
	e, err := expr.Parse(a.Constraint, a.ConstraintPos, scope)
	if err != nil {
		return nil, err
	}
	if e.Type().Kind != expr.Bool {
		var errs expr.ErrorList
		errs.Add(a.ConstraintPos, "constraint %s is not a predicate", a.Constraint)
		return nil, errs.Err()
	}
	return e, nil
}

// StepParam splits an identifier of a parsed constraint that names a
// step's parameter, "s_bet.v" or "step2.v", into the step (from 0) and
// the parameter; ok is false for a variable of the spec.
func (a AcceptPath) StepParam(name string) (step int, param string, ok bool) {
	head, p, found := strings.Cut(name, ".")
	if !found {
		return 0, "", false
	}
	for k := range a.Names {
		if a.StepName(k) == head || "step"+strconv.Itoa(k+1) == head {
			return k, p, true
		}
	}
	return 0, "", false
}
