package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/stg-tool/stg/play"
)

// A Campaign is the runs of one stg run, as its reports hold them.
type Campaign struct {
	Name      string // the test case's or the sympurpose's
	Kind      string // testcase or sympurpose
	Plan      string // the planning strategy (test cases)
	Depth     int
	FirstSeed int64
	Runs      int    // of the whole campaign
	Shard     string // "i/n"; "" for the whole campaign
	Results   []*play.Result
	RunNums   []int // the run number of each result in the campaign
	// Err is the error the campaign ended in (its last run), nil when
	// every run gave a verdict.
	Err      error
	Coverage *Coverage
}

// JSON returns the campaign's JSON report.
func (c *Campaign) JSON() *JSON {
	rep := &JSON{Testcase: c.Name, Kind: c.Kind, Plan: c.Plan, Depth: c.Depth, FirstSeed: c.FirstSeed, Runs: c.Runs, Shard: c.Shard}
	for i, res := range c.Results {
		jr := Run{Run: c.RunNums[i], Seed: res.Seed, Verdict: res.Verdict.String(), Reason: res.Reason,
			Steps: len(res.Trace), Transitions: []string{}, ElapsedMS: ms(res.Elapsed)}
		if c.Err != nil && i == len(c.Results)-1 {
			jr.Verdict = "error"
		}
		for _, st := range res.Trace {
			if st.Transition != "" {
				jr.Transitions = append(jr.Transitions, st.Transition)
			}
		}
		for _, l := range res.Latencies {
			jr.LatenciesMS = append(jr.LatenciesMS, ms(l))
		}
		rep.Results = append(rep.Results, jr)
	}
	rep.Verdict = rep.overall()
	rep.Coverage = c.Coverage
	return rep
}

// JUnitRuns returns the campaign's runs for a JUnit report: Fail a
// failure, Inconc (or no verdict) skipped, Pass and WeakPass passed (the
// verdict is in the trace, in <system-out>).
func (c *Campaign) JUnitRuns() []JUnitRun {
	runs := make([]JUnitRun, len(c.Results))
	for i, res := range c.Results {
		runs[i] = JUnitRun{Run: c.RunNums[i], Seed: res.Seed, Elapsed: res.Elapsed, Reason: res.Reason, Trace: res.TraceString(),
			Fail: res.Verdict == play.Fail, Inconc: res.Verdict == play.Inconc || res.Verdict == play.None}
	}
	return runs
}

// WriteJUnit writes the campaign's JUnit report, with its timing and
// coverage as properties of the suite.
func (c *Campaign) WriteJUnit(path string) error {
	return WriteJUnitSuites(path, JUnitSuites{Suites: []JUnitSuite{c.JUnitSuite()}})
}

// JUnitSuite is the campaign's JUnit test suite: one test case per run,
// the timing and the coverage as properties.
func (c *Campaign) JUnitSuite() JUnitSuite {
	return SuiteOf(c.Name, c.JUnitRuns(), c.Err, append(TimingProperty(c.Results), CoverageProperties(c.Coverage)...)...)
}

// Timing describes the quiescence windows and the latencies of the
// runs; "" when every run had exact quiescence.
func Timing(results []*play.Result) string {
	var all []time.Duration
	var window time.Duration
	for _, r := range results {
		window = max(window, r.Window)
		all = append(all, r.Latencies...)
	}
	if window == 0 {
		return ""
	}
	return fmt.Sprintf("quiescence window up to %v; %s", window.Round(time.Millisecond), play.Summarize(all))
}

// TimingProperty is Timing as a property of a JUnit suite.
func TimingProperty(results []*play.Result) []JUnitProperty {
	if w := Timing(results); w != "" {
		return []JUnitProperty{{Name: "timing", Value: w}}
	}
	return nil
}

// A Merged is the merge of a campaign's shard reports: its overall
// verdict (Pass, Fail, Inconc, WeakPass or error), its table, and the
// merged report.
type Merged struct {
	Verdict string
	Print   func(io.Writer)
	Write   func(path string) error
}

// Merge reads the reports of one campaign's shards, all JUnit XML or all
// JSON, and merges them.
func Merge(files []string) (*Merged, error) {
	datas := make([][]byte, len(files))
	xmlCount := 0
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		datas[i] = data
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte("<")) {
			xmlCount++
		}
	}
	switch xmlCount {
	case 0:
		rep, err := MergeJSON(files, datas)
		if err != nil {
			return nil, err
		}
		return &Merged{rep.Verdict, func(w io.Writer) { PrintJSONMerge(w, rep) }, func(path string) error { return WriteJSON(path, rep) }}, nil
	case len(files):
		suites, verdict, err := MergeJUnit(files, datas)
		if err != nil {
			return nil, err
		}
		return &Merged{verdict, func(w io.Writer) { PrintJUnitMerge(w, suites, verdict) }, func(path string) error { return WriteJUnitSuites(path, suites) }}, nil
	}
	return nil, fmt.Errorf("the reports mix JUnit XML and JSON; merge each kind apart")
}

// ReadJSON reads a JSON report of stg run --report-json (or of stg
// report merge -o).
func ReadJSON(path string) (*JSON, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep JSON
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: not a JSON report of stg run --report-json: %v", path, err)
	}
	return &rep, nil
}
