package e2e

import (
	"flag"
	"os/exec"
	"testing"
	"time"
)

var (
	loadProcs = flag.Int("load", 0, "TestPythonLateUnderLoad: busy-loop processes to start beside the runs (0: skip the test)")
	loadRuns  = flag.Int("load-runs", 16, "TestPythonLateUnderLoad: runs of the correct Python cmp program, seeds 1..N")
)

// TestPythonLateUnderLoad plays the correct Python cmp program started 3s
// late, with the default options of stg run, while -load busy loops (and
// processWorkers runs at once) keep the machine's CPUs saturated: a
// Python interpreter there can be runnable for seconds without running.
// A conformant SUT must never get Fail, however loaded the machine. Run
// it by hand (it loads the machine on purpose):
//
//	go test ./e2e -run TestPythonLateUnderLoad -load 10 -v
func TestPythonLateUnderLoad(t *testing.T) {
	if *loadProcs <= 0 {
		t.Skip("-load N runs it, with N busy loops beside the runs")
	}
	py := python(t).late(3 * time.Second)
	var jobs []job
	var tcs []testcase
	for _, tc := range generate(t) {
		if tc.example == "cmp" {
			tcs = append(tcs, tc)
		}
	}
	for i := range *loadRuns {
		jobs = append(jobs, py.job(tcs[i%len(tcs)], 8*(1-i%2), 1, int64(1+i)))
	}
	busy(t, *loadProcs)
	start := time.Now()
	outs := play(t, jobs, processWorkers)
	var pass, fail, inconc int
	for _, o := range outs {
		pass, fail, inconc = pass+o.pass, fail+o.fail, inconc+o.inconc
	}
	t.Logf("%d runs of %s beside %d busy loops in %v: %d Pass, %d Fail, %d Inconc",
		len(jobs), py.name, *loadProcs, time.Since(start).Round(time.Second), pass, fail, inconc)
	checkSound(t, outs)
}

// busy starts n processes that spin until the test ends.
func busy(t *testing.T, n int) {
	for range n {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
}
