package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/play"
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
