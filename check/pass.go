package check

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// PassReachable searches the symbolic runs of the test case tc of at
// most depth steps for a feasible one that ends in a pass verdict
// location (bounded model checking with the solver, depth first). It
// returns Sat when it found one, Unsat when no run of at most depth
// steps reaches Pass, and Unknown when it could not tell: a path the
// solver could not decide, or more than budget queries.
//
// Transitions into the other verdicts are not followed, nor self-loops
// that assign nothing (they leave the state as it was).
func PassReachable(ctx *solver.Context, tc *spec.Model, depth, budget int) (solver.Result, error) {
	s := &bmc{ctx: ctx, tc: tc, depth: depth, budget: budget}
	init := s.at(tc.Initial.Condition, 0)
	found, err := s.search(tc.Initial.Location, 0, init)
	switch {
	case err != nil:
		return solver.Unknown, err
	case found:
		return solver.Sat, nil
	case s.undecided:
		return solver.Unknown, nil
	}
	return solver.Unsat, nil
}

// bmc is the state of one PassReachable search.
type bmc struct {
	ctx           *solver.Context
	tc            *spec.Model
	depth, budget int
	undecided     bool // a query had no answer, or the budget ran out
}

func (s *bmc) search(loc string, step int, path expr.Expr) (bool, error) {
	switch {
	case s.tc.Verdict(loc) == "pass":
		return true, nil
	case step == s.depth || s.tc.Verdict(loc) != "":
		return false, nil
	}
	for _, tr := range s.tc.Outgoing(loc) {
		if v := s.tc.Verdict(tr.To); v != "" && v != "pass" || tr.To == loc && len(tr.Assign) == 0 {
			continue
		}
		if s.budget <= 0 {
			s.undecided = true
			return false, nil
		}
		s.budget--
		next := []expr.Expr{path, s.at(tr.Guard, step)}
		for _, v := range s.tc.Variables {
			now := &expr.Ident{Name: stepName(v.Name, step+1), Kind: expr.VarIdent, T: v.Type}
			next = append(next, expr.Compare(expr.Eq, now, s.at(tr.AssignedValue(v), step)))
		}
		p := expr.AndOf(next...)
		r, err := s.ctx.Sat(p)
		if errors.Is(err, solver.ErrUnknown) {
			s.undecided = true // a path found past it would not be known feasible
			continue
		}
		if err != nil {
			return false, err
		}
		if r == solver.Unsat {
			continue
		}
		if ok, err := s.search(tr.To, step+1, p); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// at renames the variables and parameters of e to their copies at step.
func (s *bmc) at(e expr.Expr, step int) expr.Expr {
	return expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
		if id.Kind == expr.VarIdent || id.Kind == expr.ParamIdent {
			return &expr.Ident{Name: stepName(id.Name, step), Kind: id.Kind, T: id.T}
		}
		return nil
	})
}

func stepName(name string, step int) string { return fmt.Sprintf("%s@%d", name, step) }
