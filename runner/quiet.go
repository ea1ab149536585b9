package runner

import (
	"fmt"
	"time"
)

// Window is a quiescence window as the command line gives it: a
// fixed duration, or Auto (set from measured latencies, at least Window).
type Window struct {
	Window time.Duration
	Auto   bool
}

// ParseQuiescence reads "auto" or a positive Go duration ("500ms").
func ParseQuiescence(s string) (Window, error) {
	if s == "auto" {
		return Window{Window: DefaultQuiescence, Auto: true}, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return Window{}, fmt.Errorf("%q is neither auto nor a positive duration such as 500ms", s)
	}
	return Window{Window: d}, nil
}
