package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	account "github.com/stg-tool/stg/examples/account/sut/impl"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec"
)

// slowAnswers is an adapter with exact quiescence whose outputs are not
// there yet when the tester first looks (Receive without waiting), only
// when it waits: the tester is asked for a stimulus before each output
// arrives, as happens with a SUT that answers a little late.
type slowAnswers struct {
	sut     adapter.SUT
	pending []adapter.Output
	ready   bool // the pending outputs have arrived
}

func (a *slowAnswers) Send(_ context.Context, in adapter.Input) error {
	outs, err := a.sut.Input(in.Action, in.Args)
	a.pending, a.ready = append(a.pending, outs...), false
	return err
}

func (a *slowAnswers) Receive(_ context.Context, wait time.Duration) (*adapter.Output, error) {
	if wait > 0 {
		a.ready = true
	}
	if !a.ready || len(a.pending) == 0 {
		return nil, nil
	}
	out := a.pending[0]
	a.pending = a.pending[1:]
	return &out, nil
}

func (a *slowAnswers) Close() error { return nil }

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
		slow, err := r.Run(context.Background(), &slowAnswers{sut: account.New(account.PaysBeyondBalance)}, seed)
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
		spec.WriteTraceEvent(&b, ev)
	}
	return b.String()
}
