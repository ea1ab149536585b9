package tool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/report"
	"github.com/stg-tool/stg/spec/specfile"
)

// Saving, replaying and shrinking runs (stg run TESTCASE|SYMPURPOSE):
// --save-trace writes a run's exchange as a trace file
// (docs/reference.md#trace-files), --replay plays a trace file's stimuli
// again, --shrink cuts a failing run down (play.Engine.Shrink).

// tracePath returns the file --save-trace writes run seed to: the flag's
// FILE for a campaign of one run, else FILE with the seed inserted
// before its extension.
func (s *session) tracePath(seed int64, suffix string) string {
	path := s.o.SaveTrace
	if path == "" {
		return ""
	}
	if s.runs == 1 && suffix == "" {
		return path
	}
	ext := filepath.Ext(path)
	if suffix == "" {
		suffix = fmt.Sprintf("-seed%d", seed)
	}
	return strings.TrimSuffix(path, ext) + suffix + ext
}

// saveRun writes a run's trace to --save-trace: the only run of the
// campaign, or a failing one.
func (s *session) saveRun(res *play.Result) {
	if s.o.SaveTrace == "" || res == nil || (s.runs > 1 && res.Verdict != play.Fail) {
		return
	}
	path := s.tracePath(res.Seed, "")
	if err := writeRunTrace(path, res); err != nil {
		fmt.Fprintf(s.stderr, "stg run: --save-trace: %v\n", err)
		return
	}
	if s.o.Quiet && res.Verdict == play.Fail && s.counts[play.Fail] > 1 {
		return // -q: the first failing run only; afterCampaign counts the others
	}
	fmt.Fprintf(s.stdout, "trace saved to %s; replay: %s\n", path, s.replayLine(path))
}

// replayLine is the command line that replays a trace file.
func (s *session) replayLine(path string) string {
	cmd := strings.Replace(s.replay, " --seed %d --runs 1", "", 1)
	head, tail, _ := strings.Cut(cmd, " -- ")
	if tail == "" {
		head, tail, _ = strings.Cut(cmd, " --tcp ")
		return head + " --replay " + shellJoin([]string{path}) + " --tcp " + tail
	}
	return head + " --replay " + shellJoin([]string{path}) + " -- " + tail
}

// writeRunTrace writes a run's exchange as a trace file.
func writeRunTrace(path string, res *play.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	for _, ev := range play.TraceEvents(res.Trace) {
		if err := specfile.WriteTraceEvent(f, ev); err != nil {
			f.Close()
			return fmt.Errorf("%s: %v", path, err)
		}
	}
	return f.Close()
}

// replayTrace is stg run FILE --replay TRACE: it judges the recorded
// trace by the test (the test case, or the sympurpose's rules), replays
// its stimuli against the SUT, and compares.
func (s *session) replayTrace(ctx context.Context, path string) error {
	for _, f := range []string{"runs", "seed", "shard", "parallel", "plan"} {
		if s.o.Given[f] {
			return UsageError("stg run", "--%s does not apply to --replay, which plays the stimuli of the trace file", f)
		}
	}
	events, err := readTraceFile(path)
	if err != nil {
		return InputError(err)
	}
	e := s.t.engines[0]
	want, err := e.Judge(ctx, path, events)
	var se *play.StimulusError
	switch {
	case errors.As(err, &se):
		return InputError(fmt.Errorf("%s: stimulus %d, %s, is not allowed by %s %s in %s",
			sendPos(path, events, se.Index), se.Index, se.Stimulus, s.t.kind, s.t.name, se.Where()))
	case err != nil:
		return InputError(fmt.Errorf("%s: the recorded trace does not fit %s %s: %v", path, s.t.kind, s.t.name, err))
	}
	sc, _ := play.ScriptFromTrace(e.Route(), path, events)
	fmt.Fprintf(s.stdout, "%s %s: replaying %d stimuli of %s (recorded: %s, %s)\n", s.t.kind, s.t.name, len(sc), path, want.Verdict, want.Reason)
	got, err := play.ReplayOnce(ctx, e, s.start, sc, false)
	if got != nil {
		got.Seed = want.Seed
		fmt.Fprintf(s.stdout, "\nreplay: %s (%s)\n", got.Verdict, got.Reason)
		got.WriteTrace(s.stdout)
	}
	switch {
	case errors.As(err, &se):
		return &Exit{Code: play.ExitError, Err: fmt.Errorf("stg run: --replay %s: %v", path, err)}
	case errors.Is(err, context.Canceled):
		return &Exit{Code: play.ExitError, Err: errors.New("stg run: interrupted")}
	case err != nil:
		return &Exit{Code: play.ExitError, Err: fmt.Errorf("stg run: %v", err)}
	}
	fmt.Fprintln(s.stdout, compareReplay(want, got))
	if got.Verdict == play.Fail && s.o.Shrink {
		if err := s.shrink(ctx, got); err != nil {
			return err
		}
	}
	return verdictExit(got.Verdict)
}

