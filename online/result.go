package online

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/stg-tool/stg/runner"
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
	verdict := ""
	if res.Verdict != None {
		verdict = res.Verdict.String()
	}
	return runner.Ending{Verdict: verdict, Reason: res.Reason, Steps: len(res.Steps), Seed: res.Seed, Window: res.Window, Latencies: res.Latencies}.Write(w)
}

// TraceString returns what WriteTrace writes.
func (res *Result) TraceString() string {
	var b strings.Builder
	res.WriteTrace(&b)
	return b.String()
}
