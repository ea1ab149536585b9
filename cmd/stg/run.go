package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/report"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "play a test case against a system under test",
		ArgsUsage: "TESTCASE|SYMPURPOSE [--tcp HOST:PORT | -- COMMAND [ARGS...]]",
		UsageText: "stg run TESTCASE [options] -- COMMAND [ARGS...]\nstg run TESTCASE [options] --tcp HOST:PORT",
		Description: `Run starts COMMAND afresh for each run (or connects to --tcp HOST:PORT),
talks to it in JSON Lines on its stdin and stdout (docs/reference.md#wire-protocol), plays the
test case and prints the verdict and the trace of each run. Parameter
values are chosen by the solver among those the guards allow, guided by a
search for a path to Pass of at most --depth steps (0: a random walk) and
varied by the seed. Run N plays seed S+N-1; a failing run prints the
command line that replays it. The SUT's stderr is passed through.

Quiescence is observed by waiting. The window is set from the SUT's
measured response latencies (--quiescence auto, the default: 4 times the
largest latency, at least 200ms) or fixed (--quiescence 500ms). A silence
that would lead to Fail is confirmed: the SUT gets Fail only when it stayed
silent for --confirm. Until the SUT has been heard from (an output, or the
readiness line {"ready":true}), quiescence is not concluded before
--startup has passed since it was started. A SUT that exits, is killed or
drops the connection is reported as such (exit code 3), with its status and
its last lines on stderr; it is never taken for a quiet SUT.

Given a sympurpose file (stg purposes), run tests on-line by symbolic
execution of its spec (AGATHA's rules 0-6): stimuli are chosen toward the
purpose's accept nodes, and the verdict may also be WeakPass (the target
was reached, but another path of the spec explains the run too). Both
kinds of file are played by the same engine: every option below applies
to both, but --plan and --depth (a sympurpose steers by its accept nodes,
not by planning) and the coverage table (transitions of a test case).

External functions the model calls are evaluated as it says: the rows of
their tables first (--tables FILE replaces them), then their impl:
commands, run in the model file's directory (--impl NAME=COMMAND replaces
one; it runs in the current directory). A command speaks JSON Lines,
{"args":[...]} in, {"result":...} out, and each call is bounded by
--call-timeout. A call that cannot be evaluated (no row and no
implementation, a crash, a timeout, an ill-typed result) ends the run
with an error naming the call (exit code 3), never with a verdict.

Planning (--plan): diverse, the default, stretches each run's path to Pass
by a number of steps its seed fixes (seed mod (depth/2+1): loop
iterations, longer ways to Pass), so that consecutive runs try paths from
the shortest up to the depth bound; shortest always takes a shortest path;
random is the random walk of --depth 0. Boundary values of the guards'
linear comparisons are candidates for the values sent.

A campaign (--seed S --runs N: run K plays seed S+K-1) splits: --shard I/N
plays runs I, I+N, ... with the same seeds and verdicts as the whole
campaign, and stg report merge combines the shards' --report or
--report-json files into the campaign's report. --parallel K plays K runs
at once, each with its own SUT.

The overall verdict is Fail if any run failed, else Pass if any passed, else
WeakPass if any gave it, else Inconc. Exit codes: 0 Pass, 1 Fail, 2 Inconc,
3 error (bad input, or a SUT that could not be started or talked to), 4
WeakPass.

Example:
   stg generate examples/cmp/spec.yaml examples/cmp/purpose.yaml -o cmp.tc.yaml
   stg run cmp.tc.yaml --runs 100 --report report.xml -- ./sut
   stg run cmp.tc.yaml --seed 1234 --runs 1 -- ./sut      # replay one run
   stg run cmp.tc.yaml --tcp localhost:7000
   stg run cmp.tc.yaml --seed 1 --runs 400 --shard 2/4 --parallel 2 --report-json shard-2.json -- ./sut` + replayHelp, // replay.go
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "runs", Value: 1, Usage: "play `N` runs, with seeds S, S+1, ..."},
			&cli.Int64Flag{Name: "seed", Usage: "the first seed `S`", DefaultText: "random, printed"},
			&cli.StringFlag{Name: "quiescence", Value: "auto", Usage: "`WINDOW` of silence that counts as quiescence (delta): a duration, or auto (from measured latencies, at least 200ms)"},
			&cli.DurationFlag{Name: "confirm", Value: runner.DefaultConfirm, Usage: "a silence that would lead to Fail must last `DURATION`"},
			&cli.DurationFlag{Name: "startup", Value: runner.DefaultStartup, Usage: "start-up allowance: no quiescence before `DURATION` after the SUT started, until it is heard from"},
			&cli.IntFlag{Name: "depth", Value: runner.DefaultDepth, Usage: "look for paths to Pass of at most `K` steps; 0: random walk"},
			&cli.StringFlag{Name: "plan", Value: "diverse", Usage: "steer toward Pass along `PATHS`: diverse (each run's seed stretches its path: loop iterations, longer ways), shortest, or random (a random walk, as --depth 0)"},
			&cli.StringFlag{Name: "shard", Usage: "play share `I/N` of the runs: runs I, I+N, I+2N, ... of the campaign (needs --seed); the shards' reports merge (stg report merge) into the campaign's"},
			&cli.IntFlag{Name: "parallel", Aliases: []string{"p"}, Value: 1, Usage: "play `K` runs at once, each with its own SUT and solver (same seeds, same verdicts); at most as many as the runs to play, and at most 64"},
			&cli.StringFlag{Name: "report-json", Usage: "write a JSON report to `FILE`: per run its verdict, seed, steps, transitions and latencies"},
			&cli.IntFlag{Name: "max-steps", Value: runner.DefaultMaxSteps, Usage: "end a run Inconc after `M` steps"},
			&cli.DurationFlag{Name: "timeout", Value: runner.DefaultTimeout, Usage: "end a run Inconc after `DURATION` (also bounds a TCP connect)"},
			&cli.StringFlag{Name: "report", Usage: "write a JUnit XML report to `FILE`"},
			&cli.StringFlag{Name: "tcp", Usage: "talk to a SUT listening at `HOST:PORT` instead of starting COMMAND"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only the first failing run (its trace and replay line) and the summary"},
			&cli.StringFlag{Name: "spec", Usage: "with a sympurpose: its spec `SPEC` (default: the spec the sympurpose names)"},
		}, append(replayFlags(), funcFlags()...)...), // replay.go, funcs.go
		Action: runAction,
	}
}

