package e2e

import (
	"flag"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/runner"
)

var slow = flag.Bool("slow", false, "process suite: 20 runs per example against correct SUTs that start 1s and 3s late, and every mutant started 3s late")

// processWorkers play process runs at once: runs mostly wait for the SUT,
// so more of them than cores keep the suite short.
const processWorkers = 8

// processOptions are the options of stg run, bounded: no short window.
func processOptions(depth int) runner.Options {
	o := runner.DefaultOptions()
	o.Depth = depth
	o.MaxSteps = 150
	o.Timeout = 2 * time.Minute
	return o
}

// program is an SUT process to start for each run.
type program struct {
	name string // "correct", "mutant-no-end", "python", with ", 3s late" when delayed
	argv []string
}

// late returns p started after a start-up delay (examples.DelayVariable).
func (p program) late(d time.Duration) program {
	argv := append([]string{"env", examples.DelayVariable + "=" + d.String()}, p.argv...)
	return program{fmt.Sprintf("%s, %v late", p.name, d), argv}
}

func (p program) job(tc testcase, depth, runs int, seed int64) job {
	return job{tc: tc, sut: p.name, start: adapter.Command(p.argv, nil), opts: processOptions(depth), runs: runs, seed: seed}
}

// programs returns every example's programs (examples/*/sut/correct
// and mutant-*, the test binary standing for each: linkProgram) by
// example, in the order of examples.SUTs (correct first).
func programs(t *testing.T) map[string][]program {
	t.Helper()
	dir := t.TempDir()
	r := map[string][]program{}
	for _, s := range examples.SUTs() {
		r[s.Example] = append(r[s.Example], program{s.Name, []string{linkProgram(t, dir, s.Example, s.Name)}})
	}
	return r
}

// python returns the Python implementation of cmp. python3 is required:
// .ci/run installs it, and a missing interpreter fails the suite rather
// than hiding the only SUT not written in Go.
func python(t *testing.T) program {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for examples/cmp/sut/python/cmp.py (apt-get install python3): %v", err)
	}
	script, err := filepath.Abs("../examples/cmp/sut/python/cmp.py")
	if err != nil {
		t.Fatal(err)
	}
	return program{"python", []string{py, script}}
}

// suite is a group of process jobs and what their outcomes must show.
type suite struct {
	name  string
	jobs  []job
	check func(t *testing.T, outs []outcome)
}

// TestProcesses plays the test cases against the real programs, with the
// options of stg run: a few runs per test case against each correct
// program (Go and Python) and each mutant, and runs against SUTs that
// start late (sleep before reading their input). Correct programs must
// never get Fail, each mutant must get some Fail. All suites share one
// pool of workers; each job has its own Runner (one Z3 context per
// goroutine). The programs started late wait out their delay and the
// confirmation of quiescence: they play with STG_LONG=1 (2 runs per
// example at 3s, and the mutants that betray themselves by a missing
// output) or -slow (20 runs per example with start-up delays of 1s and
// 3s, and every mutant late); the default run plays a goal-directed run
// and a random walk per test case and program (3 and 2 with STG_LONG=1).
func TestProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the process suites start hundreds of processes")
	}
	t.Parallel() // its runs mostly wait: they overlap the in-process tests
	progs := programs(t)
	progs["cmp"] = append(progs["cmp"], python(t))
	tcs := generate(t)
	suites := []suite{
		correctSuite(tcs, progs),
		mutantSuite("mutants", tcs, progs, nil, 0),
	}
	if *slow || testlong.Enabled() {
		suites = append(suites, slowSuite(tcs, progs), lateMutants(t, tcs, progs))
	}
	var jobs []job
	for _, s := range suites {
		for _, j := range s.jobs {
			j.suite = s.name
			jobs = append(jobs, j)
		}
	}
	// The slowest jobs first, for a short makespan.
	slices.SortStableFunc(jobs, func(a, b job) int { return strings.Count(b.sut, "late") - strings.Count(a.sut, "late") })
	start := time.Now()
	outs := play(t, jobs, processWorkers)
	t.Logf("%d jobs, %d runs in %v", len(jobs), sumRuns(outs), time.Since(start).Round(time.Second))
	for _, s := range suites {
		t.Run(s.name, func(t *testing.T) {
			var mine []outcome
			for _, o := range outs {
				if o.suite == s.name {
					mine = append(mine, o)
				}
			}
			s.check(t, mine)
		})
	}
}

func sumRuns(outs []outcome) int {
	n := 0
	for _, o := range outs {
		n += o.played
	}
	return n
}

