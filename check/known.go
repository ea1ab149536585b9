package check

import (
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// Known returns the product p as the co-reachability analysis may see it
// once the spec s's invariant and ranges are proved (Proved): a copy
// whose initial condition and transition guards are conjoined with them,
// so that the analysis starts from, and only leaves, states within the
// bounds (and widens toward them: their atoms become thresholds). Every
// reachable state of p satisfies them, so the copy has the same
// reachable behaviour. When nothing is proved, it returns p itself.
func Known(ctx *solver.Context, s *spec.Model, p *product.Product) (*product.Product, error) {
	j, err := Proved(ctx, s)
	if err != nil || spec.IsTrue(j) {
		return p, err
	}
	q := *p
	q.Model = p.Model.Assuming(j)
	return &q, nil
}
