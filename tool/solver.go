package tool

import (
	"fmt"
	"time"

	"github.com/stg-tool/stg/solver"
)

// newSolver starts a solver context whose queries are bounded by
// timeout, for the command cmd ("stg check"); its error is an
// InputError naming the command. The caller closes the context.
func newSolver(cmd string, timeout time.Duration) (*solver.Context, error) {
	z, err := solver.NewContext()
	if err != nil {
		return nil, InputError(fmt.Errorf("%s: cannot start the solver: %v", cmd, err))
	}
	z.SetTimeout(timeout)
	return z, nil
}
