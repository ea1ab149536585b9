package instantiate

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Extra is a test the completion adds to the tour's: the feasible prefix
// of a symbolic test that has no instance, or an execution Reach found
// for a transition the other tests leave uncovered.
type Extra struct {
	Name     string                       // PURPOSE-tIpN (prefix of N steps of tI) or PURPOSE-rJ
	Of       int                          // the symbolic test it is a prefix of (from 0); -1 for Reach's
	Instance *Instance                    // its symbolic test is the prefix, or the path Reach found
	Covers   []*predabs.ProductTransition // the SP transitions it is the first to cover
}

// Coverage is what the instances cover of SP's transitions. Every
// transition is in exactly one of Covered, Infeasible (no execution of at
// most Bound steps reaches it: proved within the bound) and Undecided.
type Coverage struct {
	Bound                          int
	Covered, Infeasible, Undecided []*predabs.ProductTransition
}

// complete keeps what is feasible (Options.TourOnly skips it): each
// symbolic test without an instance is cut at its first infeasible step
// and its longest instantiable prefix kept when it covers a transition
// no test covers yet; then, for each transition still uncovered, Reach
// searches an execution through SP' (SP and its reflexive transitions)
// that ends with it, kept as a test, or
// proves that none exists within the bound.
func (su *Suite) complete(ctx *solver.Context, s, tp *spec.Model, anim *Animator, opts Options) error {
	covered := map[*predabs.ProductTransition]bool{}
	cover := func(inst *Instance) ([]*predabs.ProductTransition, error) {
		ts, err := Traversed(su.SP, su.SPPrime, inst)
		var fresh []*predabs.ProductTransition
		for _, t := range ts {
			if !covered[t] {
				covered[t] = true
				fresh = append(fresh, t)
			}
		}
		return fresh, err
	}
	for _, inst := range su.Instances {
		if inst != nil {
			if _, err := cover(inst); err != nil {
				return err
			}
		}
	}
	bound := opts.Bound
	if bound <= 0 {
		bound = max(2*len(su.SP.States), 8)
	}
	su.Coverage = Coverage{Bound: bound}
	if !opts.TourOnly {
		if err := su.keepPrefixes(ctx, s, tp, anim, opts, cover); err != nil {
			return err
		}
		if err := su.reachUncovered(ctx, s, tp, anim, opts, covered, cover); err != nil {
			return err
		}
	}
	infeasible := map[*predabs.ProductTransition]bool{}
	for _, t := range su.Coverage.Infeasible {
		infeasible[t] = true
	}
	for _, t := range su.SP.Transitions {
		switch {
		case covered[t]:
			su.Coverage.Covered = append(su.Coverage.Covered, t)
		case !infeasible[t]:
			su.Coverage.Undecided = append(su.Coverage.Undecided, t)
		}
	}
	return nil
}

type coverFunc func(*Instance) ([]*predabs.ProductTransition, error)

func (su *Suite) keepPrefixes(ctx *solver.Context, s, tp *spec.Model, anim *Animator, opts Options, cover coverFunc) error {
	for i, path := range su.Symbolic {
		if su.Instances[i] != nil {
			continue
		}
		inst, err := anim.LongestPrefix(ctx, path)
		if err != nil {
			return err
		}
		if inst == nil {
			continue
		}
		fresh, err := cover(inst)
		if err != nil {
			return err
		}
		if len(fresh) > 0 {
			name := fmt.Sprintf("%s-t%dp%d", tp.Name, i+1, len(inst.Symbolic))
			if err := su.addExtra(ctx, s, &Extra{Name: name, Of: i, Instance: inst, Covers: fresh}, opts); err != nil {
				return err
			}
		}
	}
	return nil
}

