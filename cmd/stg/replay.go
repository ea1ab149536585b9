package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/report"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

// Saving, replaying and shrinking runs (stg run TESTCASE|SYMPURPOSE):
// --save-trace writes a run's exchange as a trace file
// (docs/reference.md#trace-files), --replay plays a trace file's stimuli again, --shrink
// cuts a failing run down (runner.Shrink).

// replayFlags are the flags of stg run for saving, replaying and
// shrinking runs.
func replayFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "save-trace", Usage: "write the trace of the run to `FILE` (JSON Lines; for --replay and stg verdict); with several runs, the first run that gave the overall verdict is saved to FILE, and each failing run to FILE with its seed inserted"},
		&cli.StringFlag{Name: "replay", Usage: "play exactly the stimuli of the trace `FILE` (written by --save-trace) and report whether the SUT fails the same way as recorded"},
		&cli.BoolFlag{Name: "shrink", Usage: "on a Fail, search a shorter failing stimulus sequence with smaller values (each candidate against a fresh SUT) and save the trace that replays it"},
		&cli.IntFlag{Name: "shrink-runs", Value: play.DefaultShrinkRuns, Usage: "play at most `N` candidate runs when shrinking"},
	}
}

// replayHelp is the part of stg run's description on saving, replaying
// and shrinking runs.
const replayHelp = `
--save-trace FILE writes the exchange of a run as a trace file (JSON
Lines, docs/reference.md#trace-files: the stimuli sent, the outputs received, quiescence as
delta). With one run it is FILE; with several, each failing run is saved
to FILE with its seed inserted (trace-seed42.jsonl). --replay FILE plays
exactly the stimuli of a trace file, each after the observations recorded
before it, judges the SUT's outputs by the test case as usual, and says
whether the SUT fails the same way as recorded (same verdict, same failing
observation); the exit code is the replay's verdict. A stimulus the test
case does not allow where the replay is (the SUT went another way) is an
error. --shrink (off by default: every candidate is a fresh SUT) shrinks
the first failing run: delta debugging over its stimuli, then each value
moved toward 0 as far as the guards allow (solved with Z3, stimuli
re-solved when earlier values change what they allow), at most
--shrink-runs candidate runs; it prints the smallest failing trace and
saves it (FILE-shrunk.jsonl with --save-trace FILE, else
TESTCASE-seedS-shrunk.jsonl) for --replay.

After several runs (or when a report is written), the coverage of the
test case is printed: how often each transition was taken, by how many
runs, the spec transition behind it (its name), and for each one never
taken whether Z3 finds a path of at most --depth steps from the initial
state that takes it (reachable, with the path) or proves there is none
(unreachable within the depth). --report-json holds it as "coverage", the
JUnit report as properties; stg dot TESTCASE --coverage REPORT.json draws
it.
`

// tracePath returns the file --save-trace writes run seed to: the flag's
// FILE for a campaign of one run, else FILE with the seed inserted
// before its extension.
func (s *session) tracePath(seed int64, suffix string) string {
	path := s.c.String("save-trace")
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
	if s.c.String("save-trace") == "" || res == nil || (s.runs > 1 && res.Verdict != play.Fail) {
		return
	}
	path := s.tracePath(res.Seed, "")
	if err := writeRunTrace(path, res); err != nil {
		fmt.Fprintf(s.stderr, "stg run: --save-trace: %v\n", err)
		return
	}
	if s.c.Bool("quiet") && res.Verdict == play.Fail && s.counts[play.Fail] > 1 {
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
		if err := spec.WriteTraceEvent(f, ev); err != nil {
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
		if s.c.IsSet(f) {
			return usageError(s.c, "--%s does not apply to --replay, which plays the stimuli of the trace file", f)
		}
	}
	events, err := readTraceFile(path)
	if err != nil {
		return tool.InputError(err)
	}
	e := s.t.engines[0]
	want, err := e.Judge(ctx, path, events)
	var se *play.StimulusError
	switch {
	case errors.As(err, &se):
		return tool.InputError(fmt.Errorf("%s: stimulus %d, %s, is not allowed by %s %s in %s",
			sendPos(path, events, se.Index), se.Index, se.Stimulus, s.t.kind, s.t.name, se.Where()))
	case err != nil:
		return tool.InputError(fmt.Errorf("%s: the recorded trace does not fit %s %s: %v", path, s.t.kind, s.t.name, err))
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
		return &tool.Exit{Code: exitError, Err: fmt.Errorf("stg run: --replay %s: %v", path, err)}
	case errors.Is(err, context.Canceled):
		return &tool.Exit{Code: exitError, Err: errors.New("stg run: interrupted")}
	case err != nil:
		return &tool.Exit{Code: exitError, Err: fmt.Errorf("stg run: %v", err)}
	}
	fmt.Fprintln(s.stdout, compareReplay(want, got))
	if got.Verdict == play.Fail && s.c.Bool("shrink") {
		if err := s.shrink(ctx, got); err != nil {
			return err
		}
	}
	return verdictExit(got.Verdict)
}

// readTraceFile reads a trace file.
func readTraceFile(path string) ([]spec.TraceEvent, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return spec.ReadTrace(path, f)
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
	if !s.c.Bool("shrink") || s.runErr != nil {
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
	fmt.Fprintf(s.stdout, "\nshrinking the failing run of seed %d (%d stimuli, %d steps), at most %d runs\n", failed.Seed, n, len(failed.Trace), s.c.Int("shrink-runs"))
	sh, err := s.t.engines[0].Shrink(ctx, s.start, failed, s.c.Int("shrink-runs"))
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
	if n := s.counts[play.Fail]; n > 1 && s.runs > 1 && s.c.Bool("quiet") && s.c.String("save-trace") != "" {
		fmt.Fprintf(s.stdout, "traces of the %d failing runs saved to %s\n", n, s.tracePath(0, "-seedS"))
	}
	s.saveOverall()
	s.shrinkFirstFail(ctx)
	if s.t.tc != nil && (len(s.results) > 1 || s.c.String("report") != "" || s.c.String("report-json") != "") {
		s.cov = report.CoverageOf(s.computeCoverage(ctx, s.t.tc), s.t.tc.Testcase()) // coverage.go
	}
}

// saveOverall saves the first run of several that gave the campaign's
// verdict to --save-trace FILE itself (for stg verdict or --replay); the
// failing runs were saved with their seeds inserted.
func (s *session) saveOverall() {
	path := s.c.String("save-trace")
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

// sendPos returns FILE:LINE:1 of the k-th send event (from 1).
func sendPos(path string, events []spec.TraceEvent, k int) string {
	for _, ev := range events {
		if ev.Send {
			if k--; k == 0 {
				return fmt.Sprintf("%s:%d:1", path, ev.Line)
			}
		}
	}
	return path
}
