package play

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
)

// silentSUT is a Timed, Active adapter that never outputs; busy says
// whether its process is working (runnable) at every sample.
type silentSUT struct {
	busy  bool
	start time.Time
}

func (s *silentSUT) Send(context.Context, adapter.Input) error { return nil }
func (s *silentSUT) Close() error                              { return nil }
func (s *silentSUT) Started() (time.Time, bool)                { return s.start, true }
func (s *silentSUT) Activity() (adapter.Activity, error) {
	return adapter.Activity{Busy: s.busy, Procs: 1}, nil
}

func (s *silentSUT) Receive(ctx context.Context, wait time.Duration) (*adapter.Output, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, nil
	}
}

// TestWorkingSilenceIsNotFail: where quiescence fails (a ping waiting for
// its pong), a SUT that is idle and silent for Confirm gets Fail; one
// still working when the silence reaches MaxConfirm gets Inconc, its
// silence marked unconfirmed: it has not refused to output.
func TestWorkingSilenceIsNotFail(t *testing.T) {
	timing := adapter.Timing{Quiescence: time.Millisecond, Confirm: 20 * time.Millisecond, Startup: time.Nanosecond, MaxConfirm: 200 * time.Millisecond}
	e := New(&pingRoute{n: 1}, Options{Timing: timing})
	for _, c := range []struct {
		busy bool
		want Verdict
		why  string
	}{
		{false, Fail, "no pong"},
		{true, Inconc, "kept working"},
	} {
		res, err := e.Run(context.Background(), &silentSUT{busy: c.busy, start: time.Now()}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != c.want || !strings.Contains(res.Reason, c.why) {
			t.Errorf("busy %v: %s (%s), want %s\n%s", c.busy, res.Verdict, res.Reason, c.want, res.TraceString())
		}
		last := res.Trace[len(res.Trace)-1]
		if last.Kind != Quiescence || last.Unconfirmed != c.busy {
			t.Errorf("busy %v: last step %+v", c.busy, last)
		}
	}
}
