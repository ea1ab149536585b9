package runner

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteTrace writes the run's verdict and trace as a table, one step a
// line: what happened, the transition taken, the location reached and the
// variables after the step.
func (res *Result) WriteTrace(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  #\tstep\taction\ttransition\tlocation\tstate\n")
	for i, s := range res.Trace {
		action := describeStep(s)
		if s.Kind == Received && s.Action == "" {
			action = "(unreadable output)"
		}
		tr := s.Transition
		switch {
		case tr != "":
		case s.Kind == Sent:
			tr = "(not delivered)"
		default:
			tr = "(none)"
		}
		to := s.To
		if to == "" {
			to = s.From
		}
		kind := s.Kind.String()
		if s.Planned {
			kind += "*"
		}
		if s.Kind == Quiescence && s.Silence > 0 {
			action += fmt.Sprintf(" (silent %v)", s.Silence.Round(time.Millisecond))
		}
		state := s.State
		if s.States > 1 {
			state += fmt.Sprintf("  (1 of %d possible states)", s.States)
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\n", i+1, kind, action, tr, to, state)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if res.Verdict == 0 {
		_, err := fmt.Fprintf(w, "no verdict: %s; after %d steps, seed %d\n", res.Reason, len(res.Trace), res.Seed)
		return err
	}
	if _, err := fmt.Fprintf(w, "verdict: %s (%s) after %d steps, seed %d\n", res.Verdict, res.Reason, len(res.Trace), res.Seed); err != nil {
		return err
	}
	if res.Window > 0 {
		_, err := fmt.Fprintf(w, "quiescence window %v; %s\n", res.Window.Round(time.Millisecond), Summarize(res.Latencies))
		return err
	}
	return nil
}

// TraceString returns what WriteTrace writes.
func (res *Result) TraceString() string {
	var b strings.Builder
	res.WriteTrace(&b)
	return b.String()
}
