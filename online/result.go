package online

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteTrace writes the run as a table, one step a line: the event,
// the rule applied, the number of contexts after it and their nodes
// (for a verdict, the nodes of Next, accept ones marked), then the
// verdict.
func (res *Result) WriteTrace(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  #\tstep\tevent\trule\tcontexts\tnodes\n")
	for i, st := range res.Steps {
		kind := "obs"
		if st.Event.Stim {
			kind = "stim"
		}
		cs := st.SC
		if st.Verdict != None {
			cs = st.Next
		}
		nodes := make([]string, len(cs))
		for j, c := range cs {
			nodes[j] = c.Node.PathString()
			for _, p := range st.NextPass {
				if p.Node == c.Node {
					nodes[j] += " (accept)"
				}
			}
		}
		ev := st.Event.String()
		if st.Event.Bad != "" {
			ev = st.Event.Action + " (unspecified)"
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%d\t%s\n", i+1, kind, ev, st.Rule, len(cs), strings.Join(nodes, ", "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if res.Verdict == None {
		_, err := fmt.Fprintf(w, "no verdict: %s; after %d steps, seed %d\n", res.Reason, len(res.Steps), res.Seed)
		return err
	}
	if _, err := fmt.Fprintf(w, "verdict: %s (%s) after %d steps, seed %d\n", res.Verdict, res.Reason, len(res.Steps), res.Seed); err != nil {
		return err
	}
	if res.Window > 0 {
		_, err := fmt.Fprintf(w, "quiescence window %v; %d latencies measured\n", res.Window.Round(time.Millisecond), len(res.Latencies))
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
