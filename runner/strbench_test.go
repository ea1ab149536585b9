package runner

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	lucky "github.com/stg-tool/stg/examples/lucky/sut/impl"
)

// stepClock wraps an adapter and notes when each step is taken: every
// input sent and every output received. The time between two notes is
// what the tester spent on the second step (choosing values, planning,
// judging); an in-process SUT answers at once.
type stepClock struct {
	adapter.Adapter
	last  time.Time
	steps []time.Duration
}

func (c *stepClock) note() {
	now := time.Now()
	c.steps = append(c.steps, now.Sub(c.last))
	c.last = now
}

func (c *stepClock) Send(ctx context.Context, in adapter.Input) error {
	c.note()
	return c.Adapter.Send(ctx, in)
}

func (c *stepClock) Receive(ctx context.Context, wait time.Duration) (*adapter.Output, error) {
	out, err := c.Adapter.Receive(ctx, wait)
	if out != nil {
		c.note()
	}
	return out, err
}

// benchmarkStringSteps plays runs of the test case name against fresh
// in-process SUTs with the options of stg run (planning depth as given)
// and reports steps per second, Z3 checks per step and the median time
// of a step.
func benchmarkStringSteps(b *testing.B, name string, depth int, newSUT func() adapter.SUT) {
	opts := DefaultOptions()
	opts.Depth = depth
	r := newRunner(b, name, opts)
	var durations []time.Duration
	steps := 0
	checks := r.z.Stats().Checks
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clock := &stepClock{Adapter: adapter.InProcess(newSUT()), last: time.Now()}
		res, err := r.Run(context.Background(), clock, int64(i))
		if err != nil {
			b.Fatalf("seed %d: %v", i, err)
		}
		if res.Verdict == Fail {
			b.Fatalf("seed %d: Fail against a correct SUT\n%s", i, res.TraceString())
		}
		steps += len(res.Trace)
		durations = append(durations, clock.steps...)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(r.z.Stats().Checks-checks)/float64(steps), "checks/step")
	if len(durations) > 0 {
		slices.Sort(durations)
		b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "ms/step-median")
		b.ReportMetric(float64(durations[len(durations)*9/10].Microseconds())/1000, "ms/step-p90")
	}
}

// BenchmarkStringSteps measures the runner on string specs, in
// process: the echo spec of testdata/echo (a regular expression on a
// stored string, an output equal to a constant and it) and Lucky
// People's lucky-by-sex (names checked by a regular expression, a path
// of 12 steps to Pass), planning as stg run does and in random walks.
func BenchmarkStringSteps(b *testing.B) {
	echo := func() adapter.SUT { return &echoSUT{} }
	luckySUT := func() adapter.SUT { return lucky.New(lucky.Correct) }
	for _, depth := range []int{DefaultDepth, 0} {
		b.Run("echo/depth"+itoa(depth), func(b *testing.B) { benchmarkStringSteps(b, "echo/testcase.yaml", depth, echo) })
		b.Run("lucky-by-sex/depth"+itoa(depth), func(b *testing.B) { benchmarkStringSteps(b, "lucky-by-sex.yaml", depth, luckySUT) })
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
