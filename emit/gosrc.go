package emit

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// DefaultGoPackage is the package clause of generated Go test files in a
// directory without Go files (see GoPackageFor): the same whatever the
// purpose, so that the files of several purposes share a directory.
const DefaultGoPackage = "stgtests"

// GoSource returns a gofmt'ed Go _test.go file of package pkg that embeds
// the test case tc as its YAML text (what stg generate writes) and, under
// go test, plays it against the SUT command line in the environment
// variable STG_SUT (docs/reference.md#command-line) with the harness of package stgtest,
// which reads it with the loader of package spec, one subtest per run
// named after its seed. The file also declares a helper that plays the
// test case against a Go implementation in the same process. It imports
// stgtest, adapter and the standard library; its identifiers are derived
// from tc's name, so that the files of test cases of different names
// compile together in one package.
func GoSource(tc *spec.Model, pkg string) ([]byte, error) {
	text, err := embeddable(tc, pkg)
	if err != nil {
		return nil, err
	}
	camel := camelName(tc.Name)
	var b bytes.Buffer
	writeHeader(&b, "the test case "+tc.Name, "Test"+camel, "run"+camel, pkg, nil)
	fmt.Fprintf(&b, "// testcase%[1]s is the test case %[2]s, as stg generate writes it.\nconst testcase%[1]s = %[3]s\n", camel, tc.Name, goString(string(text)))
	fmt.Fprintf(&b, `
// Test%[1]s plays the test case against the SUT process given by
// STG_SUT, one subtest per run (seed=N).
func Test%[1]s(t *testing.T) {
	stgtest.PlayCommand(t, testcase%[1]s)
}

// run%[1]s plays the test case against a Go implementation in this
// process; newSUT must return a fresh SUT for each run. For instance:
//
//	func TestMySUT(t *testing.T) {
//		run%[1]s(t, func() adapter.SUT { return new(mySUT) })
//	}
func run%[1]s(t *testing.T, newSUT func() adapter.SUT) {
	t.Helper()
	stgtest.Play(t, testcase%[1]s, adapter.GoSUT(newSUT))
}
`, camel)
	return formatted(b.Bytes())
}

// GoTableSource returns a gofmt'ed Go _test.go file of package pkg that
// plays the test cases tcs (of one spec, named name) in one table-driven
// test, TestName, a subtest per test case and in it one per run; and a
// helper runName that plays them all against a Go implementation. Its
// identifiers are derived from name, so that it compiles together with
// the files GoSource writes for test cases of other names.
func GoTableSource(name string, tcs []*spec.Model, pkg string) ([]byte, error) {
	if len(tcs) == 0 {
		return nil, fmt.Errorf("no test case to write")
	}
	camel := camelName(name)
	seen := map[string]bool{}
	var rows bytes.Buffer
	var names []string
	for _, tc := range tcs {
		text, err := embeddable(tc, pkg)
		if err != nil {
			return nil, err
		}
		if seen[tc.Name] {
			return nil, fmt.Errorf("two test cases are named %s (give the purposes different names)", tc.Name)
		}
		seen[tc.Name] = true
		names = append(names, tc.Name)
		fmt.Fprintf(&rows, "\t{%q, %s},\n", tc.Name, goString(string(text)))
	}
	var b bytes.Buffer
	writeHeader(&b, "the test cases of "+name+" ("+strings.Join(names, ", ")+")", "Test"+camel, "run"+camel, pkg, names[:1])
	fmt.Fprintf(&b, `// testcases%[1]s are the test cases, as stg generate writes them.
var testcases%[1]s = []struct{ name, text string }{
%[2]s}

// Test%[1]s plays each test case against the SUT process given by
// STG_SUT: one subtest per test case, in it one per run (seed=N).
func Test%[1]s(t *testing.T) {
	for _, tc := range testcases%[1]s {
		t.Run(tc.name, func(t *testing.T) { stgtest.PlayCommand(t, tc.text) })
	}
}

// run%[1]s plays each test case against a Go implementation in this
// process; newSUT must return a fresh SUT for each run. For instance:
//
//	func TestMySUT(t *testing.T) {
//		run%[1]s(t, func() adapter.SUT { return new(mySUT) })
//	}
func run%[1]s(t *testing.T, newSUT func() adapter.SUT) {
	t.Helper()
	for _, tc := range testcases%[1]s {
		t.Run(tc.name, func(t *testing.T) { stgtest.Play(t, tc.text, adapter.GoSUT(newSUT)) })
	}
}
`, camel, rows.String())
	return formatted(b.Bytes())
}

