package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/stg-tool/stg/adapter"
)

// RunOnce starts a SUT with start, plays one run of r against it with
// seed, and releases the SUT. A SUT that cannot be started is an error
// wrapping adapter.ErrSUTUnavailable.
func RunOnce(ctx context.Context, r *Runner, start adapter.Starter, seed int64) (*Result, error) {
	sut, err := start(ctx)
	if err != nil {
		if !errors.Is(err, adapter.ErrSUTUnavailable) {
			err = fmt.Errorf("%w: %v", adapter.ErrSUTUnavailable, err)
		}
		return nil, err
	}
	defer sut.Close()
	return r.Run(ctx, sut, seed)
}
