package runner

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTrace writes the run's verdict and trace as a table, one step a
// line: what happened, the transition taken, the location reached and the
// variables after the step.
func (res *Result) WriteTrace(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  #\tstep\taction\ttransition\tlocation\tvariables\n")
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
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\n", i+1, kind, action, tr, to, formatBindings(s.Vars))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if res.Verdict == 0 {
		_, err := fmt.Fprintf(w, "no verdict: %s; after %d steps, seed %d\n", res.Reason, len(res.Trace), res.Seed)
		return err
	}
	_, err := fmt.Fprintf(w, "verdict: %s (%s) after %d steps, seed %d\n", res.Verdict, res.Reason, len(res.Trace), res.Seed)
	return err
}

// TraceString returns what WriteTrace writes.
func (res *Result) TraceString() string {
	var b strings.Builder
	res.WriteTrace(&b)
	return b.String()
}

func formatBindings(bs []Binding) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.Name + "=" + b.Value.String()
	}
	return strings.Join(parts, " ")
}
