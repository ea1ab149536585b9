package tool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/online"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/report"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec/expr"
)

// RunOptions are the options of stg run TESTCASE|SYMPURPOSE: the file to
// play (File; Spec, the spec of a sympurpose, else the one it names),
// the SUT (Command, started afresh for each run, or TCP), the campaign
// (Runs from seed Seed, the share Shard "I/N", Parallel runs at once),
// the steering of a test case (Plan: diverse, shortest or random; Depth),
// the quiescence policy and bounds of a run (Quiescence: a duration or
// auto; Confirm, Startup, MaxConfirm, MaxSteps, Timeout), the reports (Report:
// JUnit, ReportJSON), saving, replaying and shrinking runs (SaveTrace,
// Replay, Shrink, ShrinkRuns), Quiet (print the first failing run
// only), the external functions (Funcs), and, for a sympurpose, what a
// run does on WeakPass (AfterWeakPass: stop or observe, see
// online.Options).
//
// Given names the options given explicitly, by their flag names (runs,
// seed, shard, parallel, plan, depth, ...): without seed the first seed
// is random (and printed); --replay refuses the campaign's options and
// a sympurpose the steering's, when given; EnsureDefaults leaves them.
type RunOptions struct {
	File, Spec string
	// Files are several test files to play in turn, each a campaign of
	// its own (runFiles); File is the one file otherwise.
	Files      []string
	Command    []string
	TCP        string
	Runs       int
	Seed       int64
	Shard      string
	Parallel   int
	Plan       string
	Depth      int
	Quiescence string
	Confirm    time.Duration
	Startup    time.Duration
	MaxConfirm time.Duration
	MaxSteps   int
	Timeout    time.Duration
	Report     string
	ReportJSON string
	SaveTrace  string
	Replay     string
	Shrink     bool
	ShrinkRuns int
	Quiet      bool
	Funcs      FuncOptions
	// AfterWeakPass is stop or observe (online.AfterWeakPass).
	AfterWeakPass string
	Given         map[string]bool
}

// EnsureDefaults sets the options that are zero and not Given to the
// defaults of stg run: one run, one at a time, diverse paths of depth
// runner.DefaultDepth, quiescence auto, and the bounds of runner's
// defaults.
func (o *RunOptions) EnsureDefaults() {
	def := func(name string, zero bool, set func()) {
		if zero && !o.Given[name] {
			set()
		}
	}
	def("runs", o.Runs == 0, func() { o.Runs = 1 })
	def("parallel", o.Parallel == 0, func() { o.Parallel = 1 })
	def("plan", o.Plan == "", func() { o.Plan = "diverse" })
	def("depth", o.Depth == 0, func() { o.Depth = runner.DefaultDepth })
	def("quiescence", o.Quiescence == "", func() { o.Quiescence = "auto" })
	def("confirm", o.Confirm == 0, func() { o.Confirm = runner.DefaultConfirm })
	def("startup", o.Startup == 0, func() { o.Startup = runner.DefaultStartup })
	def("max-confirm", o.MaxConfirm == 0, func() { o.MaxConfirm = runner.DefaultMaxConfirm })
	def("max-steps", o.MaxSteps == 0, func() { o.MaxSteps = runner.DefaultMaxSteps })
	def("timeout", o.Timeout == 0, func() { o.Timeout = runner.DefaultTimeout })
	def("shrink-runs", o.ShrinkRuns == 0, func() { o.ShrinkRuns = play.DefaultShrinkRuns })
	def("after-weakpass", o.AfterWeakPass == "", func() { o.AfterWeakPass = string(online.Stop) })
}

