package online

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// lazySUT is a Timed SUT with no timer: an output it owes is delivered
// only by a Receive that waits (it "takes time"), so a tester that sent
// first would see it cross its input. Receive records the waits.
type lazySUT struct {
	owe   []string // outputs due, in order
	done  bool     // answer go with done
	waits []time.Duration
}

func (s *lazySUT) Send(ctx context.Context, in adapter.Input) error {
	if in.Action == "go" && s.done {
		s.owe = append(s.owe, "done")
	}
	return nil
}

func (s *lazySUT) Receive(ctx context.Context, wait time.Duration) (*adapter.Output, error) {
	if wait > 0 {
		s.waits = append(s.waits, wait)
	}
	if wait == 0 || len(s.owe) == 0 {
		return nil, nil
	}
	out := &adapter.Output{Action: s.owe[0]}
	s.owe = s.owe[1:]
	return out, nil
}

func (s *lazySUT) Close() error               { return nil }
func (s *lazySUT) Started() (time.Time, bool) { return time.Now().Add(-time.Hour), true }

// noteTester returns a tester of testdata/note.yaml for one accept path.
func noteTester(t *testing.T, accept string) *Tester {
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(z.Close)
	m, err := specfile.LoadFile("testdata/note.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	sp := &spec.SymPurpose{Name: "note", Spec: "note.yaml", Accept: []spec.AcceptPath{{Names: strings.Fields(accept)}}}
	return testerOf(t, z, m, sp)
}

// TestTimedWaitsForDueOutput: on a Timed adapter the tester does not
// send go? while note! may still come (it would cross the input); it
// waits, sees note!, then sends: Pass. No timer is involved: the fake
// SUT answers every wait at once.
func TestTimedWaitsForDueOutput(t *testing.T) {
	tr := noteTester(t, "note go done")
	res, err := NewRunner(tr, Options{}).Run(context.Background(), &lazySUT{owe: []string{"note"}, done: true}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Pass || traceOf(res) != "  note!: rule 1\n  go?: rule 6\n  done!: rule 4\n" {
		t.Errorf("%s (%s)\n%s", res.Verdict, res.Reason, traceOf(res))
	}
}

// TestTimedConfirmsFail: a Timed SUT that stays silent where the spec
// requires done! gets Fail only after a second wait, of Options.Confirm
// since the last event.
func TestTimedConfirmsFail(t *testing.T) {
	tr := noteTester(t, "note go done")
	sut := &lazySUT{owe: []string{"note"}}
	res, err := NewRunner(tr, Options{Options: play.Options{Timing: adapter.Timing{Confirm: time.Hour}}}).Run(context.Background(), sut, 1)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Fail || len(sut.waits) < 2 || sut.waits[len(sut.waits)-1] < 59*time.Minute {
		t.Errorf("%s (%s), waits %v: want Fail after a wait of about Confirm", res.Verdict, res.Reason, sut.waits)
	}
}
