package online

import (
	"context"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/internal/lateanswers"
)

// TestChoicesDoNotDependOnTiming: whether an output is already there
// when the on-line tester looks, or arrives while it waits, must not
// change the run of a seed (a choice to wait leaves no trace: the
// random source is rolled back). The ATM purposes, against an ATM with
// 1,500 on the account. These runs never reach a Choose that draws and
// then waits, so the rollback itself is not what this test pins (it
// passes without it); what it pins is that a late output is waited for
// and judged, never overtaken by a stimulus the run of the same seed
// would not send.
func TestChoicesDoNotDependOnTiming(t *testing.T) {
	for _, tr := range atmTesters(t) {
		r := NewRunner(tr, Options{})
		for seed := int64(1); seed <= 6; seed++ {
			fast, err := r.Run(context.Background(), adapter.InProcess(&atm{m: 1500}), seed)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := r.Run(context.Background(), lateanswers.New(&atm{m: 1500}), seed)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := slow.Verdict.String()+"\n"+slow.TraceString(), fast.Verdict.String()+"\n"+fast.TraceString(); got != want {
				t.Errorf("%s, seed %d: outputs there at once\n%s\noutputs arriving while the tester waits\n%s", tr.tp.AcceptPaths(), seed, want, got)
			}
		}
	}
}
