package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"
	"time"
)

// JSON is the JSON report of stg run --report-json: the campaign
// (test case, seeds, planning) and the shard's runs.
type JSON struct {
	Testcase  string `json:"testcase"`       // the test's name (a test case's or a sympurpose's)
	Kind      string `json:"kind,omitempty"` // sympurpose for on-line runs; testcase otherwise
	Plan      string `json:"plan,omitempty"`
	Depth     int    `json:"depth,omitempty"`
	FirstSeed int64  `json:"first_seed"`
	Runs      int    `json:"runs"`            // of the whole campaign
	Shard     string `json:"shard,omitempty"` // "i/n"; "" for the whole campaign
	Verdict   string `json:"verdict"`         // Pass, Fail, Inconc or error
	Results   []Run  `json:"results"`
	// Coverage is what the runs covered of the test case (coverage.go).
	Coverage *Coverage `json:"coverage,omitempty"`
}

// Run is one run of a JSON report.
type Run struct {
	Run         int       `json:"run"`
	Seed        int64     `json:"seed"`
	Verdict     string    `json:"verdict"` // Pass, Fail, Inconc, or error
	Reason      string    `json:"reason"`
	Steps       int       `json:"steps"`
	Transitions []string  `json:"transitions"` // taken, in order
	ElapsedMS   float64   `json:"elapsed_ms"`
	LatenciesMS []float64 `json:"latencies_ms,omitempty"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// overall is the campaign's verdict as stg run gives it: error if a run
// ended in an error, else Fail if any failed, else Pass if any passed,
// else WeakPass if any gave it, else Inconc.
func (rep *JSON) overall() string {
	count := map[string]int{}
	for _, r := range rep.Results {
		count[r.Verdict]++
	}
	for _, v := range []string{"error", "Fail", "Pass", "WeakPass"} {
		if count[v] > 0 {
			return v
		}
	}
	return "Inconc"
}

func WriteJSON(path string, rep *JSON) error {
	out, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(out, '\n'), 0o644)
}

// MergeJSON combines the JSON reports of one campaign's shards.
func MergeJSON(files []string, datas [][]byte) (*JSON, error) {
	var merged *JSON
	var covs []*Coverage
	seen := map[int]string{}
	for i, data := range datas {
		var rep JSON
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
		} else if rep.Testcase != merged.Testcase || rep.Kind != merged.Kind || rep.FirstSeed != merged.FirstSeed || rep.Runs != merged.Runs || rep.Plan != merged.Plan || rep.Depth != merged.Depth {
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
	slices.SortFunc(merged.Results, func(a, b Run) int { return a.Run - b.Run })
	merged.Verdict = merged.overall()
	merged.Coverage = MergeCoverage(covs) // coverage.go
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

func PrintJSONMerge(w io.Writer, rep *JSON) {
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
	fmt.Fprintf(w, "%s: %s in %d run(s): %s\n", rep.Testcase, Counts(count, rep.Kind == "sympurpose"), len(rep.Results), rep.Verdict)
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
	PrintCoverage(w, rep.Coverage) // coverage.go
}

// Counts prints the verdicts of a campaign's runs: "3 Pass, 0 Fail, 1
// Inconc", with WeakPass where the route gives it (weak).
func Counts(count map[string]int, weak bool) string {
	if weak {
		return fmt.Sprintf("%d Pass, %d WeakPass, %d Fail, %d Inconc", count["Pass"], count["WeakPass"], count["Fail"], count["Inconc"])
	}
	return fmt.Sprintf("%d Pass, %d Fail, %d Inconc", count["Pass"], count["Fail"], count["Inconc"])
}
