package e2e

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/runner"
)

// TestSoakSlowSUTs is the soak of issue 27: every example's correct
// programs, with default options (stg run's), answering slowly after a
// fast first answer (e2e/testdata/laggard.py: 300ms for every output but
// the first), and started late, while two busy loops load the machine.
// No run may end in Fail. It is long: it runs with -slow or STG_LONG=1
// (.ci/run sets it).
func TestSoakSlowSUTs(t *testing.T) {
	if !*slow {
		testlong.Skip(t)
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for the laggard proxy: %v", err)
	}
	lag, err := filepath.Abs("testdata/laggard.py")
	if err != nil {
		t.Fatal(err)
	}
	stop := busyLoops(t, 2)
	defer stop()
	progs := programs(t)
	progs["cmp"] = append(progs["cmp"], python(t))
	var jobs []job
	for _, tc := range generate(t) {
		for _, p := range progs[tc.example] {
			if p.name != "correct" && p.name != "python" {
				continue
			}
			slowp := program{p.name + ", answers 300ms late", append([]string{py, lag}, p.argv...)}
			for i, q := range []program{slowp, slowp.late(time.Second)} {
				j := q.job(tc, runner.DefaultDepth, 3, int64(1+3*i))
				j.opts = runner.DefaultOptions()
				j.opts.MaxSteps, j.opts.Timeout = 150, 2*time.Minute
				jobs = append(jobs, j)
			}
		}
	}
	start := time.Now()
	outs := play(t, jobs, processWorkers)
	t.Logf("%d jobs, %d runs in %v under two busy loops", len(jobs), sumRuns(outs), time.Since(start).Round(time.Second))
	soundCheck(t, outs)
}

// busyLoops starts n processes that spin, to load the machine as a
// user's CI does; stop kills them.
func busyLoops(t *testing.T, n int) (stop func()) {
	var cmds []*exec.Cmd
	for range n {
		c := exec.Command("sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	return func() {
		for _, c := range cmds {
			c.Process.Kill()
			c.Wait()
		}
	}
}
