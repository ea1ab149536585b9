// Package report writes and merges the reports of stg run campaigns,
// whatever the route that played them (package play): a JSON report
// (per run its verdict, seed, steps, transitions and latencies, and the
// coverage of a test case), a JUnit XML report for CI servers (one
// <testcase> per run: Fail a failure, Inconc skipped, an error an
// error), and the merge of the reports of a campaign's shards (stg run
// --shard I/N), which equals the report of the unsharded campaign but for
// times.
//
// Coverage (coverage.go) is what the runs of a campaign took of a test
// case: how often each transition was taken and by how many runs, the
// spec transition behind it, and for each one never taken what a bounded
// search found (runner.Runner.Prove): a witness path, or a proof that no
// path of at most the depth takes it.
package report
