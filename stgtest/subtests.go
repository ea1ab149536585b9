package stgtest

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
)

// PlayCommand is RunCommand with one subtest per run, named after its
// seed ("seed=42"), so that go test lists the runs and a failing run is
// replayed alone with go test -run 'TestName/seed=42' and STG_SEED=42,
// which its failure message prints. It stops at the first failing run.
func PlayCommand(t *testing.T, testcase string) {
	t.Helper()
	c, start := commandConfig(t)
	playSubtests(t, testcase, start, c)
}

// Play is Run with one subtest per run, named after its seed (see
// PlayCommand).
func Play(t *testing.T, testcase string, start adapter.Starter) {
	t.Helper()
	c, err := readConfig(os.Getenv, time.Now)
	if err != nil {
		t.Fatalf("%v", err)
	}
	c.env = withoutSUT(c.env)
	playSubtests(t, testcase, start, c)
}

// playSubtests plays c.runs runs of testcase against start, each in a
// subtest of t: Fail or an error fails the subtest (and t), Inconc skips
// it; when no run passed, t is skipped.
func playSubtests(t *testing.T, testcase string, start adapter.Starter, c config) {
	t.Helper()
	m, r, done := prepare(t, testcase, c)
	defer done()
	passed := 0
	var inconc []string
	for i := range c.runs {
		seed := c.seed + int64(i)
		ok := t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			pass, msg, ic := runOne(t, m, r, start, c, i)
			if pass {
				passed++
				return
			}
			inconc = append(inconc, ic)
			t.Skipf("%s", msg)
		})
		if !ok {
			return
		}
	}
	if passed == 0 {
		t.Skipf("test case %s: Inconc, no run passed: %s", m.Name, strings.Join(inconc, "; "))
	}
}
