package main

import (
	"context"
	"os/signal"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/tool"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "play a test case against a system under test",
		ArgsUsage: "TESTCASE|SYMPURPOSE... [--tcp HOST:PORT | -- COMMAND [ARGS...]]",
		UsageText: "stg run TESTCASE... [options] -- COMMAND [ARGS...]\nstg run TESTCASE... [options] --tcp HOST:PORT",
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
With --after-weakpass observe, a run that reaches WeakPass sends nothing
more and observes: it becomes Pass when the later outputs leave only the
explanations that reached the target, Inconc when they leave none of
them, Fail on an unspecified output, and stays WeakPass after quiescence
(or 16 observations) with both kinds left.

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

Several test files before "--" (stg run DIR/*.yaml -- ./sut) are played in
turn, each a campaign of its own with the same options and first seed;
--report then holds a test suite per file, --report-json and --save-trace
name a directory that gets NAME.json and NAME.jsonl per file, and the exit
code is the worst of the files' (error, Fail, Inconc, WeakPass, Pass).

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
			&cli.DurationFlag{Name: "max-confirm", Value: runner.DefaultMaxConfirm, Usage: "a SUT process still working (or waiting for the CPU) delays a confirmation or its start-up at most `DURATION`; then a silence that would fail is Inconc"},
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
			&cli.StringFlag{Name: "after-weakpass", Value: "stop", Usage: "with a sympurpose: on WeakPass, `POLICY` stop (end the run) or observe (send nothing more and observe the outputs and quiescence, which may make it Pass or Inconc)"},
		}, append(replayFlags(), funcFlags()...)...), // replay.go, funcs.go
		Action: runAction,
	}
}

// runAction is the action of stg run, on a test case or a sympurpose:
// SIGINT, SIGTERM and SIGHUP (timeout(1), CI cancellation) end the
// campaign, and the SUT's process group is killed.
func runAction(c *cli.Context) error {
	opts := tool.RunOptions{Spec: c.String("spec"), TCP: c.String("tcp"),
		Runs: c.Int("runs"), Seed: c.Int64("seed"), Shard: c.String("shard"), Parallel: c.Int("parallel"),
		Plan: c.String("plan"), Depth: c.Int("depth"), Quiescence: c.String("quiescence"),
		Confirm: c.Duration("confirm"), Startup: c.Duration("startup"), MaxConfirm: c.Duration("max-confirm"), MaxSteps: c.Int("max-steps"), Timeout: c.Duration("timeout"),
		Report: c.String("report"), ReportJSON: c.String("report-json"), SaveTrace: c.String("save-trace"), Replay: c.String("replay"),
		Shrink: c.Bool("shrink"), ShrinkRuns: c.Int("shrink-runs"), Quiet: c.Bool("quiet"), Funcs: funcOptions(c), // verdict.go
		AfterWeakPass: c.String("after-weakpass"), Given: map[string]bool{}}
	opts.Files, opts.Command = runArgs(c)
	for _, f := range c.Command.Flags {
		if name := cmdline.LongestName(f); c.IsSet(name) {
			opts.Given[name] = true
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), cmdline.StopSignals()...)
	defer stop()
	return tool.Run(ctx, opts, c.App.Writer, c.App.ErrWriter)
}

// runArgs splits stg run's arguments into the test files and the SUT's
// command: the files before "--" and the command after it; without "--",
// the first argument is the file and the rest the command, or, with
// --tcp, every argument is a file.
func runArgs(c *cli.Context) (files, command []string) {
	before, after, dash := cmdline.ArgsAround(c)
	switch {
	case dash:
		return before, after
	case c.String("tcp") != "":
		return before, nil
	case len(before) > 0:
		return before[:1], before[1:]
	}
	return nil, nil
}