// session is one invocation of stg run: the campaign's runs and first
// seed, how each run gets its SUT, the command line that replays a run,
// the results so far and the first error.
type session struct {
	o              RunOptions
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

// Run is stg run: it plays a test case or a sympurpose against the SUT,
// run after run, prints each run's verdict and trace and the campaign's
// summary, and writes the reports; the exit code is the campaign's
// verdict. ctx ends the campaign (the SUTs' process groups are killed):
// the command line ends it on SIGINT, SIGTERM and SIGHUP.
//
// With several Files, each is a campaign of its own (runFiles).
func Run(ctx context.Context, opts RunOptions, stdout, stderr io.Writer) error {
	if len(opts.Files) > 1 {
		return runFiles(ctx, opts, stdout, stderr) // runfiles.go
	}
	if len(opts.Files) == 1 {
		opts.File = opts.Files[0]
	}
	_, err := runFile(ctx, opts, stdout, stderr)
	return err
}

// runFile is stg run on one test file; it returns the campaign played
// (nil if none was) for the reports of several files.
func runFile(ctx context.Context, opts RunOptions, stdout, stderr io.Writer) (*report.Campaign, error) {
	opts.EnsureDefaults()
	if err := opts.check(); err != nil {
		return nil, err
	}
	ropts, err := opts.runner()
	if err != nil {
		return nil, err
	}
	shard, err := opts.shard()
	if err != nil {
		return nil, err
	}
	t, err := loadPlayable(opts, ropts, len(shard.Runs(opts.Runs)), stderr) // playable.go
	if err != nil {
		return nil, err
	}
	defer t.close()
	s := newSession(opts, t, shard, stdout, stderr)
	if opts.Replay != "" {
		return nil, s.replayTrace(ctx, opts.Replay) // replay.go
	}
	s.header()
	s.play(ctx)
	s.afterCampaign(ctx) // replay.go: --shrink; coverage.go
	err = s.finish()
	return s.campaign(), err
}

// check checks the file to play, the SUT and the output files, before
// any run.
func (o RunOptions) check() error {
	switch {
	case o.File == "":
		return UsageError("stg run", "stg run needs a TESTCASE or SYMPURPOSE")
	case o.TCP == "" && len(o.Command) == 0:
		return UsageError("stg run", "stg run needs the SUT: -- COMMAND [ARGS...] or --tcp HOST:PORT")
	case o.TCP != "" && len(o.Command) > 0:
		return UsageError("stg run", "give either --tcp or a COMMAND, not both")
	}
	if _, err := online.ParseAfterWeakPass(o.AfterWeakPass); err != nil {
		return UsageError("stg run", "--after-weakpass: %v", err)
	}
	for _, out := range []struct{ flag, path string }{{"report", o.Report}, {"report-json", o.ReportJSON}, {"save-trace", o.SaveTrace}} {
		if err := RefuseOverwrite("stg run: --"+out.flag, out.path, o.File, o.Spec); err != nil {
			return InputError(err)
		}
		if out.path == "" || out.flag == "save-trace" {
			continue
		}
		if err := reportWritable(out.path); err != nil {
			return InputError(err)
		}
	}
	return nil
}

// reportWritable fails when the report file path cannot be written, so
// that stg run says so before any run rather than after all of them. It
// leaves no file behind that was not there.
func reportWritable(path string) error {
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("--report %s: cannot write the report: %v", path, errors.Unwrap(err))
	}
	f.Close()
	if os.IsNotExist(statErr) {
		os.Remove(path)
	}
	return nil
}

// runner checks the numbers and reads the plan and the quiescence policy
// into the engine's and the runner's options.
func (o RunOptions) runner() (runner.Options, error) {
	const cmd = "stg run"
	if o.Runs < 1 {
		return runner.Options{}, UsageError(cmd, "--runs must be at least 1")
	}
	if o.Depth < 0 || o.MaxSteps < 1 || o.Timeout <= 0 || o.Confirm <= 0 || o.Startup < 0 || o.MaxConfirm <= 0 {
		return runner.Options{}, UsageError(cmd, "--depth and --startup must be >= 0, and --max-steps, --confirm, --max-confirm and --timeout positive")
	}
	plan, err := runner.ParseStrategy(o.Plan)
	if err != nil {
		return runner.Options{}, UsageError(cmd, "--plan: %v", err)
	}
	if o.Parallel < 1 {
		return runner.Options{}, UsageError(cmd, "--parallel must be at least 1 (at most %d workers are used)", play.MaxParallel)
	}
	q, err := runner.ParseQuiescence(o.Quiescence)
	if err != nil {
		return runner.Options{}, UsageError(cmd, "--quiescence: %v%s", err, DurationHint(o.Quiescence))
	}
	opts := runner.Options{Plan: plan, Depth: o.Depth}
	opts.Quiescence, opts.Auto = q.Window, q.Auto
	opts.Confirm, opts.Startup, opts.MaxConfirm = o.Confirm, o.Startup, o.MaxConfirm
	opts.MaxSteps, opts.Timeout = o.MaxSteps, o.Timeout
	if opts.Startup == 0 {
		opts.Startup = time.Nanosecond // no allowance
	}
	return opts, nil
}

