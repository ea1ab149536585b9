package report

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stg-tool/stg/adapter"
)

var junitRunName = regexp.MustCompile(`^run (\d+) \(seed (-?\d+)\)$`)

// MergeJUnit combines the JUnit reports of one campaign's shards: one
// suite per test case, its cases in run order.
func MergeJUnit(files []string, datas [][]byte) (JUnitSuites, string, error) {
	var merged JUnitSuites
	index := map[string]int{}
	seen := map[string]string{}
	for i, data := range datas {
		var in JUnitSuites
		if err := xml.Unmarshal(data, &in); err != nil {
			return merged, "", fmt.Errorf("%s: not a JUnit report: %v", files[i], err)
		}
		for _, s := range in.Suites {
			k, ok := index[s.Name]
			if !ok {
				k = len(merged.Suites)
				index[s.Name] = k
				merged.Suites = append(merged.Suites, JUnitSuite{Name: s.Name, Properties: WithoutCoverage(s.Properties, len(files))}) // coverage.go
			}
			for _, c := range s.Cases {
				id := s.Name + "\x00" + c.Name
				if f, dup := seen[id]; dup {
					return merged, "", fmt.Errorf("%s: %s %s is also in %s", files[i], s.Name, c.Name, f)
				}
				seen[id] = files[i]
				merged.Suites[k].Cases = append(merged.Suites[k].Cases, c)
			}
		}
	}
	verdict := "Inconc"
	rank := map[string]int{"Inconc": 0, "Pass": 1, "Fail": 2, "error": 3}
	for k := range merged.Suites {
		s := &merged.Suites[k]
		slices.SortStableFunc(s.Cases, func(a, b JUnitCase) int { return runNumber(a.Name) - runNumber(b.Name) })
		s.Tests = len(s.Cases)
		var total float64
		for _, c := range s.Cases {
			v := "Pass"
			switch {
			case c.Error != nil:
				s.Errors++
				v = "error"
			case c.Failure != nil:
				s.Failures++
				v = "Fail"
			case c.Skipped != nil:
				s.Skipped++
				v = "Inconc"
			}
			if rank[v] > rank[verdict] {
				verdict = v
			}
			t, _ := strconv.ParseFloat(c.Time, 64)
			total += t
		}
		s.Time = fmt.Sprintf("%.3f", total)
	}
	return merged, verdict, nil
}

// runNumber reads K from a case named "run K (seed S)"; 0 otherwise.
func runNumber(name string) int {
	m := junitRunName.FindStringSubmatch(name)
	if m == nil {
		return 0
	}
	k, _ := strconv.Atoi(m[1])
	return k
}

func PrintJUnitMerge(w io.Writer, suites JUnitSuites, verdict string) {
	for _, s := range suites.Suites {
		pass := s.Tests - s.Failures - s.Errors - s.Skipped
		fmt.Fprintf(w, "%s: %d Pass, %d Fail, %d Inconc in %d run(s)", s.Name, pass, s.Failures, s.Skipped, s.Tests)
		if s.Errors > 0 {
			fmt.Fprintf(w, ", %d error(s)", s.Errors)
		}
		fmt.Fprintln(w)
		for _, c := range s.Cases {
			switch {
			case c.Failure != nil:
				fmt.Fprintf(w, "  %s: Fail (%s)\n", c.Name, c.Failure.Message)
			case c.Error != nil:
				fmt.Fprintf(w, "  %s: error (%s)\n", c.Name, c.Error.Message)
			}
		}
	}
	fmt.Fprintf(w, "overall: %s\n", verdict)
}

// JUnit XML, as read by CI servers: one <testcase> per run.
type JUnitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []JUnitSuite `xml:"testsuite"`
}

type JUnitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []JUnitProperty `xml:"properties>property,omitempty"`
	Cases      []JUnitCase     `xml:"testcase"`
}

type JUnitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *JUnitMessage `xml:"failure,omitempty"`
	Error     *JUnitMessage `xml:"error,omitempty"`
	Skipped   *JUnitMessage `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
	SystemErr string        `xml:"system-err,omitempty"`
}

type JUnitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// JUnitRun is one run as a JUnit report holds it.
type JUnitRun struct {
	Run           int
	Seed          int64
	Elapsed       time.Duration
	Reason, Trace string
	Fail, Inconc  bool
}

// WriteJUnit writes a JUnit XML report of the runs: a failing run is a
// failure, an Inconc one skipped, and the last run an error when the
// campaign ended in runErr.
func WriteJUnit(path, name string, runs []JUnitRun, runErr error, props ...JUnitProperty) error {
	return WriteJUnitSuites(path, JUnitSuites{Suites: []JUnitSuite{SuiteOf(name, runs, runErr, props...)}})
}

// SuiteOf is the JUnit test suite of one campaign's runs (WriteJUnit).
func SuiteOf(name string, runs []JUnitRun, runErr error, props ...JUnitProperty) JUnitSuite {
	suite := JUnitSuite{Name: name, Tests: len(runs), Properties: props}
	var total time.Duration
	for i, r := range runs {
		total += r.Elapsed
		tc := JUnitCase{
			Name:      fmt.Sprintf("run %d (seed %d)", r.Run, r.Seed),
			Classname: "stg." + name,
			Time:      fmt.Sprintf("%.3f", r.Elapsed.Seconds()),
			SystemOut: r.Trace,
		}
		switch {
		case runErr != nil && i == len(runs)-1:
			suite.Errors++
			tc.Error = &JUnitMessage{Message: r.Reason}
			var exit *adapter.ExitError
			if errors.As(runErr, &exit) {
				tc.SystemErr = strings.Join(exit.Stderr, "\n")
			}
		case r.Fail:
			suite.Failures++
			tc.Failure = &JUnitMessage{Message: r.Reason, Text: r.Trace}
		case r.Inconc:
			suite.Skipped++
			tc.Skipped = &JUnitMessage{Message: "Inconc: " + r.Reason}
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Time = fmt.Sprintf("%.3f", total.Seconds())
	return suite
}

// WriteJUnitSuites writes a JUnit XML report.
func WriteJUnitSuites(path string, suites JUnitSuites) error {
	out, err := xml.MarshalIndent(suites, "", "  ")
	if err != nil {
		return err
	}
	out = append([]byte(xml.Header), out...)
	out = append(out, '\n')
	return os.WriteFile(path, out, 0o644)
}
