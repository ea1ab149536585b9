package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/runner"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "combine the reports of a campaign's shards",
		Subcommands: []*cli.Command{{
			Name:      "merge",
			Usage:     "merge the JUnit or JSON reports of stg run --shard into one verdict and one table",
			ArgsUsage: "REPORT...",
			Description: `Merge reads the reports that the shards of one campaign wrote (stg run
--shard I/N --report FILE or --report-json FILE; all JUnit XML or all
JSON), puts their runs back in campaign order and prints the campaign's
verdict with its counts, and a table: for JSON reports, how many runs took
each transition of the test case; for JUnit reports, the failing runs.
The merged report (-o FILE, in the format of the inputs) equals the report
of the unsharded campaign, but for times. Runs missing from the shards are
named. Exit codes as stg run: 0 Pass, 1 Fail, 2 Inconc, 3 error.

Example (four CI jobs, then one merge):
   stg run tc.yaml --seed 1 --runs 400 --shard 2/4 --report-json shard-2.json -- ./sut
   stg report merge shard-*.json -o campaign.json`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the merged report to `FILE`"},
			},
			Action: mergeReports,
		}},
	}
}

// jsonReport is the JSON report of stg run --report-json: the campaign
// (test case, seeds, planning) and the shard's runs.
type jsonReport struct {
	Testcase  string    `json:"testcase"`
	Plan      string    `json:"plan"`
	Depth     int       `json:"depth"`
	FirstSeed int64     `json:"first_seed"`
	Runs      int       `json:"runs"`            // of the whole campaign
	Shard     string    `json:"shard,omitempty"` // "i/n"; "" for the whole campaign
	Verdict   string    `json:"verdict"`         // Pass, Fail, Inconc or error
	Results   []jsonRun `json:"results"`
	// Coverage is what the runs covered of the test case (coverage.go).
	Coverage *jsonCoverage `json:"coverage,omitempty"`
}

// jsonRun is one run of a JSON report.
type jsonRun struct {
	Run         int       `json:"run"`
	Seed        int64     `json:"seed"`
	Verdict     string    `json:"verdict"` // Pass, Fail, Inconc, or error
	Reason      string    `json:"reason"`
	Steps       int       `json:"steps"`
	Transitions []string  `json:"transitions"` // taken, in order
	ElapsedMS   float64   `json:"elapsed_ms"`
	LatenciesMS []float64 `json:"latencies_ms,omitempty"`
}

func (s *runSession) jsonReport() *jsonReport {
	rep := &jsonReport{Testcase: s.name, Plan: s.opts.Plan.String(), Depth: s.opts.Depth,
		FirstSeed: s.seed, Runs: s.runs, Shard: s.shard.String()}
	if s.opts.Depth == 0 {
		rep.Plan = runner.Walk.String()
	}
	for i, res := range s.results {
		jr := jsonRun{Run: s.runNums[i], Seed: res.Seed, Verdict: res.Verdict.String(), Reason: res.Reason,
			Steps: len(res.Trace), Transitions: []string{}, ElapsedMS: ms(res.Elapsed)}
		if s.runErr != nil && i == len(s.results)-1 {
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
	rep.Coverage = s.cov
	return rep
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// overall is the campaign's verdict as stg run gives it: error if a run
// ended in an error, else Fail if any failed, else Pass if any passed,
// else Inconc.
func (rep *jsonReport) overall() string {
	count := map[string]int{}
	for _, r := range rep.Results {
		count[r.Verdict]++
	}
	for _, v := range []string{"error", "Fail", "Pass"} {
		if count[v] > 0 {
			return v
		}
	}
	return "Inconc"
}

func writeJSONReport(path string, rep *jsonReport) error {
	out, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(out, '\n'), 0o644)
}

// mergeReports is the action of stg report merge.
func mergeReports(c *cli.Context) error {
	files := c.Args().Slice()
	if len(files) == 0 {
		return usageError(c, "stg report merge needs the REPORT files of the shards")
	}
	datas := make([][]byte, len(files))
	xmlCount := 0
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return inputError(err)
		}
		datas[i] = data
		if bytes.HasPrefix(bytes.TrimSpace(data), []byte("<")) {
			xmlCount++
		}
	}
	switch xmlCount {
	case 0:
		rep, err := mergeJSON(files, datas)
		if err != nil {
			return inputError(err)
		}
		return finishMerge(c, rep.Verdict, func(w io.Writer) { printJSONMerge(w, rep) }, func(path string) error { return writeJSONReport(path, rep) })
	case len(files):
		suites, verdict, err := mergeJUnit(files, datas)
		if err != nil {
			return inputError(err)
		}
		return finishMerge(c, verdict, func(w io.Writer) { printJUnitMerge(w, suites, verdict) }, func(path string) error { return writeJUnitSuites(path, suites) })
	}
	return inputError(fmt.Errorf("stg report merge: the reports mix JUnit XML and JSON; merge each kind apart"))
}