func (su *Suite) reachUncovered(ctx *solver.Context, s, tp *spec.Model, anim *Animator, opts Options, covered map[*predabs.ProductTransition]bool, cover coverFunc) error {
	var inv expr.Expr // invariant.go: computed at the first transition left uncovered
	for _, t := range su.SP.Transitions {
		if covered[t] {
			continue
		}
		if inv == nil {
			inv = locationInvariant(ctx, anim.b)
		}
		never, err := anim.impossible(ctx, t, inv)
		if err != nil {
			return err
		}
		if never {
			su.Coverage.Infeasible = append(su.Coverage.Infeasible, t)
			continue
		}
		inst, proved, err := anim.Reach(ctx, su.SPPrime, t, su.Coverage.Bound)
		if err != nil {
			return err
		}
		if proved {
			su.Coverage.Infeasible = append(su.Coverage.Infeasible, t)
		}
		if inst == nil {
			continue
		}
		fresh, err := cover(inst)
		if err != nil {
			return err
		}
		if !covered[t] {
			return fmt.Errorf("instantiate: internal error: the execution found for %s -%s-> %s does not traverse it", t.From.Name(), t.Action, t.To.Name())
		}
		reached := 1
		for _, x := range su.Extra {
			if x.Of < 0 {
				reached++
			}
		}
		name := fmt.Sprintf("%s-r%d", tp.Name, reached)
		if err := su.addExtra(ctx, s, &Extra{Name: name, Of: -1, Instance: inst, Covers: fresh}, opts); err != nil {
			return err
		}
	}
	return nil
}

func (su *Suite) addExtra(ctx *solver.Context, s *spec.Model, x *Extra, opts Options) error {
	su.Extra = append(su.Extra, x)
	if !opts.Testcases {
		return nil
	}
	tc, err := Testcase(ctx, s, x.Instance, x.Name)
	if err != nil {
		return err
	}
	su.Testcases = append(su.Testcases, tc)
	return nil
}

// LongestPrefix returns the instance of the longest proper prefix of
// path that has one, or nil when even its first step has none. A prefix
// of an instance is an instance of the prefix, so the search is binary.
func (a *Animator) LongestPrefix(ctx *solver.Context, path []*predabs.ProductTransition) (*Instance, error) {
	var best *Instance
	lo, hi := 1, len(path)-1 // best is an instance of path[:lo-1]; path[:hi+1] has none
	for lo <= hi {
		mid := (lo + hi) / 2
		inst, err := a.Animate(ctx, path[:mid])
		switch {
		case err == nil:
			best, lo = inst, mid+1
		case errors.Is(err, ErrNotInstantiable):
			hi = mid - 1
		default:
			return nil, err
		}
	}
	return best, nil
}

// Report prints what the completion added and the coverage of SP's
// transitions, one line each:
//
//	PURPOSE-t1p6  prefix of t1 (6 of 28 steps), covers 1 more transition
//	PURPOSE-r1    Call Enter prompt ... HangUp, covers 1 more transition
//	coverage: 36 of 36 feasible transitions of SP covered (36 in all; 0 proved infeasible within 30 steps; 0 undecided)
//	infeasible: q2 × {...} -HangUp-> q3 × {...}
func (su *Suite) Report() string {
	var b strings.Builder
	more := func(n int) string {
		if n == 1 {
			return "covers 1 more transition"
		}
		return fmt.Sprintf("covers %d more transitions", n)
	}
	for _, x := range su.Extra {
		if x.Of >= 0 {
			fmt.Fprintf(&b, "%s  prefix of t%d (%d of %d steps), %s\n", x.Name, x.Of+1, len(x.Instance.Symbolic), len(su.Symbolic[x.Of]), more(len(x.Covers)))
			continue
		}
		var acts []string
		for _, t := range x.Instance.Symbolic {
			acts = append(acts, t.Action)
		}
		fmt.Fprintf(&b, "%s  %s, %s\n", x.Name, strings.Join(acts, " "), more(len(x.Covers)))
	}
	c := su.Coverage
	fmt.Fprintf(&b, "coverage: %d of %d feasible transitions of SP covered (%d in all; %d proved infeasible within %d steps; %d undecided)\n",
		len(c.Covered), len(su.SP.Transitions)-len(c.Infeasible), len(su.SP.Transitions), len(c.Infeasible), c.Bound, len(c.Undecided))
	for _, t := range c.Infeasible {
		fmt.Fprintf(&b, "infeasible: %s -%s-> %s\n", t.From.Name(), t.Action, t.To.Name())
	}
	for _, t := range c.Undecided {
		fmt.Fprintf(&b, "undecided: %s -%s-> %s\n", t.From.Name(), t.Action, t.To.Name())
	}
	return b.String()
}
