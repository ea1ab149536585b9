package play

import (
	"time"

	"github.com/stg-tool/stg/adapter"
)

// Defaults of Options.
const (
	DefaultMaxSteps = 1000
	DefaultTimeout  = time.Minute
)

// Options control the runs of an Engine, whatever the route. Zero fields
// take the defaults (EnsureDefaults).
type Options struct {
	// Timing is the quiescence policy (adapter.Timing): the window, its
	// calibration from measured latencies, the confirmation of a silence
	// that decides a verdict, the start-up allowance. It applies to
	// adapter.Timed adapters; the others have exact quiescence.
	adapter.Timing
	// MaxSteps and Timeout bound a run; a run that reaches either ends
	// Inconc.
	MaxSteps int
	Timeout  time.Duration
}

// EnsureDefaults sets the zero fields of o to the defaults and returns o.
func (o *Options) EnsureDefaults() *Options {
	o.Timing = o.Timing.WithDefaults()
	if o.MaxSteps <= 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// DefaultOptions returns the options of stg run: the quiescence window
// set from measured latencies (at least 200ms), a silence that decides
// confirmed over 5s, a 5s start-up allowance, 1000 steps, one minute.
func DefaultOptions() Options {
	o := Options{Timing: adapter.Timing{Auto: true}}
	return *o.EnsureDefaults()
}