// session is one invocation of stg run: the campaign's runs and first
// seed, how each run gets its SUT, the command line that replays a run,
// the results so far and the first error.
type session struct {
	c              *cli.Context
	t              *playable
	runs           int
	seed           int64
	shard          play.Shard
	start          adapter.Starter
	replay         string
	runErr         error
	fails          int // failing runs so far: -q prints the first only
	results        []*play.Result
	runNums        []int // the run number of each result in the campaign
	counts         map[play.Verdict]int
	cov            *report.Coverage // coverage.go
	saved          bool             // a trace was saved to --save-trace
	stdout, stderr io.Writer
}

// runAction is the action of stg run, on a test case or a sympurpose.
func runAction(c *cli.Context) error {
	file, command, err := runArgs(c)
	if err != nil {
		return err
	}
	for _, f := range []string{"report", "report-json", "save-trace"} {
		if err := outputWritable(c, f, file); err != nil { // suggest.go: before any run
			return err
		}
	}
	opts, err := runOptions(c)
	if err != nil {
		return err
	}
	shard, err := campaignShard(c)
	if err != nil {
		return err
	}
	t, err := loadPlayable(c, file, opts, len(shard.Runs(c.Int("runs")))) // playable.go
	if err != nil {
		return err
	}
	defer t.close()
	s := newSession(c, t, shard, command, opts.Timeout)
	ctx, stop := interruptible()
	defer stop()
	if path := c.String("replay"); path != "" {
		return s.replayTrace(ctx, path) // replay.go
	}
	s.header()
	s.play(ctx)
	s.afterCampaign(ctx) // replay.go: --shrink; coverage.go
	return s.finish()
}

// outputWritable refuses an output file of flag that is the input file,
// or, for a report, that cannot be written.
func outputWritable(c *cli.Context, flag, input string) error {
	path := c.String(flag)
	if err := tool.RefuseOverwrite("stg run: --"+flag, path, input, c.String("spec")); err != nil { // files.go
		return tool.InputError(err)
	}
	if path == "" || flag == "save-trace" {
		return nil
	}
	if err := reportWritable(path); err != nil {
		return tool.InputError(err)
	}
	return nil
}

// newSession reads --runs and --seed (random, printed, when not given)
// for the campaign's shard, and sets how each run gets its SUT.
func newSession(c *cli.Context, t *playable, shard play.Shard, command []string, timeout time.Duration) *session {
	s := &session{c: c, t: t, runs: c.Int("runs"), seed: c.Int64("seed"), shard: shard, counts: map[play.Verdict]int{},
		stdout: c.App.Writer, stderr: c.App.ErrWriter}
	if !c.IsSet("seed") {
		s.seed = rand.Int64N(1_000_000)
	}
	s.starter(t.replayArg, command, timeout)
	return s
}

