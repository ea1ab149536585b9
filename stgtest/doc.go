// Package stgtest is the Go-test harness of stg: the Go test files that
// stg generate --format go writes call it to play their test case under
// go test, against a SUT process or against Go code in the same process.
//
// A generated file holds its test case as the YAML text stg generate
// writes (docs/reference.md#model-files), in a string constant; the harness reads it with
// specfile.ParseModel, the loader of every other stage, so that there is one
// reader of test cases and the embedded text is the one a user can read,
// check (stg check) and replay (stg run).
//
// # Verdicts
//
// Run and RunCommand play a number of runs, with consecutive seeds, and
// turn their verdicts into the outcome of the Go test:
//
//   - Fail fails the test at once, with the trace of the failing run and
//     the environment line that replays it (its seed, one run);
//   - an error (a SUT that cannot be started or talked to, a test case
//     that cannot be read or executed) fails the test, with the trace so
//     far;
//   - when no run passed, Inconc skips the test, with each run's reason;
//   - otherwise the test passes, each run being logged.
//
// A conformant SUT never makes the test fail: Fail is only given for an
// output, or a silence, that the test case's specification forbids.
//
// # Environment
//
// Every option is read from the environment, so that a generated file
// needs no editing; an empty variable is unset, and a malformed value
// fails the test naming the variable:
//
//	STG_SUT         the SUT's command line (RunCommand; the test is skipped
//	                without it), split like a simple shell (adapter.SplitCommand)
//	STG_SEED        the first seed (default: from the clock, logged)
//	STG_RUNS        the number of runs, seeds STG_SEED, STG_SEED+1, ... (default 1)
//	STG_DEPTH       the planning depth in steps; 0 is a seeded random walk
//	STG_QUIESCENCE  the quiescence window: a Go duration (500ms), or auto, a
//	                window calibrated on the SUT's measured latencies (default)
//	STG_CONFIRM     how long a silence that would give Fail must last
//	STG_STARTUP     the start-up allowance of a freshly started SUT
//	STG_MAX_CONFIRM how long the tester waits, at most, for a SUT that
//	                still works (runs or waits for the CPU) to be idle
//	STG_TIMEOUT     the time limit of a run, which then ends Inconc
//	STG_MAX_STEPS   the step limit of a run, which then ends Inconc
//	STG_CALL_TIMEOUT  the time limit of one call of an external function's
//	                command (default 5s)
//
// # External functions
//
// A test case that calls external functions (functions: with a table:
// and an impl: command, docs/reference.md#expressions) is played with their calls
// evaluated by package extfunc: the table first, then the command, run
// in the test's directory. RunFuncs gives Go implementations instead. A
// call that cannot be evaluated (no row and no implementation, a crash,
// a timeout) fails the test as an error, never as a verdict.
//
// Options not set take the values of runner.DefaultOptions, the options
// of stg run.
package stgtest