// DurationHint returns "; did you mean 200ms?" when s, given where a
// duration is expected, is a bare number such as 200 (Go durations need
// a unit), and "" otherwise.
func DurationHint(s string) string {
	if _, err := strconv.ParseFloat(s, 64); err != nil || strings.ContainsAny(s, "eEnNiI") {
		return ""
	}
	return fmt.Sprintf("; a duration needs a unit: did you mean %sms (or %ss)?", s, s)
}

// shard reads Shard; a shard needs a fixed first seed, for every shard
// must deal from the same campaign.
func (o RunOptions) shard() (play.Shard, error) {
	if o.Shard == "" && !o.Given["shard"] {
		return play.Shard{}, nil
	}
	sh, err := play.ParseShard(o.Shard)
	if err != nil {
		return play.Shard{}, UsageError("stg run", "%v", err)
	}
	if !o.Given["seed"] {
		return play.Shard{}, UsageError("stg run", "--shard needs --seed: every shard must play its share of the same seeds")
	}
	return sh, nil
}

// newSession reads the runs and the first seed (random, printed, when
// not given) for the campaign's shard, and sets how each run gets its
// SUT.
func newSession(o RunOptions, t *playable, shard play.Shard, stdout, stderr io.Writer) *session {
	s := &session{o: o, t: t, runs: o.Runs, seed: o.Seed, shard: shard, counts: map[play.Verdict]int{},
		stdout: stdout, stderr: stderr}
	if !o.Given["seed"] {
		s.seed = rand.Int64N(1_000_000)
	}
	s.starter(t.replayArg)
	return s
}

// starter sets how each run gets its SUT: a fresh process, or a TCP
// connection whose connect the run timeout bounds.
func (s *session) starter(replayFile string) {
	s.replay = "stg run " + replayFile + " --seed %d --runs 1"
	if tcp := s.o.TCP; tcp != "" {
		timeout := s.o.Timeout
		s.start = func(ctx context.Context) (adapter.Adapter, error) {
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			return adapter.DialTCP(ctx, tcp)
		}
		s.replay += " --tcp " + tcp
		return
	}
	s.start = adapter.Command(s.o.Command, s.stderr)
	s.replay += " -- " + shellJoin(s.o.Command)
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
	if s.o.Quiet && !(fail && s.fails == 1) {
		return
	}
	fmt.Fprintf(s.stdout, "\nrun %d/%d, seed %d: %s (%s)\n", k, s.runs, res.Seed, res.Verdict, expr.Printable(res.Reason))
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
	if path := s.o.Report; path != "" {
		if err := camp.WriteJUnit(path); err != nil {
			return InputError(fmt.Errorf("writing the report: %v", err))
		}
	}
	if path := s.o.ReportJSON; path != "" {
		if err := report.WriteJSON(path, camp.JSON()); err != nil {
			return InputError(fmt.Errorf("writing the JSON report: %v", err))
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

// errorExit is the exit of a campaign that ended in an error (exit code 3).
func (s *session) errorExit() error {
	if errors.Is(s.runErr, context.Canceled) {
		return &Exit{Code: play.ExitError, Err: errors.New("stg run: interrupted")}
	}
	return &Exit{Code: play.ExitError, Err: fmt.Errorf("stg run: %v", s.runErr)}
}
