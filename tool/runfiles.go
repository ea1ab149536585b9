package tool

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/report"
)

// runFiles is stg run FILE FILE... -- COMMAND: each test file (test case
// or sympurpose) is played in turn against the SUT, a campaign of its own
// with the same options and the same first seed, so that one command
// line replays any of them. The files' verdicts combine as a CI gate
// reads them: error before Fail before Inconc before WeakPass before Pass
// (combineExits). A file that cannot be played (exit 3) does not stop the
// others; its error is printed when it happens.
//
// --report writes one JUnit file with a test suite per test file;
// --report-json and --save-trace name an existing directory that gets
// NAME.json and NAME.jsonl per test file, NAME its file name without
// .yaml (and .tc). --replay plays one trace of one test: it is refused.
func runFiles(ctx context.Context, opts RunOptions, stdout, stderr io.Writer) error {
	names, err := opts.checkFiles()
	if err != nil {
		return err
	}
	if !opts.Given["seed"] {
		opts.Seed, opts.Given = rand.Int64N(1_000_000), withGiven(opts.Given, "seed")
	}
	var suites report.JUnitSuites
	exits := make([]int, len(opts.Files))
	for i, f := range opts.Files {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		camp, err := runFile(ctx, opts.forFile(f, names[i]), stdout, stderr)
		if camp != nil {
			suites.Suites = append(suites.Suites, camp.JUnitSuite())
		}
		if exits[i] = Code(err); exits[i] == play.ExitError {
			fmt.Fprintf(stderr, "stg run: %s: %v\n", f, err)
		}
		if ctx.Err() != nil {
			exits = exits[:i+1]
			break
		}
	}
	if opts.Report != "" {
		if err := report.WriteJUnitSuites(opts.Report, suites); err != nil {
			return InputError(fmt.Errorf("writing the report: %v", err))
		}
	}
	return filesSummary(stdout, opts.Files, exits)
}

// withGiven returns given with name added (a copy: the caller's map is
// left as it was).
func withGiven(given map[string]bool, name string) map[string]bool {
	out := map[string]bool{name: true}
	for k, v := range given {
		out[k] = v
	}
	return out
}

// checkFiles checks the options of several test files and returns the
// name each file's reports and trace take.
func (o RunOptions) checkFiles() ([]string, error) {
	if o.Replay != "" {
		return nil, UsageError("stg run", "--replay plays the trace of one test: give one TESTCASE or SYMPURPOSE")
	}
	for _, out := range []struct{ flag, path string }{{"report-json", o.ReportJSON}, {"save-trace", o.SaveTrace}} {
		if out.path == "" {
			continue
		}
		if st, err := os.Stat(out.path); err != nil || !st.IsDir() {
			return nil, UsageError("stg run", "with several test files, --%s names an existing directory that gets one file per test", out.flag)
		}
	}
	names := make([]string, len(o.Files))
	seen := map[string]string{}
	for i, f := range o.Files {
		names[i] = testFileName(f)
		if prev, dup := seen[names[i]]; dup {
			return nil, UsageError("stg run", "%s and %s would write reports of the same name %q", prev, f, names[i])
		}
		seen[names[i]] = f
	}
	return names, nil
}

// testFileName is the name of a test file's reports: its base name
// without .yaml or .yml, and without .tc.
func testFileName(path string) string {
	name := filepath.Base(path)
	for _, ext := range []string{".yaml", ".yml", ".tc"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

// forFile returns the options of one file's campaign: its reports go to
// the directories given, its JUnit suite to the common report.
func (o RunOptions) forFile(file, name string) RunOptions {
	o.File, o.Files, o.Report = file, nil, ""
	if o.ReportJSON != "" {
		o.ReportJSON = filepath.Join(o.ReportJSON, name+".json")
	}
	if o.SaveTrace != "" {
		o.SaveTrace = filepath.Join(o.SaveTrace, name+".jsonl")
	}
	return o
}

// exitOrder ranks exit codes for combining several files' verdicts.
var exitOrder = []int{play.ExitError, play.ExitFail, play.ExitInconc, play.ExitWeakPass, play.ExitPass}

// combineExits is the exit code of several files: the first of
// exitOrder that one of them has.
func combineExits(exits []int) int {
	for _, code := range exitOrder {
		for _, e := range exits {
			if e == code {
				return code
			}
		}
	}
	return play.ExitPass
}

// exitName names an exit code as the summary prints it.
func exitName(code int) string {
	switch code {
	case play.ExitPass:
		return "Pass"
	case play.ExitFail:
		return "Fail"
	case play.ExitInconc:
		return "Inconc"
	case play.ExitWeakPass:
		return "WeakPass"
	}
	return "error"
}

// filesSummary prints each file's verdict and the combined one, and
// returns the combined exit.
func filesSummary(w io.Writer, files []string, exits []int) error {
	fmt.Fprintf(w, "\nstg run: %d of %d test files played\n", len(exits), len(files))
	count := map[int]int{}
	for i, code := range exits {
		count[code]++
		fmt.Fprintf(w, "  %-8s %s\n", exitName(code), files[i])
	}
	var parts []string
	for _, code := range exitOrder {
		if count[code] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[code], exitName(code)))
		}
	}
	code := combineExits(exits)
	fmt.Fprintf(w, "overall: %s (%s)\n", exitName(code), strings.Join(parts, ", "))
	switch {
	case code == play.ExitPass:
		return nil
	case code == play.ExitError:
		return &Exit{Code: code, Err: fmt.Errorf("stg run: %d of %d test files ended in an error (above)", count[code], len(exits))}
	}
	return &Exit{Code: code}
}
