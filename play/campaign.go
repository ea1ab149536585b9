package play

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/stg-tool/stg/adapter"
)

// A Campaign is the runs of one stg run: run k (1-based) plays seed
// Seed+k-1. Runs are independent (each starts a fresh SUT, and its
// choices depend on its seed alone), so a campaign splits by run into
// shards and plays on several workers with the same seeds and the same
// verdicts.
type Campaign struct {
	Seed  int64
	Runs  int
	Shard Shard
	// Start starts the SUT of each run.
	Start adapter.Starter
}

// MaxParallel bounds the workers of a campaign: each holds a solver
// context (about 17 MB) and a SUT.
const MaxParallel = 64

// Workers returns how many workers a campaign of runs runs, asked to
// play parallel at once, needs: at least 1, at most the runs to play and
// MaxParallel.
func Workers(parallel, runs int) int {
	return max(1, min(parallel, runs, MaxParallel))
}

// Shard is the share I of N of a campaign's runs (--shard I/N): the runs
// k with (k-1) mod N == I-1, dealt round-robin so that each share has
// runs from the whole seed range. The zero Shard is the whole campaign.
type Shard struct{ I, N int }

// ParseShard reads "i/n" with 1 <= i <= n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 1 <= i <= n, e.g. 2/4", s)
	}
	return Shard{i, n}, nil
}

func (sh Shard) String() string {
	if sh.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", sh.I, sh.N)
}

// Runs returns the run numbers (1-based) of the shard among runs runs.
func (sh Shard) Runs(runs int) []int {
	var ks []int
	for k := 1; k <= runs; k++ {
		if sh.N == 0 || (k-1)%sh.N == sh.I-1 {
			ks = append(ks, k)
		}
	}
	return ks
}

// Played is a run of a campaign, played: its number, its seed and its
// result (or error).
type Played struct {
	Run  int
	Seed int64
	Res  *Result
	Err  error
}

// Play plays the campaign's runs (the shard's) on the engines es, one
// worker each (each engine has its own oracle state and solver). emit
// takes each run in the order of the campaign as soon as the runs before
// it are done; when it returns false, the runs after it are cancelled
// and dropped.
func (c *Campaign) Play(ctx context.Context, es []*Engine, emit func(Played) bool) {
	ks := c.Shard.Runs(c.Runs)
	ps := make([]Played, len(ks))
	done := make([]chan struct{}, len(ks))
	for i := range ks {
		done[i] = make(chan struct{})
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, e := range es {
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
				ps[i] = c.playOne(ctx, e, ks[i])
				close(done[i])
			}
		}()
	}
	for i := range ks {
		<-done[i]
		if !emit(ps[i]) {
			cancel() // the runs still going are dropped
			break
		}
	}
	wg.Wait()
}

func (c *Campaign) playOne(ctx context.Context, e *Engine, k int) Played {
	p := Played{Run: k, Seed: c.Seed + int64(k-1)}
	if p.Err = ctx.Err(); p.Err == nil {
		p.Res, p.Err = RunOnce(ctx, e, c.Start, p.Seed)
	}
	return p
}