// compareReplay says whether a replay reproduced the recorded run.
func compareReplay(want, got *play.Result) string {
	last := func(res *play.Result) string {
		if len(res.Trace) == 0 {
			return "nothing"
		}
		return play.TraceEvents(res.Trace[len(res.Trace)-1:])[0].Action + stepText(res.Trace[len(res.Trace)-1])
	}
	switch {
	case want.Verdict != got.Verdict:
		return fmt.Sprintf("NOT REPRODUCED: recorded %s, replayed %s", want.Verdict, got.Verdict)
	case want.Verdict == play.Fail && last(want) != last(got):
		return fmt.Sprintf("Fail again, but on another observation: recorded %s, replayed %s", last(want), last(got))
	case want.Verdict == play.Fail:
		return fmt.Sprintf("REPRODUCED: the SUT fails the same way (%s)", last(got))
	}
	return fmt.Sprintf("REPRODUCED: %s again", got.Verdict)
}

// stepText prints a step's action and arguments.
func stepText(s play.Step) string {
	if len(s.Args) == 0 {
		return ""
	}
	parts := make([]string, len(s.Args))
	for i, b := range s.Args {
		parts[i] = b.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// shrinkFirstFail shrinks the campaign's first failing run (--shrink).
func (s *session) shrinkFirstFail(ctx context.Context) {
	if !s.o.Shrink || s.runErr != nil {
		return
	}
	for _, res := range s.results {
		if res.Verdict == play.Fail {
			if err := s.shrink(ctx, res); err != nil {
				fmt.Fprintf(s.stderr, "stg run: --shrink: %v\n", err)
			}
			return
		}
	}
}

// shrink shrinks a failing run, prints the result and saves its trace.
func (s *session) shrink(ctx context.Context, failed *play.Result) error {
	n := len(play.ScriptOf(failed.Trace))
	fmt.Fprintf(s.stdout, "\nshrinking the failing run of seed %d (%d stimuli, %d steps), at most %d runs\n", failed.Seed, n, len(failed.Trace), s.o.ShrinkRuns)
	sh, err := s.t.engines[0].Shrink(ctx, s.start, failed, s.o.ShrinkRuns)
	if err != nil {
		return fmt.Errorf("shrinking: %v", err)
	}
	if sh.Result != nil {
		sh.Result.Seed = failed.Seed
	}
	if !sh.Reproduced {
		fmt.Fprintf(s.stdout, "the failure did not reproduce when its stimuli were replayed (%d run): not shrunk\n", sh.Tried)
		return nil
	}
	fmt.Fprintf(s.stdout, "shrunk to %d stimuli, %d steps (from %d stimuli, %d steps) in %d runs: %s (%s)\n",
		len(sh.Script), len(sh.Result.Trace), n, len(failed.Trace), sh.Tried, sh.Result.Verdict, sh.Result.Reason)
	sh.Result.WriteTrace(s.stdout)
	path := s.tracePath(failed.Seed, "-shrunk")
	if path == "" {
		path = fmt.Sprintf("%s-seed%d-shrunk.jsonl", s.t.name, failed.Seed)
	}
	if err := writeRunTrace(path, sh.Result); err != nil {
		return err
	}
	fmt.Fprintf(s.stdout, "shrunk trace saved to %s; replay: %s\n", path, s.replayLine(path))
	return nil
}

// afterCampaign shrinks the first failing run (--shrink), saves the
// trace a campaign of several runs without failure gives (--save-trace),
// and computes the coverage of a test case played several times, or whose
// report is written.
func (s *session) afterCampaign(ctx context.Context) {
	if n := s.counts[play.Fail]; n > 1 && s.runs > 1 && s.o.Quiet && s.o.SaveTrace != "" {
		fmt.Fprintf(s.stdout, "traces of the %d failing runs saved to %s\n", n, s.tracePath(0, "-seedS"))
	}
	s.saveOverall()
	s.shrinkFirstFail(ctx)
	if s.t.tc != nil && (len(s.results) > 1 || s.o.Report != "" || s.o.ReportJSON != "") {
		s.cov = report.CoverageOf(s.computeCoverage(ctx, s.t.tc), s.t.tc.Testcase()) // coverage.go
	}
}

// saveOverall saves the first run of several that gave the campaign's
// verdict to --save-trace FILE itself (for stg verdict or --replay); the
// failing runs were saved with their seeds inserted.
func (s *session) saveOverall() {
	path := s.o.SaveTrace
	if path == "" || s.runs == 1 || s.runErr != nil || len(s.results) == 0 {
		return
	}
	overall := s.overall()
	for _, res := range s.results {
		if res.Verdict == overall {
			if err := writeRunTrace(path, res); err != nil {
				fmt.Fprintf(s.stderr, "stg run: --save-trace: %v\n", err)
				return
			}
			fmt.Fprintf(s.stdout, "trace of run seed %d (%s) saved to %s; replay: %s\n", res.Seed, res.Verdict, path, s.replayLine(path))
			return
		}
	}
}