// header prints what the campaign plays.
func (s *session) header() {
	fmt.Fprintf(s.stdout, "%s %s: %d run(s), seeds %d..%d, %s", s.t.kind, s.t.name, s.runs, s.seed, s.seed+int64(s.runs)-1, s.t.about)
	if s.shard.N > 0 {
		fmt.Fprintf(s.stdout, ", shard %s: %d run(s)", s.shard, len(s.shard.Runs(s.runs)))
	}
	if n := len(s.t.engines); n > 1 {
		fmt.Fprintf(s.stdout, ", %d at once", n)
	}
	fmt.Fprintln(s.stdout)
}

// interruptible returns a context that SIGINT, SIGTERM and SIGHUP
// (timeout(1), CI cancellation) end: the run ends, and the SUT's process
// group is killed.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}

// play plays the campaign's runs (the shard's), printing each in order,
// until one ends in an error.
func (s *session) play(ctx context.Context) {
	began, progress := time.Now(), time.Now()
	camp := play.Campaign{Seed: s.seed, Runs: s.runs, Shard: s.shard, Start: s.start}
	total := len(s.shard.Runs(s.runs))
	camp.Play(ctx, s.t.engines, func(p play.Played) bool {
		if !s.took(p) {
			return false
		}
		if total > 1 && time.Since(progress) >= time.Second {
			progress = time.Now()
			fmt.Fprintf(s.stderr, "stg run: %d/%d runs: %s (%.1fs)\n", len(s.results), total, s.countsText(), time.Since(began).Seconds())
		}
		return true
	})
}

// took records and prints a run played; false when it ended in an error.
func (s *session) took(p play.Played) bool {
	res := p.Res
	if res == nil {
		res = &play.Result{Seed: p.Seed}
	}
	s.results, s.runNums = append(s.results, res), append(s.runNums, p.Run)
	if p.Err != nil {
		res.Reason = p.Err.Error()
		s.runErr = fmt.Errorf("run %d (seed %d): %w", p.Run, p.Seed, p.Err)
		fmt.Fprintf(s.stdout, "\nrun %d/%d, seed %d: error: %v\n", p.Run, s.runs, p.Seed, p.Err)
		if len(res.Trace) > 0 {
			res.WriteTrace(s.stdout)
		}
		return false
	}
	s.counts[res.Verdict]++
	s.printRun(p.Run, res)
	s.saveRun(res) // replay.go: --save-trace
	return true
}

// printRun prints run k's verdict and trace, and for a failing run the
// command line that replays it; with -q only the first failing run is
// printed.
func (s *session) printRun(k int, res *play.Result) {
	fail := res.Verdict == play.Fail
	if fail {
		s.fails++
	}
	if s.c.Bool("quiet") && !(fail && s.fails == 1) {
		return
	}
	fmt.Fprintf(s.stdout, "\nrun %d/%d, seed %d: %s (%s)\n", k, s.runs, res.Seed, res.Verdict, spec.Printable(res.Reason))
	res.WriteTrace(s.stdout)
	if fail {
		fmt.Fprintf(s.stdout, "replay: "+s.replay+"\n", res.Seed)
	}
}

// countsText prints the verdicts so far.
func (s *session) countsText() string {
	count := map[string]int{}
	for v, n := range s.counts {
		count[v.String()] = n
	}
	return report.Counts(count, s.t.kind == "sympurpose")
}

// overall is the campaign's verdict.
func (s *session) overall() play.Verdict {
	var vs []play.Verdict
	for v, n := range s.counts {
		if n > 0 {
			vs = append(vs, v)
		}
	}
	if o := play.Overall(vs...); o != play.None {
		return o
	}
	return play.Inconc
}

// finish prints the summary, writes the reports and sets the exit code.
func (s *session) finish() error {
	overall := s.overall()
	summary := overall.String()
	if s.runErr != nil {
		summary = "error"
	}
	fmt.Fprintf(s.stdout, "\n%s: %s in %d run(s): %s\n", s.t.name, s.countsText(), len(s.results), summary)
	if w := report.Timing(s.results); w != "" {
		fmt.Fprintln(s.stdout, w)
	}
	s.printCoverage() // coverage.go
	if err := s.writeReports(); err != nil {
		return err
	}
	if s.runErr != nil {
		return s.errorExit()
	}
	return verdictExit(overall)
}

// writeReports writes --report and --report-json.
func (s *session) writeReports() error {
	camp := s.campaign()
	if path := s.c.String("report"); path != "" {
		if err := camp.WriteJUnit(path); err != nil {
			return tool.InputError(fmt.Errorf("writing the report: %v", err))
		}
	}
	if path := s.c.String("report-json"); path != "" {
		if err := report.WriteJSON(path, camp.JSON()); err != nil {
			return tool.InputError(fmt.Errorf("writing the JSON report: %v", err))
		}
	}
	return nil
}

