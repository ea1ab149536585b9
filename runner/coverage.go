package runner

import (
	"context"
	"fmt"

	"github.com/stg-tool/stg/internal/graph"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Coverage is what the runs of a campaign covered of a test case: how
// often each transition was taken and, for those never taken, whether a
// run could take one at all within the planning depth.

// Reach is what bounded search knows of reaching a transition.
type Reach int

const (
	// ReachUnknown: not searched (the transition was taken), or the
	// search ran out of budget or the solver could not decide.
	ReachUnknown Reach = iota
	// Reachable: some path of at most the depth's steps from the
	// initial state takes the transition (the solver found values).
	Reachable
	// Unreachable: proved: no path of at most the depth's steps takes
	// it (every unrolling is unsatisfiable, or the graph has none).
	Unreachable
)

func (r Reach) String() string {
	return [...]string{"unknown", "reachable", "unreachable"}[r]
}

// TransitionCoverage is the coverage of one transition of the test case.
type TransitionCoverage struct {
	Transition *spec.Transition
	Taken      int // times taken, over all runs
	Runs       int // runs that took it
	// Reach and Path (a witness: the transitions of a path taking it)
	// are set by Runner.Prove for the transitions never taken.
	Reach Reach
	Path  []*spec.Transition
}

// Coverage is the coverage of a test case by a set of runs.
type Coverage struct {
	Transitions []TransitionCoverage // in the order of the test case
	Runs        int
	Steps       int // the steps of all runs
	// Unmatched counts the steps that took no transition: the
	// unspecified output of a Fail, a send not delivered. Steps is
	// the sum of the Taken counts and Unmatched.
	Unmatched int
	Depth     int // the bound of Prove (0: not proved)
	// Visited holds the locations the runs were in. A transition proved
	// unreachable within the depth whose source was visited is reached
	// only by longer paths.
	Visited map[string]bool
}

// NewCoverage counts the transitions of tc the runs took.
func NewCoverage(tc *spec.Model, results []*Result) *Coverage {
	c := &Coverage{Transitions: make([]TransitionCoverage, len(tc.Transitions)), Visited: map[string]bool{}}
	for i, t := range tc.Transitions {
		c.Transitions[i].Transition = t
	}
	for _, res := range results {
		if res == nil {
			continue
		}
		c.Runs++
		seen := map[int]bool{}
		for _, s := range res.Trace {
			c.Steps++
			c.Visited[s.From] = true
			if s.To != "" {
				c.Visited[s.To] = true
			}
			i := TransitionOf(tc, s)
			if i < 0 {
				c.Unmatched++
				continue
			}
			c.Transitions[i].Taken++
			if !seen[i] {
				seen[i] = true
				c.Transitions[i].Runs++
			}
		}
	}
	return c
}

// TransitionOf returns the index in tc.Transitions of the transition a
// step took, -1 when it took none. Labels are not unique (a named spec
// transition gives several test case transitions): the action, the
// target and the source tell them apart.
func TransitionOf(tc *spec.Model, s Step) int {
	if s.Transition == "" {
		return -1
	}
	action := s.Action
	if s.Kind == Quiescence {
		action = spec.Delta
	}
	best := -1
	for i, t := range tc.Transitions {
		if t.Action != action || t.Label() != s.Transition || s.To != "" && t.To != s.To {
			continue
		}
		if t.From == s.From {
			return i
		}
		if best < 0 {
			best = i
		}
	}
	return best
}

// ProveBudget bounds the solver checks of the search for one transition.
const ProveBudget = 4000

// Prove searches, for every transition the runs never took, a path from
// the initial state of at most depth steps that takes it, by bounded
// unrolling of the test case with Z3 (as planning does): Reachable with
// a witness when one is found, Unreachable when none exists (every
// unrolling unsatisfiable), ReachUnknown when the budget ran out or the
// solver could not decide. External function calls stay uninterpreted:
// an over-approximation, so Unreachable stays a proof.
func (r *Runner) Prove(ctx context.Context, c *Coverage, depth int) error {
	c.Depth = depth
	for i := range c.Transitions {
		tcov := &c.Transitions[i]
		if tcov.Taken > 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		reach, path, err := r.reach(ctx, tcov.Transition, depth)
		if err != nil {
			return fmt.Errorf("%s: %v", tcov.Transition.Label(), err)
		}
		tcov.Reach, tcov.Path = reach, path
	}
	return nil
}

// reacher searches a path to a target transition.
type reacher struct {
	ctx     context.Context
	r       *Runner
	s       *solver.Solver
	target  *spec.Transition
	dist    map[string]int // fewest steps from a location to target.From
	budget  int
	unknown bool // a check was undecided, or the budget ran out
	path    []*spec.Transition
}

func (r *Runner) reach(ctx context.Context, target *spec.Transition, depth int) (Reach, []*spec.Transition, error) {
	rc := &reacher{ctx: ctx, r: r, target: target, dist: distancesTo(r.tc, target.From), budget: ProveBudget}
	d, ok := rc.dist[r.init.Loc]
	if !ok || d+1 > depth {
		return Unreachable, nil, nil // the graph alone has no such path
	}
	rc.s = r.z.NewSolver()
	defer rc.s.Close()
	err := rc.s.Assert(r.init.PC)
	if err != nil {
		return ReachUnknown, nil, err
	}
	// Iterative deepening: the witness found is a shortest path.
	found := false
	for bound := d + 1; bound <= depth && !found && !rc.exhausted(); bound++ {
		if found, err = rc.search(r.init.Loc, 0, bound, r.init.Vars); err != nil {
			break
		}
	}
	switch {
	case err != nil:
		return ReachUnknown, nil, err
	case found:
		return Reachable, rc.path, nil
	case rc.unknown:
		return ReachUnknown, nil, nil
	}
	return Unreachable, nil, nil
}

// search extends the path asserted, which ends in loc after step steps,
// by at most depth-step steps, the last of them the target.
func (rc *reacher) search(loc string, step, depth int, vars map[string]expr.Expr) (bool, error) {
	for _, t := range rc.r.tc.Outgoing(loc) {
		if t != rc.target {
			d, ok := rc.dist[t.To]
			if !ok || step+1+d+1 > depth || t.From == t.To && len(t.Assign) == 0 {
				continue // too far, or a loop that changes nothing
			}
		}
		if rc.exhausted() {
			return false, nil
		}
		rc.budget--
		u := unrollStep(rc.r.tc, t, step+1, vars)
		f, next := expr.AndOf(append([]expr.Expr{expr.Substitute(t.Guard, vars, u.params)}, u.assigns...)...), u.next
		rc.s.Push()
		if err := rc.s.Assert(f); err != nil {
			rc.s.Pop(1)
			return false, err
		}
		res, err := rc.s.Check()
		if err != nil {
			rc.s.Pop(1)
			return false, err
		}
		found := false
		switch {
		case res == solver.Unknown:
			rc.unknown = true
		case res == solver.Sat && t == rc.target:
			found = true
		case res == solver.Sat:
			found, err = rc.search(t.To, step+1, depth, next)
		}
		rc.s.Pop(1)
		if err != nil || found {
			if found {
				rc.path = append([]*spec.Transition{t}, rc.path...)
			}
			return found, err
		}
	}
	return false, nil
}

// exhausted reports (and records) whether the search must stop: out of
// budget, or cancelled.
func (rc *reacher) exhausted() bool {
	if rc.budget <= 0 || rc.ctx.Err() != nil {
		rc.unknown = true
	}
	return rc.unknown && (rc.budget <= 0 || rc.ctx.Err() != nil)
}

// distancesTo computes, by a backward breadth-first search, the fewest
// transitions from each location to one of the locations locs.
func distancesTo(tc *spec.Model, locs ...string) map[string]int {
	pred := map[string][]string{}
	for _, t := range tc.Transitions {
		pred[t.To] = append(pred[t.To], t.From)
	}
	return graph.Distances(locs, func(l string) []string { return pred[l] })
}
