package adapter

import (
	"context"
	"fmt"
	"time"

	"github.com/stg-tool/stg/spec/expr"
)

// SUT is an implementation under test written in Go, tested in the same
// process. Input delivers one input of the SUT and returns the outputs it
// causes, in order; none means that the SUT is then quiescent. An error
// means that the SUT cannot take the input (ErrSUTUnavailable).
//
// The runner calls Input from one goroutine at a time. A fresh SUT is
// needed for every run.
type SUT interface {
	Input(action string, args map[string]expr.Value) ([]Output, error)
}

// SUTFunc adapts a function to the SUT interface.
type SUTFunc func(action string, args map[string]expr.Value) ([]Output, error)

// Input calls f.
func (f SUTFunc) Input(action string, args map[string]expr.Value) ([]Output, error) {
	return f(action, args)
}

// InProcess returns an Adapter to sut. Outputs are queued; with nothing
// queued, Receive reports quiescence at once (an in-process SUT has
// answered when Input returns), so runs take no wall-clock time.
func InProcess(sut SUT) Adapter { return &inProcess{sut: sut} }

type inProcess struct {
	sut     SUT
	pending []Output
}

func (a *inProcess) Send(ctx context.Context, in Input) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer func() {
		// A panicking SUT is a broken SUT, not a broken tester.
		if r := recover(); r != nil {
			err = unavailable("the SUT panicked on %s: %v", in.Action, r)
		}
	}()
	outs, err := a.sut.Input(in.Action, in.Args)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrSUTUnavailable, in.Action, err)
	}
	a.pending = append(a.pending, outs...)
	return nil
}

func (a *inProcess) Receive(ctx context.Context, wait time.Duration) (*Output, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(a.pending) == 0 {
		return nil, nil
	}
	out := a.pending[0]
	a.pending = a.pending[1:]
	return &out, nil
}

func (a *inProcess) Close() error { return nil }