// correctSuite plays a goal-directed run and a random walk of every test
// case against the correct programs (3 and 2 with STG_LONG=1).
func correctSuite(tcs []testcase, progs map[string][]program) suite {
	var jobs []job
	for _, tc := range tcs {
		for _, p := range progs[tc.example] {
			if p.name == "correct" || p.name == "python" {
				jobs = append(jobs, p.job(tc, 8, testlong.Runs(1, 3), 1), p.job(tc, 0, testlong.Runs(1, 2), 1001))
			}
		}
	}
	return suite{"correct", jobs, soundCheck}
}

func soundCheck(t *testing.T, outs []outcome) {
	runs, fails := checkSound(t, outs)
	pass := 0
	for _, o := range outs {
		pass += o.pass
	}
	t.Logf("%d runs of correct programs: %d Pass, %d Fail", runs, pass, fails)
}

// mutantSuite plays up to 3 goal-directed runs of each test case against
// each mutant program (only those named in only, when given), started
// delay late, each job stopping at its first Fail.
func mutantSuite(name string, tcs []testcase, progs map[string][]program, only map[string]bool, delay time.Duration) suite {
	var jobs []job
	for _, tc := range tcs {
		for _, p := range progs[tc.example] {
			if !strings.HasPrefix(p.name, "mutant-") || only != nil && !only[tc.example+"/"+p.name] {
				continue
			}
			if delay > 0 {
				p = p.late(delay)
			}
			j := p.job(tc, 8, 3, 7)
			j.untilFail = true
			jobs = append(jobs, j)
		}
	}
	return suite{name, jobs, func(t *testing.T, outs []outcome) { killCheck(t, outs, delay) }}
}

// killCheck requires some Fail of every mutant and logs the first. A
// mutant started delay late must not be failed before it starts reading:
// that Fail would come from the tester's clock, not from the mutant.
func killCheck(t *testing.T, outs []outcome, delay time.Duration) {
	first := map[string]*outcome{}
	var mutants []string
	for i, o := range outs {
		if o.err != nil {
			t.Errorf("%s: %v", o.job, o.err)
		}
		m := o.tc.example + "/" + o.sut
		if _, seen := first[m]; !seen {
			mutants = append(mutants, m)
			first[m] = nil
		}
		if o.firstFail != nil && first[m] == nil {
			first[m] = &outs[i]
		}
	}
	var b strings.Builder
	for _, m := range mutants {
		o := first[m]
		if o == nil {
			t.Errorf("%s: no run of any test case ended in Fail", m)
			continue
		}
		fail := o.firstFail
		fmt.Fprintf(&b, "%s: killed by %s, seed %d, after %v: %s\n", m, o.tc.purpose, fail.Seed, fail.Elapsed.Round(time.Millisecond), fail.Reason)
		if fail.Elapsed < delay {
			t.Errorf("%s: Fail after %v, before the program, %v late, read its first input: %s\n%s",
				m, fail.Elapsed.Round(time.Millisecond), delay, fail.Reason, fail.TraceString())
		}
	}
	t.Logf("%d mutant programs:\n%s", len(mutants), b.String())
}

// slowSuite plays runs against the correct programs started late: 2 per
// example at 3s, or with -slow 20 per example at 1s and at 3s. The runs
// of an example alternate between goal-directed and random walk and go
// round its test cases.
func slowSuite(tcs []testcase, progs map[string][]program) suite {
	runs, delays := 2, []time.Duration{3 * time.Second}
	if *slow {
		runs, delays = 20, []time.Duration{time.Second, 3 * time.Second}
	}
	byExample := map[string][]testcase{}
	for _, tc := range tcs {
		byExample[tc.example] = append(byExample[tc.example], tc)
	}
	var jobs []job
	for ex, mine := range byExample {
		for _, p := range progs[ex] {
			if p.name != "correct" && p.name != "python" {
				continue
			}
			for _, d := range delays {
				for i := range runs {
					jobs = append(jobs, p.late(d).job(mine[i%len(mine)], 8*(1-i%2), 1, int64(1+i)))
				}
			}
		}
	}
	return suite{"correct, late", jobs, soundCheck}
}

// lateMutants plays the mutants started 3s late: all of them with -slow,
// else those that betray themselves by a missing output, where the
// start-up allowance and the confirmation of quiescence meet.
func lateMutants(t *testing.T, tcs []testcase, progs map[string][]program) suite {
	var only map[string]bool
	if !*slow {
		only = map[string]bool{
			"atm/mutant-silent-refusal":   true,
			"buffer/mutant-silent-empty":  true,
			"cmp/mutant-no-end":           true,
			"retry/mutant-gives-up-early": true,
			"vending/mutant-no-change":    true,
		}
		for m := range only {
			ex, name, _ := strings.Cut(m, "/")
			if !slices.ContainsFunc(progs[ex], func(p program) bool { return p.name == name }) {
				t.Fatalf("no mutant program %s", m)
			}
		}
	}
	return mutantSuite("mutants, late", tcs, progs, only, 3*time.Second)
}
