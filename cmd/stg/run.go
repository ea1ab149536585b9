package main

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
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
		ArgsUsage: "TESTCASE [--tcp HOST:PORT | -- COMMAND [ARGS...]]",
		UsageText: "stg run TESTCASE [options] -- COMMAND [ARGS...]\nstg run TESTCASE [options] --tcp HOST:PORT",
		Description: `Run starts COMMAND afresh for each run (or connects to --tcp HOST:PORT),
talks to it in JSON Lines on its stdin and stdout (FORMAT.md §4), plays the
test case and prints the verdict and the trace of each run. Parameter
values are chosen by the solver among those the guards allow, guided by a
search for a path to Pass of at most --depth steps (0: a random walk) and
varied by the seed. Run N plays seed S+N-1; a failing run prints the
command line that replays it. The SUT's stderr is passed through.

The overall verdict is Fail if any run failed, else Pass if any passed, else
Inconc. Exit codes: 0 Pass, 1 Fail, 2 Inconc, 3 error (bad input, or a SUT
that could not be started or talked to).

Example:
   stg generate examples/cmp/spec.yaml examples/cmp/purpose.yaml -o cmp.tc.yaml
   stg run cmp.tc.yaml --runs 100 --report report.xml -- ./sut
   stg run cmp.tc.yaml --seed 1234 --runs 1 -- ./sut      # replay one run
   stg run cmp.tc.yaml --tcp localhost:7000`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "runs", Value: 1, Usage: "play `N` runs, with seeds S, S+1, ..."},
			&cli.Int64Flag{Name: "seed", Usage: "the first seed `S`", DefaultText: "random, printed"},
			&cli.DurationFlag{Name: "quiescence", Value: runner.DefaultQuiescence, Usage: "`DURATION` of silence of the SUT that counts as quiescence (delta)"},
			&cli.IntFlag{Name: "depth", Value: runner.DefaultDepth, Usage: "look for paths to Pass of at most `K` steps; 0: random walk"},
			&cli.IntFlag{Name: "max-steps", Value: runner.DefaultMaxSteps, Usage: "end a run Inconc after `M` steps"},
			&cli.DurationFlag{Name: "timeout", Value: runner.DefaultTimeout, Usage: "end a run Inconc after `DURATION`"},
			&cli.StringFlag{Name: "report", Usage: "write a JUnit XML report to `FILE`"},
			&cli.StringFlag{Name: "tcp", Usage: "talk to a SUT listening at `HOST:PORT` instead of starting COMMAND"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print the traces of failing runs only"},
		},
		Action: runTestcase,
	}
}