// campaign describes the campaign for its reports.
func (s *session) campaign() *report.Campaign {
	camp := &report.Campaign{Name: s.t.name, FirstSeed: s.seed, Runs: s.runs, Shard: s.shard.String(),
		Results: s.results, RunNums: s.runNums, Err: s.runErr, Coverage: s.cov}
	if s.t.tc != nil {
		o := s.t.opts
		camp.Plan, camp.Depth = o.Plan.String(), o.Depth
		if o.Depth == 0 {
			camp.Plan = runner.Walk.String()
		}
	} else {
		camp.Kind = s.t.kind
	}
	return camp
}

// verdictExit is the exit of a campaign or replay whose verdict is v.
func verdictExit(v play.Verdict) error {
	if code := v.ExitCode(); code != exitPass {
		return &tool.Exit{Code: code}
	}
	return nil
}

// errorExit is the exit of a campaign that ended in an error (exit code 3).
func (s *session) errorExit() error {
	if errors.Is(s.runErr, context.Canceled) {
		return &tool.Exit{Code: exitError, Err: errors.New("stg run: interrupted")}
	}
	return &tool.Exit{Code: exitError, Err: fmt.Errorf("stg run: %v", s.runErr)}
}

// runArgs reads the file to play and the SUT command line.
func runArgs(c *cli.Context) (file string, command []string, err error) {
	args, err := positionalArgs(c)
	if err != nil {
		return "", nil, usageError(c, "%v", err)
	}
	if len(args) == 0 {
		return "", nil, usageError(c, "stg run needs a TESTCASE or SYMPURPOSE")
	}
	file, command = args[0], args[1:]
	tcp := c.String("tcp")
	switch {
	case tcp == "" && len(command) == 0:
		return "", nil, usageError(c, "stg run needs the SUT: -- COMMAND [ARGS...] or --tcp HOST:PORT")
	case tcp != "" && len(command) > 0:
		return "", nil, usageError(c, "give either --tcp or a COMMAND, not both")
	}
	return file, command, nil
}

// runOptions reads the engine's and the runner's options from the flags.
func runOptions(c *cli.Context) (runner.Options, error) {
	if c.Int("runs") < 1 {
		return runner.Options{}, usageError(c, "--runs must be at least 1")
	}
	if c.Int("depth") < 0 || c.Int("max-steps") < 1 || c.Duration("timeout") <= 0 || c.Duration("confirm") <= 0 || c.Duration("startup") < 0 {
		return runner.Options{}, usageError(c, "--depth and --startup must be >= 0, and --max-steps, --confirm and --timeout positive")
	}
	plan, err := runner.ParseStrategy(c.String("plan"))
	if err != nil {
		return runner.Options{}, usageError(c, "--plan: %v", err)
	}
	if c.Int("parallel") < 1 {
		return runner.Options{}, usageError(c, "--parallel must be at least 1 (at most %d workers are used)", play.MaxParallel)
	}
	q, err := runner.ParseQuiescence(c.String("quiescence"))
	if err != nil {
		return runner.Options{}, usageError(c, "--quiescence: %v%s", err, durationHint(c.String("quiescence"))) // suggest.go
	}
	opts := runner.Options{Plan: plan, Depth: c.Int("depth")}
	opts.Quiescence, opts.Auto = q.Window, q.Auto
	opts.Confirm, opts.Startup = c.Duration("confirm"), c.Duration("startup")
	opts.MaxSteps, opts.Timeout = c.Int("max-steps"), c.Duration("timeout")
	if opts.Startup == 0 {
		opts.Startup = time.Nanosecond // no allowance
	}
	return opts, nil
}

// starter sets how each run gets its SUT: a fresh process, or a TCP
// connection whose connect the run timeout bounds.
func (s *session) starter(replayFile string, command []string, timeout time.Duration) {
	s.replay = "stg run " + replayFile + " --seed %d --runs 1"
	if tcp := s.c.String("tcp"); tcp != "" {
		s.start = func(ctx context.Context) (adapter.Adapter, error) {
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			return adapter.DialTCP(ctx, tcp)
		}
		s.replay += " --tcp " + tcp
		return
	}
	s.start = adapter.Command(command, s.stderr)
	s.replay += " -- " + shellJoin(command)
}

// campaignShard reads --shard; a shard needs a fixed first seed, for
// every shard must deal from the same campaign.
func campaignShard(c *cli.Context) (play.Shard, error) {
	if !c.IsSet("shard") {
		return play.Shard{}, nil
	}
	sh, err := play.ParseShard(c.String("shard"))
	if err != nil {
		return play.Shard{}, usageError(c, "%v", err)
	}
	if !c.IsSet("seed") {
		return play.Shard{}, usageError(c, "--shard needs --seed: every shard must play its share of the same seeds")
	}
	return sh, nil
}

// shellJoin quotes words for a shell where needed.
func shellJoin(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		if w != "" && strings.IndexFunc(w, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			q[i] = w
		} else {
			q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}
