package main

import (
	"context"
	"encoding/xml"
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
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "play a test case against a system under test",
		ArgsUsage: "TESTCASE|SYMPURPOSE [--tcp HOST:PORT | -- COMMAND [ARGS...]]",
		UsageText: "stg run TESTCASE [options] -- COMMAND [ARGS...]\nstg run TESTCASE [options] --tcp HOST:PORT",
		Description: `Run starts COMMAND afresh for each run (or connects to --tcp HOST:PORT),
talks to it in JSON Lines on its stdin and stdout (FORMAT.md §4), plays the
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
was reached, but another path of the spec explains the run too);
--save-trace FILE writes the run as a trace for stg verdict.

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
			&cli.IntFlag{Name: "parallel", Aliases: []string{"p"}, Value: 1, Usage: "play `K` runs at once, each with its own SUT (same seeds, same verdicts)"},
			&cli.StringFlag{Name: "report-json", Usage: "write a JSON report to `FILE`: per run its verdict, seed, steps, transitions and latencies"},
			&cli.IntFlag{Name: "max-steps", Value: runner.DefaultMaxSteps, Usage: "end a run Inconc after `M` steps"},
			&cli.DurationFlag{Name: "timeout", Value: runner.DefaultTimeout, Usage: "end a run Inconc after `DURATION` (also bounds a TCP connect)"},
			&cli.StringFlag{Name: "report", Usage: "write a JUnit XML report to `FILE`"},
			&cli.StringFlag{Name: "tcp", Usage: "talk to a SUT listening at `HOST:PORT` instead of starting COMMAND"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only the first failing run (its trace and replay line) and the summary"},
		}, append(append(symRunFlags(), replayFlags()...), funcFlags()...)...), // replay.go
		Action: runTestcase,
	}
}

// session is what the two routes of stg run share: the campaign's runs
// and first seed, how each run gets its SUT, the command line that
// replays a run, the first error, and which runs are printed.
type session struct {
	c              *cli.Context
	file           string
	runs           int
	seed           int64
	start          adapter.Starter
	replay         string
	runErr         error
	fails          int // failing runs so far: -q prints the first only
	stdout, stderr io.Writer
}

// newSession reads --runs and --seed (random, printed, when not given)
// and sets how each run gets its SUT; replayFile is the file as the
// replay line names it.
func newSession(c *cli.Context, file, replayFile string, command []string, timeout time.Duration) session {
	s := session{c: c, file: file, runs: c.Int("runs"), seed: c.Int64("seed"), stdout: c.App.Writer, stderr: c.App.ErrWriter}
	if !c.IsSet("seed") {
		s.seed = rand.Int64N(1_000_000)
	}
	s.starter(replayFile, command, timeout)
	return s
}

// interruptible returns a context that SIGINT, SIGTERM and SIGHUP
// (timeout(1), CI cancellation) end: the run ends, and the SUT's process
// group is killed.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
}

// tracer is a run's result: its trace as a table.
type tracer interface{ WriteTrace(io.Writer) error }

// failed records that run k (seed) ended in err, and prints it with the
// steps played before it (steps > 0).
func (s *session) failed(k int, seed int64, err error, res tracer, steps int) {
	s.runErr = fmt.Errorf("run %d (seed %d): %w", k, seed, err)
	fmt.Fprintf(s.stdout, "\nrun %d/%d, seed %d: error: %v\n", k, s.runs, seed, err)
	if steps > 0 {
		res.WriteTrace(s.stdout)
	}
}

// printRun prints run k's verdict and trace, and for a failing run the
// command line that replays it; with -q only the first failing run is
// printed.
func (s *session) printRun(k int, seed int64, verdict fmt.Stringer, reason string, fail bool, res tracer) {
	if fail {
		s.fails++
	}
	if s.c.Bool("quiet") && !(fail && s.fails == 1) {
		return
	}
	fmt.Fprintf(s.stdout, "\nrun %d/%d, seed %d: %s (%s)\n", k, s.runs, seed, verdict, reason)
	res.WriteTrace(s.stdout)
	if fail {
		fmt.Fprintf(s.stdout, "replay: "+s.replay+"\n", seed)
	}
}

// errorExit is the exit of a campaign that ended in an error (exit code 3).
func (s *session) errorExit() error {
	if errors.Is(s.runErr, context.Canceled) {
		return &exitCode{code: exitError, err: errors.New("stg run: interrupted")}
	}
	return &exitCode{code: exitError, err: fmt.Errorf("stg run: %v", s.runErr)}
}

// runSession is one invocation of stg run on a test case.
type runSession struct {
	session
	name    string
	opts    runner.Options
	shard   shard
	results []*runner.Result
	runNums []int // the run number of each result in the campaign
	counts  map[runner.Verdict]int
	cov     *jsonCoverage // coverage.go
}

// runTestcase is the action of stg run.
func runTestcase(c *cli.Context) error {
	file, command, err := runArgs(c)
	if err != nil {
		return err
	}
	if err := reportWritable(c.String("report")); err != nil { // suggest.go: before any run
		return inputError(err)
	}
	if err := reportWritable(c.String("report-json")); err != nil {
		return inputError(err)
	}
	if isSymPurpose(file) {
		for _, f := range []string{"plan", "shard", "parallel", "report-json", "replay", "shrink", "shrink-runs"} {
			if c.IsSet(f) {
				return usageError(c, "--%s applies to a test case, not to a sympurpose", f)
			}
		}
		return runSymPurpose(c, file, command)
	}
	opts, err := runOptions(c)
	if err != nil {
		return err
	}
	m, err := loadModel(file, nil)
	if err != nil {
		return inputError(err)
	}
	if m.Kind != spec.TestcaseKind {
		return inputError(fmt.Errorf("%s: stg run plays a testcase, not a %s", file, m.Kind))
	}
	if err := validateTestcase(m, c.App.ErrWriter); err != nil {
		return inputError(err)
	}
	funcs, err := funcRegistry(c, m, c.App.ErrWriter)
	if err != nil {
		return err
	}
	defer funcs.Close()
	opts.Funcs = funcs
	rs, closeAll, err := runners(c, m, opts)
	defer closeAll()
	if err != nil {
		return inputError(fmt.Errorf("%s: %v", file, err))
	}

	s := &runSession{session: newSession(c, file, file, command, opts.Timeout), name: m.Name, counts: map[runner.Verdict]int{}, opts: opts}
	if s.shard, err = campaignShard(c); err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	if path := c.String("replay"); path != "" {
		return s.replayTrace(ctx, rs[0], path) // replay.go
	}
	fmt.Fprintf(s.stdout, "test case %s: %d run(s), seeds %d..%d, depth %d, %s paths", m.Name, s.runs, s.seed, s.seed+int64(s.runs)-1, opts.Depth, opts.Plan)
	if s.shard.n > 0 {
		fmt.Fprintf(s.stdout, ", shard %s: %d run(s)", s.shard, len(s.shard.runs(s.runs)))
	}
	if len(rs) > 1 {
		fmt.Fprintf(s.stdout, ", %d at once", len(rs))
	}
	fmt.Fprintln(s.stdout)
	s.play(ctx, rs)
	s.afterCampaign(ctx, rs[0]) // replay.go: --shrink; coverage.go
	return s.finish()
}

// runArgs reads the test case file and the SUT command line.
func runArgs(c *cli.Context) (file string, command []string, err error) {
	args, err := positionalArgs(c)
	if err != nil {
		return "", nil, usageError(c, "%v", err)
	}
	if len(args) == 0 {
		return "", nil, usageError(c, "stg run needs a TESTCASE")
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

// runOptions reads the runner's options from the flags.
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
		return runner.Options{}, usageError(c, "--parallel must be at least 1")
	}
	opts := runner.Options{
		Plan:     plan,
		Depth:    c.Int("depth"),
		Confirm:  c.Duration("confirm"),
		Startup:  c.Duration("startup"),
		MaxSteps: c.Int("max-steps"),
		Timeout:  c.Duration("timeout"),
	}
	if opts.Startup == 0 {
		opts.Startup = time.Nanosecond // no allowance
	}
	q, err := runner.ParseQuiescence(c.String("quiescence"))
	if err != nil {
		return runner.Options{}, usageError(c, "--quiescence: %v%s", err, durationHint(c.String("quiescence"))) // suggest.go
	}
	opts.Quiescence, opts.AutoQuiescence = q.Window, q.Auto
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

// play plays the campaign's runs (the shard's), printing each in order,
// until one ends in an error.
func (s *runSession) play(ctx context.Context, rs []*runner.Runner) {
	began, progress := time.Now(), time.Now()
	ks := s.shard.runs(s.runs)
	s.playAll(ctx, rs, ks, func(p *played) bool {
		seed := s.seed + int64(p.run-1)
		res, err := p.res, p.err
		if err != nil {
			if res == nil {
				res = &runner.Result{Seed: seed}
			}
			res.Reason = err.Error()
			s.results, s.runNums = append(s.results, res), append(s.runNums, p.run)
			s.failed(p.run, seed, err, res, len(res.Trace))
			return false
		}
		s.results, s.runNums = append(s.results, res), append(s.runNums, p.run)
		s.counts[res.Verdict]++
		s.printRun(p.run, seed, res.Verdict, res.Reason, res.Verdict == runner.Fail, res)
		s.saveRun(res) // replay.go: --save-trace
		if len(ks) > 1 && time.Since(progress) >= time.Second {
			progress = time.Now()
			fmt.Fprintf(s.stderr, "stg run: %d/%d runs: %d Pass, %d Fail, %d Inconc (%.1fs)\n",
				len(s.results), len(ks), s.counts[runner.Pass], s.counts[runner.Fail], s.counts[runner.Inconc], time.Since(began).Seconds())
		}
		return true
	})
}

// finish prints the summary, writes the report and sets the exit code.
func (s *runSession) finish() error {
	overall := runner.Inconc
	switch {
	case s.counts[runner.Fail] > 0:
		overall = runner.Fail
	case s.counts[runner.Pass] > 0:
		overall = runner.Pass
	}
	summary := overall.String()
	if s.runErr != nil {
		summary = "error"
	}
	fmt.Fprintf(s.stdout, "\n%s: %d Pass, %d Fail, %d Inconc in %d run(s): %s\n",
		s.name, s.counts[runner.Pass], s.counts[runner.Fail], s.counts[runner.Inconc], len(s.results), summary)
	if w := timing(s.results); w != "" {
		fmt.Fprintln(s.stdout, w)
	}
	s.printCoverage() // coverage.go
	if path := s.c.String("report"); path != "" {
		if err := writeJUnit(path, s.name, s.junitRuns(), s.runErr, append(timingProperty(s.results), coverageProperties(s.cov)...)...); err != nil {
			return inputError(fmt.Errorf("writing the report: %v", err))
		}
	}
	if path := s.c.String("report-json"); path != "" {
		if err := writeJSONReport(path, s.jsonReport()); err != nil {
			return inputError(fmt.Errorf("writing the JSON report: %v", err))
		}
	}
	switch {
	case s.runErr != nil:
		return s.errorExit()
	case overall == runner.Fail:
		return &exitCode{code: exitFail}
	case overall == runner.Inconc:
		return &exitCode{code: exitInconc}
	}
	return nil
}

// timing describes the quiescence windows and the latencies of all runs.
func timing(results []*runner.Result) string {
	var all []time.Duration
	var window time.Duration
	for _, r := range results {
		window = max(window, r.Window)
		all = append(all, r.Latencies...)
	}
	if window == 0 {
		return ""
	}
	return fmt.Sprintf("quiescence window up to %v; %s", window.Round(time.Millisecond), runner.Summarize(all))
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

// JUnit XML, as read by CI servers: one <testcase> per run.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
	SystemErr string        `xml:"system-err,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// junitRun is one run as a JUnit report holds it.
type junitRun struct {
	run           int
	seed          int64
	elapsed       time.Duration
	reason, trace string
	fail, inconc  bool
}

// junitRuns returns the test case's runs for the JUnit report.
func (s *runSession) junitRuns() []junitRun {
	runs := make([]junitRun, len(s.results))
	for i, res := range s.results {
		runs[i] = junitRun{run: s.runNums[i], seed: res.Seed, elapsed: res.Elapsed, reason: res.Reason, trace: res.TraceString(),
			fail: res.Verdict == runner.Fail, inconc: res.Verdict == runner.Inconc}
	}
	return runs
}

// timingProperty is the quiescence windows and latencies of the runs,
// as a property of the JUnit suite.
func timingProperty(results []*runner.Result) []junitProperty {
	if w := timing(results); w != "" {
		return []junitProperty{{Name: "timing", Value: w}}
	}
	return nil
}

// writeJUnit writes a JUnit XML report of the runs: a failing run is a
// failure, an Inconc one skipped, and the last run an error when the
// campaign ended in runErr.
func writeJUnit(path, name string, runs []junitRun, runErr error, props ...junitProperty) error {
	suite := junitSuite{Name: name, Tests: len(runs), Properties: props}
	var total time.Duration
	for i, r := range runs {
		total += r.elapsed
		tc := junitCase{
			Name:      fmt.Sprintf("run %d (seed %d)", r.run, r.seed),
			Classname: "stg." + name,
			Time:      fmt.Sprintf("%.3f", r.elapsed.Seconds()),
			SystemOut: r.trace,
		}
		switch {
		case runErr != nil && i == len(runs)-1:
			suite.Errors++
			tc.Error = &junitMessage{Message: r.reason}
			var exit *adapter.ExitError
			if errors.As(runErr, &exit) {
				tc.SystemErr = strings.Join(exit.Stderr, "\n")
			}
		case r.fail:
			suite.Failures++
			tc.Failure = &junitMessage{Message: r.reason, Text: r.trace}
		case r.inconc:
			suite.Skipped++
			tc.Skipped = &junitMessage{Message: "Inconc: " + r.reason}
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Time = fmt.Sprintf("%.3f", total.Seconds())
	return writeJUnitSuites(path, junitSuites{Suites: []junitSuite{suite}})
}

// writeJUnitSuites writes a JUnit XML report.
func writeJUnitSuites(path string, suites junitSuites) error {
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return err
	}
	out = append([]byte(xml.Header), out...)
	out = append(out, '\n')
	return os.WriteFile(path, out, 0o644)
}