// embeddable returns the YAML text of tc that a generated file of
// package pkg embeds, checked to read back.
func embeddable(tc *spec.Model, pkg string) ([]byte, error) {
	if !token.IsIdentifier(pkg) {
		return nil, fmt.Errorf("package name %q is not a Go identifier", pkg)
	}
	if tc.Kind != spec.TestcaseKind {
		return nil, fmt.Errorf("%s is a %s, not a testcase", tc.Name, tc.Kind)
	}
	text, err := specfile.Marshal(tc)
	if err != nil {
		return nil, err
	}
	// The harness reads the text at test time: a text it cannot read is
	// a bug here, better reported now than in the user's go test.
	if _, err := specfile.ParseModel("generated testcase", text, nil); err != nil {
		return nil, fmt.Errorf("the YAML of test case %s does not read back (a bug): %v", tc.Name, err)
	}
	return text, nil
}

func formatted(src []byte) ([]byte, error) {
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("generated Go does not parse (a bug): %v", err)
	}
	return out, nil
}

// writeHeader writes the file's documentation, package clause and
// imports: what the file plays, how to run it (test is the test
// function, sub the names of its subtests above the runs, helper the
// in-process helper), what the consuming module needs, and the
// environment variables that set the options of stg run.
func writeHeader(b *bytes.Buffer, what, test, helper, pkg string, sub []string) {
	run, re := test, "^"+regexp.QuoteMeta(test)+"$"
	for _, s := range append(sub, "seed=42") {
		run += "/" + s
		re += "/^" + regexp.QuoteMeta(s) + "$"
	}
	fmt.Fprintf(b, `// Code generated by stg generate --format go; DO NOT EDIT.

// This file plays %[1]s against a system under test (SUT).
// Run it with the SUT's command line in STG_SUT:
//
//	STG_SUT='./sut --option' go test -run %[2]s -v
//
// Each run is a subtest named after its seed (%[10]s). A Fail
// verdict fails the test and prints the trace and the line that replays
// that run alone (STG_SEED=42 STG_RUNS=1 go test -run '%[11]s');
// when no run passed, Inconc skips the test. To test a Go implementation
// in this process, call %[3]s from a test of yours.
//
// The module that holds this file requires github.com/stg-tool/stg, which
// needs cgo (CGO_ENABLED=1, a C compiler) and Z3's C library and header
// (Debian, Ubuntu: apt-get install libz3-dev).
//
// The environment sets the options of stg run (a malformed value fails
// the test):
//
//	STG_SUT           the SUT's command line; without it %[2]s is skipped
//	STG_SEED          the first seed, --seed (default: from the clock, logged)
//	STG_RUNS          the number of runs, seeds STG_SEED, STG_SEED+1, ..., --runs (default 1)
//	STG_DEPTH         the planning depth in steps; 0 is a random walk, --depth (default %[5]d)
//	STG_QUIESCENCE    the quiescence window: a Go duration such as 500ms, or auto,
//	                  calibrated on the SUT's measured latencies, --quiescence (default auto)
//	STG_CONFIRM       how long a silence that would give Fail must last, --confirm (default %[6]v)
//	STG_STARTUP       the start-up allowance of a fresh SUT, --startup (default %[7]v)
//	STG_MAX_CONFIRM   the longest wait for a SUT that still works (runs, or waits for
//	                  the CPU) to be idle before quiescence, --max-confirm (default %[12]v)
//	STG_TIMEOUT       the time limit of a run, which then ends Inconc, --timeout (default %[8]v)
//	STG_MAX_STEPS     the step limit of a run, which then ends Inconc, --max-steps (default %[9]d)
//	STG_CALL_TIMEOUT  the time limit of one call of an external function's command,
//	                  --call-timeout (default 5s)
//
// go test's own flags stand for the other options of stg run: -v for the
// log of every run (stg run prints it; without -v only failures show, as
// with --quiet), -json or go-junit-report for --report. External
// functions are evaluated by the impl: commands and table: rows the test
// case declares (--impl and --tables have no variable; stgtest.RunFuncs
// takes Go implementations). A SUT listening on TCP (--tcp) is played
// with stg run only.

package %[4]s

import (
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/stgtest"
)

`, what, test, helper, pkg, runner.DefaultDepth, runner.DefaultConfirm, runner.DefaultStartup, runner.DefaultTimeout, runner.DefaultMaxSteps, run, re, runner.DefaultMaxConfirm)
}

// goString returns s as a Go string literal: a raw one, which keeps the
// YAML readable, unless s holds what a raw literal cannot.
func goString(s string) string {
	if strings.ContainsAny(s, "`\r\x00\ufeff") || !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	return "`" + s + "`"
}

// camelName turns a model name such as "cmp-reach-ok2" into an exported
// Go identifier part, "CmpReachOk2".
func camelName(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) || r > unicode.MaxASCII {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) {
		s = "Testcase" + s
	}
	return s
}