// runTestcase is the action of stg run.
func runTestcase(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(args) == 0 {
		return usageError(c, "stg run needs a TESTCASE")
	}
	file, command := args[0], args[1:]
	tcp := c.String("tcp")
	switch {
	case tcp == "" && len(command) == 0:
		return usageError(c, "stg run needs the SUT: -- COMMAND [ARGS...] or --tcp HOST:PORT")
	case tcp != "" && len(command) > 0:
		return usageError(c, "give either --tcp or a COMMAND, not both")
	}
	runs := c.Int("runs")
	if runs < 1 {
		return usageError(c, "--runs must be at least 1")
	}
	if c.Int("depth") < 0 || c.Int("max-steps") < 1 || c.Duration("quiescence") <= 0 || c.Duration("timeout") <= 0 {
		return usageError(c, "--depth must be >= 0, and --max-steps, --quiescence and --timeout positive")
	}
	seed := c.Int64("seed")
	if !c.IsSet("seed") {
		seed = rand.Int64N(1_000_000)
	}
	m, err := loadModel(file, nil)
	if err != nil {
		return inputError(err)
	}
	if m.Kind != spec.TestcaseKind {
		return inputError(fmt.Errorf("%s: stg run plays a testcase, not a %s", file, m.Kind))
	}
	opts := runner.Options{
		Depth:      c.Int("depth"),
		Quiescence: c.Duration("quiescence"),
		MaxSteps:   c.Int("max-steps"),
		Timeout:    c.Duration("timeout"),
	}
	r, err := runner.New(m, opts)
	if err != nil {
		return inputError(fmt.Errorf("%s: %v", file, err))
	}
	defer r.Close()

	stdout, stderr := c.App.Writer, c.App.ErrWriter
	start := adapter.Command(command, stderr)
	replay := "stg run " + file + " --seed %d --runs 1"
	if tcp != "" {
		start = adapter.TCPAddr(tcp)
		replay += " --tcp " + tcp
	} else {
		replay += " -- " + shellJoin(command)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	fmt.Fprintf(stdout, "test case %s: %d run(s), seeds %d..%d, depth %d\n", m.Name, runs, seed, seed+int64(runs)-1, opts.Depth)
	var (
		results  []*runner.Result
		counts   = map[runner.Verdict]int{}
		runErr   error
		began    = time.Now()
		progress = time.Now()
	)
	for i := 0; i < runs; i++ {
		s := seed + int64(i)
		res, err := runner.RunOnce(ctx, r, start, s)
		if err != nil {
			runErr = fmt.Errorf("run %d (seed %d): %w", i+1, s, err)
			if res == nil {
				res = &runner.Result{Seed: s}
			}
			res.Reason = err.Error()
			results = append(results, res)
			fmt.Fprintf(stdout, "\nrun %d/%d, seed %d: error: %v\n", i+1, runs, s, err)
			if len(res.Trace) > 0 {
				res.WriteTrace(stdout)
			}
			break
		}
		results = append(results, res)
		counts[res.Verdict]++
		if !c.Bool("quiet") || res.Verdict == runner.Fail {
			fmt.Fprintf(stdout, "\nrun %d/%d, seed %d: %s (%s)\n", i+1, runs, s, res.Verdict, res.Reason)
			res.WriteTrace(stdout)
		}
		if res.Verdict == runner.Fail {
			fmt.Fprintf(stdout, "replay: "+replay+"\n", s)
		}
		if runs > 1 && time.Since(progress) >= time.Second {
			progress = time.Now()
			fmt.Fprintf(stderr, "stg run: %d/%d runs: %d Pass, %d Fail, %d Inconc (%.1fs)\n",
				i+1, runs, counts[runner.Pass], counts[runner.Fail], counts[runner.Inconc], time.Since(began).Seconds())
		}
	}

	overall := runner.Inconc
	switch {
	case counts[runner.Fail] > 0:
		overall = runner.Fail
	case counts[runner.Pass] > 0:
		overall = runner.Pass
	}
	summary := overall.String()
	if runErr != nil {
		summary = "error"
	}
	fmt.Fprintf(stdout, "\n%s: %d Pass, %d Fail, %d Inconc in %d run(s): %s\n",
		m.Name, counts[runner.Pass], counts[runner.Fail], counts[runner.Inconc], len(results), summary)

	if path := c.String("report"); path != "" {
		if err := writeJUnit(path, m.Name, results, runErr != nil); err != nil {
			return inputError(fmt.Errorf("writing the report: %v", err))
		}
	}
	switch {
	case runErr != nil:
		if errors.Is(runErr, context.Canceled) {
			return &exitCode{code: exitError, err: errors.New("stg run: interrupted")}
		}
		return &exitCode{code: exitError, err: fmt.Errorf("stg run: %v", runErr)}
	case overall == runner.Fail:
		return &exitCode{code: exitFail}
	case overall == runner.Inconc:
		return &exitCode{code: exitInconc}
	}
	return nil
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
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

func writeJUnit(path, name string, results []*runner.Result, lastErred bool) error {
	suite := junitSuite{Name: name, Tests: len(results)}
	var total time.Duration
	for i, res := range results {
		total += res.Elapsed
		tc := junitCase{
			Name:      fmt.Sprintf("run %d (seed %d)", i+1, res.Seed),
			Classname: "stg." + name,
			Time:      fmt.Sprintf("%.3f", res.Elapsed.Seconds()),
			SystemOut: res.TraceString(),
		}
		switch {
		case lastErred && i == len(results)-1:
			suite.Errors++
			tc.Error = &junitMessage{Message: res.Reason}
		case res.Verdict == runner.Fail:
			suite.Failures++
			tc.Failure = &junitMessage{Message: res.Reason, Text: res.TraceString()}
		case res.Verdict == runner.Inconc:
			suite.Skipped++
			tc.Skipped = &junitMessage{Message: "Inconc: " + res.Reason}
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Time = fmt.Sprintf("%.3f", total.Seconds())
	out, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{suite}}, "", "  ")
	if err != nil {
		return err
	}
	out = append([]byte(xml.Header), out...)
	out = append(out, '\n')
	return os.WriteFile(path, out, 0o644)
}