// finishMerge prints the merge, writes it with -o and sets the exit code.
func finishMerge(c *cli.Context, verdict string, print func(io.Writer), write func(string) error) error {
	print(c.App.Writer)
	if path := c.String("output"); path != "" {
		if err := write(path); err != nil {
			return inputError(fmt.Errorf("writing the merged report: %v", err))
		}
	}
	switch verdict {
	case "Fail":
		return &exitCode{code: exitFail}
	case "Inconc":
		return &exitCode{code: exitInconc}
	case "error":
		return &exitCode{code: exitError, err: fmt.Errorf("stg report merge: a run ended in an error")}
	}
	return nil
}

// mergeJSON combines the JSON reports of one campaign's shards.
func mergeJSON(files []string, datas [][]byte) (*jsonReport, error) {
	var merged *jsonReport
	var covs []*jsonCoverage
	seen := map[int]string{}
	for i, data := range datas {
		var rep jsonReport
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rep); err != nil {
			return nil, fmt.Errorf("%s: not a JSON report of stg run: %v", files[i], err)
		}
		covs = append(covs, rep.Coverage)
		if merged == nil {
			head := rep
			head.Results, head.Shard = nil, ""
			merged = &head
		} else if rep.Testcase != merged.Testcase || rep.FirstSeed != merged.FirstSeed || rep.Runs != merged.Runs || rep.Plan != merged.Plan || rep.Depth != merged.Depth {
			return nil, fmt.Errorf("%s: another campaign than %s (test case %s, seeds %d+%d, %s depth %d vs %s, seeds %d+%d, %s depth %d)",
				files[i], files[0], rep.Testcase, rep.FirstSeed, rep.Runs, rep.Plan, rep.Depth, merged.Testcase, merged.FirstSeed, merged.Runs, merged.Plan, merged.Depth)
		}
		for _, r := range rep.Results {
			if f, dup := seen[r.Run]; dup {
				return nil, fmt.Errorf("%s: run %d is also in %s", files[i], r.Run, f)
			}
			seen[r.Run] = files[i]
			merged.Results = append(merged.Results, r)
		}
	}
	slices.SortFunc(merged.Results, func(a, b jsonRun) int { return a.Run - b.Run })
	merged.Verdict = merged.overall()
	merged.Coverage = mergeCoverage(covs) // coverage.go
	return merged, nil
}

// missing lists the runs 1..runs not in have.
func missing(runs int, have map[int]bool) []int {
	var ks []int
	for k := 1; k <= runs; k++ {
		if !have[k] {
			ks = append(ks, k)
		}
	}
	return ks
}

func printJSONMerge(w io.Writer, rep *jsonReport) {
	count := map[string]int{}
	have := map[int]bool{}
	taken := map[string][2]int{} // transition: runs taking it, times taken
	var order []string
	for _, r := range rep.Results {
		count[r.Verdict]++
		have[r.Run] = true
		once := map[string]bool{}
		for _, t := range r.Transitions {
			n, ok := taken[t]
			if !ok {
				order = append(order, t)
			}
			if !once[t] {
				once[t] = true
				n[0]++
			}
			n[1]++
			taken[t] = n
		}
	}
	fmt.Fprintf(w, "%s: %d Pass, %d Fail, %d Inconc in %d run(s): %s\n",
		rep.Testcase, count["Pass"], count["Fail"], count["Inconc"], len(rep.Results), rep.Verdict)
	if m := missing(rep.Runs, have); len(m) > 0 {
		fmt.Fprintf(w, "missing: %d of the campaign's %d runs: %v\n", len(m), rep.Runs, m)
	}
	slices.Sort(order)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "\ntransition\truns\ttimes\n")
	for _, t := range order {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", t, taken[t][0], taken[t][1])
	}
	tw.Flush()
	for _, r := range rep.Results {
		if r.Verdict == "Fail" || r.Verdict == "error" {
			fmt.Fprintf(w, "run %d, seed %d: %s (%s)\n", r.Run, r.Seed, r.Verdict, r.Reason)
		}
	}
	printCoverage(w, rep.Coverage) // coverage.go
}

var junitRunName = regexp.MustCompile(`^run (\d+) \(seed (-?\d+)\)$`)

// mergeJUnit combines the JUnit reports of one campaign's shards: one
// suite per test case, its cases in run order.
func mergeJUnit(files []string, datas [][]byte) (junitSuites, string, error) {
	var merged junitSuites
	index := map[string]int{}
	seen := map[string]string{}
	for i, data := range datas {
		var in junitSuites
		if err := xml.Unmarshal(data, &in); err != nil {
			return merged, "", fmt.Errorf("%s: not a JUnit report: %v", files[i], err)
		}
		for _, s := range in.Suites {
			k, ok := index[s.Name]
			if !ok {
				k = len(merged.Suites)
				index[s.Name] = k
				merged.Suites = append(merged.Suites, junitSuite{Name: s.Name, Properties: withoutCoverage(s.Properties, len(files))}) // coverage.go
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
		slices.SortStableFunc(s.Cases, func(a, b junitCase) int { return runNumber(a.Name) - runNumber(b.Name) })
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

func printJUnitMerge(w io.Writer, suites junitSuites, verdict string) {
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
