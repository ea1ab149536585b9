// Package lateanswers is an adapter for tests of timing independence:
// an in-process SUT whose outputs are not there when the tester first
// looks (a Receive that does not wait gets nothing), only when it waits,
// as with a SUT that answers a little late. A tester's choices must not
// depend on it: a run of one seed gives the same exchange against the
// SUT answering at once (adapter.InProcess) and against this adapter.
package lateanswers

import (
	"context"
	"time"

	"github.com/stg-tool/stg/adapter"
)

// Adapter plays sut with late answers.
type Adapter struct {
	sut     adapter.SUT
	pending []adapter.Output
	ready   bool // the pending outputs have arrived
}

// New returns an adapter of sut whose outputs arrive only when the
// tester waits for them.
func New(sut adapter.SUT) *Adapter { return &Adapter{sut: sut} }

// Send gives in to the SUT; its outputs are pending until a Receive
// waits.
func (a *Adapter) Send(_ context.Context, in adapter.Input) error {
	outs, err := a.sut.Input(in.Action, in.Args)
	a.pending, a.ready = append(a.pending, outs...), false
	return err
}

// Receive returns the next pending output once a Receive has waited
// (wait > 0) since the last input; nil before, and when none is left
// (quiescence is exact).
func (a *Adapter) Receive(_ context.Context, wait time.Duration) (*adapter.Output, error) {
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

// Close does nothing.
func (a *Adapter) Close() error { return nil }
