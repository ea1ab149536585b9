package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	account "github.com/stg-tool/stg/examples/account/sut/impl"
	"github.com/stg-tool/stg/internal/lateanswers"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec/specfile"
)

// TestChoicesDoNotDependOnTiming: whether an output is already there
// when the tester looks, or arrives while it waits, must not change the
// stimuli of a run of the same seed (a choice to wait leaves no trace).
// The test case is the account's no-funds purpose, whose values come
// from planning with the Diverse strategy.
func TestChoicesDoNotDependOnTiming(t *testing.T) {
	r := newRunner(t, "account-no-funds.yaml", DefaultOptions())
	for seed := int64(1); seed <= 12; seed++ {
		fast, err := r.Run(context.Background(), adapter.InProcess(account.New(account.PaysBeyondBalance)), seed)
		if err != nil {
			t.Fatal(err)
		}
		slow, err := r.Run(context.Background(), lateanswers.New(account.New(account.PaysBeyondBalance)), seed)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := events(slow), events(fast); got != want {
			t.Errorf("seed %d: outputs there at once\n%s\noutputs arriving while the tester waits\n%s", seed, want, got)
		}
	}
}

// events prints a run's exchange, one event a line.
func events(res *Result) string {
	var b strings.Builder
	for _, ev := range play.TraceEvents(res.Trace) {
		specfile.WriteTraceEvent(&b, ev)
	}
	return b.String()
}
