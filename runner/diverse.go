package runner

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Strategy says how the tester steers a run toward Pass.
type Strategy int

const (
	// Shortest follows a shortest path to Pass from every state,
	// nearest targets first (ties in random order).
	Shortest Strategy = iota
	// Diverse follows, in each run, a path to Pass stretched by a
	// number of steps that the run's seed fixes (see stretchOf): loop
	// iterations, longer ways to Pass, other branches. Runs whose
	// stretch cannot be had take the shortest path.
	Diverse
	// Walk does not plan: sends are chosen by a seeded random walk, as
	// with Depth 0.
	Walk
)

var strategyNames = [...]string{"shortest", "diverse", "random"}

func (s Strategy) String() string {
	if s < 0 || int(s) >= len(strategyNames) {
		return fmt.Sprintf("Strategy(%d)", int(s))
	}
	return strategyNames[s]
}

// ParseStrategy reads a strategy by name: shortest, diverse or random.
func ParseStrategy(name string) (Strategy, error) {
	for i, n := range strategyNames {
		if n == name {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown planning strategy %q (want shortest, diverse or random)", name)
}

// stretchOf returns the number of steps by which a run with seed
// stretches its path to Pass under the Diverse strategy, in [0, depth/2].
//
// It depends on the seed alone, so that a run replays with its seed and a
// campaign split by seed into shards plays the same runs as unsplit. The
// weighting toward what earlier runs did not exercise is a schedule
// rather than a memory: consecutive seeds take consecutive stretches, so
// any depth/2+1 consecutive runs of a campaign try every stretch once,
// the shortest path (stretch 0) included.
func stretchOf(seed int64, depth int) int {
	k := int64(depth/2 + 1)
	return int((seed%k + k) % k)
}

// diverse returns the path the Diverse strategy follows from the current
// state, or nil to take a shortest path (the strategy is another one, the
// run's stretch is 0 or was given up, or no path is found).
//
// The first time a shortest path of length n is found with n+stretch
// within Options.Depth, the run fixes its target: a path to Pass of at
// least n+stretch steps from here. Until then it follows shortest paths,
// which brings Pass nearer and so makes room for the stretch (a counter
// that must reach a threshold, say). Once fixed, the target is kept over
// the replanning after each observation; when no path of the remaining
// length exists any more (the SUT chose another branch), the run falls
// back to shortest paths.
func (x *execution) diverse() (*planner, error) {
	if x.r.opts.Plan != Diverse || x.stretch <= 0 {
		return nil, nil
	}
	if x.target > 0 {
		rest := x.target - len(x.taken)
		if rest > 0 {
			p, err := x.find(rest)
			if err != nil || p != nil {
				return p, err
			}
		}
		x.stretch = 0 // the stretch was had, or cannot be: give it up
		return nil, nil
	}
	p, err := x.find(0)
	if err != nil || p == nil || p.length+x.stretch > x.r.opts.Depth {
		return p, err // no room for the stretch yet
	}
	q, err := x.find(p.length + x.stretch)
	if err != nil {
		return nil, err
	}
	if q == nil {
		x.stretch = 0
		return p, nil
	}
	x.target = len(x.taken) + q.length
	return q, nil
}

// stretchDue reports whether a run of the Diverse strategy that follows
// a shortest path, rest steps from Pass, has room for its stretch now:
// then it plans again, to fix its target (see diverse).
func (x *execution) stretchDue(rest int) bool {
	return x.r.opts.Plan == Diverse && x.stretch > 0 && x.target == 0 && rest+x.stretch <= x.r.opts.Depth
}

// racy reports whether t is a send from a location where the SUT may
// emit an output other than quiescence without Fail: the output may cross
// the input on the wire, and the run may lose the states that explain it
// (Inconc). A stretched path does not take such sends; a shortest one may
// have to.
func (r *Runner) racy(t *spec.Transition) bool {
	if r.tc.Action(t.Action).Dir != spec.Send {
		return false
	}
	for _, u := range r.receives[t.From] {
		if u.Action != spec.Delta && r.tc.Verdict(u.To) != "fail" {
			return true
		}
	}
	return false
}

// stateKey names a state of a planned path: its location and the
// expressions of its variables.
func stateKey(loc string, vars map[string]expr.Expr) string {
	var b strings.Builder
	b.WriteString(loc)
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		b.WriteString("|" + k + "=" + expr.Format(vars[k]))
	}
	return b.String()
}
