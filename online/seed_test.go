package online

import (
	"context"
	"testing"

	"github.com/stg-tool/stg/adapter"
)

// TestRunDependsOnSeedAlone: an on-line run replays from its seed,
// whatever runs the Runner played before it (its stimuli are solved in a
// solver context of the run's own): the runs of seeds 1..5 in order and
// in reverse order give the same traces.
func TestRunDependsOnSeedAlone(t *testing.T) {
	const seeds = 5
	for _, tr := range atmTesters(t) {
		play := func(r *Runner, seed int64) string {
			res, err := r.Run(context.Background(), adapter.InProcess(&atm{m: 1500}), seed)
			if err != nil {
				t.Fatalf("%s, seed %d: %v", tr.tp.AcceptPaths(), seed, err)
			}
			return res.Verdict.String() + "\n" + res.TraceString()
		}
		inOrder, reverse := NewRunner(tr, Options{}), NewRunner(tr, Options{})
		var traces [seeds + 1]string
		for seed := int64(1); seed <= seeds; seed++ {
			traces[seed] = play(inOrder, seed)
		}
		for seed := int64(seeds); seed >= 1; seed-- {
			if got := play(reverse, seed); got != traces[seed] {
				t.Errorf("%s, seed %d: in order\n%s\nin reverse order\n%s", tr.tp.AcceptPaths(), seed, traces[seed], got)
			}
		}
	}
}
