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
	verdict := ""
	if res.Verdict != 0 {
		verdict = res.Verdict.String()
	}
	return Ending{Verdict: verdict, Reason: res.Reason, Steps: len(res.Trace), Seed: res.Seed, Window: res.Window, Latencies: res.Latencies}.Write(w)
}

// An Ending is how a run ended, as the last lines of its trace tell it:
// on the STG route (runner) and on the symbolic-execution route (online)
// alike.
type Ending struct {
	Verdict   string // "" for a run that ended without one
	Reason    string
	Steps     int
	Seed      int64
	Window    time.Duration // the quiescence window of the run; 0 for exact quiescence
	Latencies []time.Duration
}

// Write writes the verdict (or "no verdict") with its reason, the
// number of steps and the seed, then, when quiescence was observed by
// waiting, the window and a summary of the latencies measured.
func (e Ending) Write(w io.Writer) error {
	if e.Verdict == "" {
		_, err := fmt.Fprintf(w, "no verdict: %s; after %d steps, seed %d\n", e.Reason, e.Steps, e.Seed)
		return err
	}
	if _, err := fmt.Fprintf(w, "verdict: %s (%s) after %d steps, seed %d\n", e.Verdict, e.Reason, e.Steps, e.Seed); err != nil {
		return err
	}
	if e.Window > 0 {
		_, err := fmt.Fprintf(w, "quiescence window %v; %s\n", e.Window.Round(time.Millisecond), Summarize(e.Latencies))
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
