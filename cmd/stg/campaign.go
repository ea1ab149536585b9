package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec"
)

// A campaign is the runs of one stg run: run k (1-based) plays seed
// S+k-1. Runs are independent (each starts a fresh SUT, and its choices
// depend on its seed alone), so a campaign splits by run into shards and
// plays on several workers with the same seeds and the same verdicts.

// shard is the share i of n of a campaign's runs (--shard i/n): the runs
// k with (k-1) mod n == i-1, dealt round-robin so that each share has
// runs from the whole seed range. The zero shard is the whole campaign.
type shard struct{ i, n int }

// parseShard reads "i/n" with 1 <= i <= n.
func parseShard(s string) (shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return shard{}, fmt.Errorf("--shard %q: want i/n with 1 <= i <= n, e.g. 2/4", s)
	}
	return shard{i, n}, nil
}

func (sh shard) String() string {
	if sh.n == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", sh.i, sh.n)
}

// runs returns the run numbers (1-based) of the shard among runs runs.
func (sh shard) runs(runs int) []int {
	var ks []int
	for k := 1; k <= runs; k++ {
		if sh.n == 0 || (k-1)%sh.n == sh.i-1 {
			ks = append(ks, k)
		}
	}
	return ks
}

// played is a run of the campaign, played: its number and its result
// (or error).
type played struct {
	run int
	res *runner.Result
	err error
}

// playAll plays the runs ks on len(rs) workers, worker w with the Runner
// rs[w] (each has its own solver context). emit takes each run in the
// order of ks as soon as the runs before it are done; when it returns
// false (an error), the runs after it are cancelled and dropped.
func (s *runSession) playAll(ctx context.Context, rs []*runner.Runner, ks []int, emit func(*played) bool) {
	ps := make([]*played, len(ks))
	done := make([]chan struct{}, len(ks))
	for i := range ks {
		done[i] = make(chan struct{})
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(ks) {
					return
				}
				p := &played{run: ks[i]}
				if ctx.Err() == nil {
					p.res, p.err = runner.RunOnce(ctx, r, s.start, s.seed+int64(ks[i]-1))
				} else {
					p.err = ctx.Err()
				}
				ps[i] = p
				close(done[i])
			}
		}()
	}
	for i := range ks {
		<-done[i]
		if !emit(ps[i]) {
			cancel() // an error: the runs still going are dropped
			break
		}
	}
	wg.Wait()
}

// runners returns the Runners of the workers (--parallel K), each with
// its own solver context and, when the test case calls external
// functions, its own registry of them (the first worker's is opts.Funcs).
// closeAll releases them all.
func runners(c *cli.Context, m *spec.Model, opts runner.Options) (rs []*runner.Runner, closeAll func(), err error) {
	var closers []func()
	closeAll = func() {
		for _, f := range closers {
			f()
		}
	}
	for w := range max(c.Int("parallel"), 1) {
		o := opts
		if w > 0 && len(m.Funcs) > 0 {
			funcs, err := funcRegistry(c, m, io.Discard)
			if err != nil {
				return nil, closeAll, err
			}
			closers = append(closers, func() { funcs.Close() })
			o.Funcs = funcs
		}
		r, err := runner.New(m, o)
		if err != nil {
			return nil, closeAll, err
		}
		closers = append(closers, r.Close)
		rs = append(rs, r)
	}
	return rs, closeAll, nil
}

// campaignShard reads --shard; a shard needs a fixed first seed, for
// every shard must deal from the same campaign.
func campaignShard(c *cli.Context) (shard, error) {
	if !c.IsSet("shard") {
		return shard{}, nil
	}
	sh, err := parseShard(c.String("shard"))
	if err != nil {
		return shard{}, usageError(c, "%v", err)
	}
	if !c.IsSet("seed") {
		return shard{}, usageError(c, "--shard needs --seed: every shard must play its share of the same seeds")
	}
	return sh, nil
}
