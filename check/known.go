package check

import (
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Known returns the product p as the co-reachability analysis may see it
// once the spec s's invariant and ranges are proved (Proved): a copy
// whose initial condition and transition guards are conjoined with them,
// so that the analysis starts from, and only leaves, states within the
// bounds (and widens toward them: their atoms become thresholds). Every
// reachable state of p satisfies them, so the copy has the same
// reachable behaviour. When nothing is proved, it returns p itself. A
// claim the solver refutes is an error, at the initial condition or the
// transition with a witness (as stg check reports it): the tester's
// construction reads the claims too, and a test case built on a false
// one could fail a conformant SUT.
func Known(ctx *solver.Context, s *spec.Model, p *product.Product) (*product.Product, error) {
	f, err := Invariant(ctx, s)
	switch {
	case err != nil:
		return p, err
	case len(f.Errors) > 0:
		return nil, expr.ErrorList(f.Errors).Err()
	case len(f.Undecided) > 0:
		return p, nil
	}
	j, _ := claims(s)
	if j == nil {
		return p, nil
	}
	q := *p
	q.Model = p.Model.Assuming(j)
	return &q, nil
}
