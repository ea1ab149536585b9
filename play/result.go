package play

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// Result is the outcome of one run.
type Result struct {
	Verdict  Verdict
	Reason   string
	Seed     int64
	Trace    []Step
	Location string // where the run ended
	Elapsed  time.Duration
	// Window is the quiescence window at the end of the run (0 for an
	// in-process SUT, whose quiescence is exact), and Latencies the SUT's
	// response latencies measured in the run (from a send or an output
	// to the next output).
	Window    time.Duration
	Latencies []time.Duration
}

// WriteTrace writes the run's trace as a table, one step a line: what
// happened, the oracle's account of it (the transition taken, or the
// rule applied), where the run went and the state after the step; then
// how the run ended (Ending).
func (res *Result) WriteTrace(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  #\tstep\taction\ttransition\tlocation\tstate\n")
	for i, s := range res.Trace {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s\n", i+1, stepKind(s), expr.Printable(stepAction(s)),
			expr.Printable(stepTransition(s)), expr.Printable(stepTo(s)), expr.Printable(stepState(s)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return res.Ending().Write(w)
}

func stepKind(s Step) string {
	kind := s.Kind.String()
	if s.Planned {
		kind += "*"
	}
	return kind
}

func stepAction(s Step) string {
	action := Describe(s)
	if s.Kind == Received && s.Action == "" {
		action = "(unreadable output)"
	}
	if s.Kind == Quiescence && s.Silence > 0 {
		action += fmt.Sprintf(" (silent %v)", s.Silence.Round(time.Millisecond))
	}
	if s.Retracted {
		action += " (retracted: a late output followed)"
	}
	return action
}

func stepTransition(s Step) string {
	switch {
	case s.Transition != "":
		return s.Transition
	case s.Kind == Sent:
		return "(not delivered)"
	}
	return "(none)"
}

func stepTo(s Step) string {
	if s.To == "" {
		return s.From
	}
	return s.To
}

func stepState(s Step) string {
	if s.States > 1 {
		return s.State + fmt.Sprintf("  (1 of %d possible states)", s.States)
	}
	return s.State
}

// Ending returns how the run ended, as the last lines of its trace tell.
func (res *Result) Ending() Ending {
	verdict := ""
	if res.Verdict != None {
		verdict = res.Verdict.String()
	}
	return Ending{Verdict: verdict, Reason: res.Reason, Steps: len(res.Trace), Seed: res.Seed, Window: res.Window, Latencies: res.Latencies}
}

// TraceString returns what WriteTrace writes.
func (res *Result) TraceString() string {
	var b strings.Builder
	res.WriteTrace(&b)
	return b.String()
}

// An Ending is how a run ended, as the last lines of its trace tell it.
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
		_, err := fmt.Fprintf(w, "no verdict: %s; after %d steps, seed %d\n", expr.Printable(e.Reason), e.Steps, e.Seed)
		return err
	}
	if _, err := fmt.Fprintf(w, "verdict: %s (%s) after %d steps, seed %d\n", e.Verdict, expr.Printable(e.Reason), e.Steps, e.Seed); err != nil {
		return err
	}
	if e.Window > 0 {
		_, err := fmt.Fprintf(w, "quiescence window %v; %s\n", e.Window.Round(time.Millisecond), Summarize(e.Latencies))
		return err
	}
	return nil
}

// Latencies summarises the response latencies of a run.
type Latencies struct {
	N                int
	Min, Median, Max time.Duration
}

func (l Latencies) String() string {
	if l.N == 0 {
		return "no latency measured"
	}
	r := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	return fmt.Sprintf("latency min %v, median %v, max %v (%d outputs)", r(l.Min), r(l.Median), r(l.Max), l.N)
}

// Summarize returns the minimum, median and maximum of latencies.
func Summarize(ds []time.Duration) Latencies {
	if len(ds) == 0 {
		return Latencies{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return Latencies{N: len(s), Min: s[0], Median: s[len(s)/2], Max: s[len(s)-1]}
}

// TraceEvents returns the events of a run's trace as a trace file holds
// them: sends, outputs and quiescence (delta); a retracted quiescence is
// left out (the run was judged without it). An output that could not be
// read is written with the action "?".
func TraceEvents(trace []Step) []specfile.TraceEvent {
	evs := make([]specfile.TraceEvent, 0, len(trace))
	for _, s := range trace {
		if s.Retracted {
			continue
		}
		ev := specfile.TraceEvent{Send: s.Kind == Sent, Action: s.Action}
		switch {
		case s.Kind == Quiescence:
			ev.Action = spec.Delta
		case ev.Action == "":
			ev.Action = "?"
		}
		switch {
		case s.Raw != nil && s.Kind == Received:
			ev.Args = s.Raw
		case len(s.Args) > 0 && s.Kind != Quiescence:
			ev.Args = make(map[string]any, len(s.Args))
			for _, b := range s.Args {
				ev.Args[b.Name] = b.Value
			}
		}
		evs = append(evs, ev)
	}
	return evs
}
