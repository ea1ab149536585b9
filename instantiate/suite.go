package instantiate

import (
	"errors"
	"fmt"
	"time"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tour"
)

// Options of Generate.
type Options struct {
	Abstraction predabs.Options // the variant of the abstraction (NoFilter, Vars, Reachable)
	Reflexive   int             // K: reflexive steps allowed before each step
	Testcases   bool            // also build the test case of every instance
	// Pending bounds the outputs let happen, observed, before an input
	// where the spec is not quiescent: 0 is DefaultPending, negative none.
	Pending int
	// TourOnly skips the completion (Complete): only the tour's symbolic
	// tests are instantiated, as in the paper.
	TourOnly bool
	// Bound is the length of the executions Complete searches for a
	// transition still uncovered (0: twice the number of SP states, at
	// least 8).
	Bound int
}

// Suite is the outcome of the abstraction route for one spec and purpose:
// the abstraction, SP and SP', the covering tour of SP, its symbolic
// tests, and their instances and test cases.
type Suite struct {
	Abstraction *predabs.Abstraction
	SP, SPPrime *predabs.Product
	Tour        *tour.Tour
	Symbolic    [][]*predabs.ProductTransition // the paths of the tour
	Instances   []*Instance                    // per symbolic test; nil when not instantiated
	Reasons     []error                        // per symbolic test; why it has no instance
	Testcases   []*spec.Model                  // per symbolic test, with Options.Testcases, then per Extra test
	Extra       []*Extra                       // the tests Complete adds
	Coverage    Coverage                       // of SP's transitions by all the instances
	Stats       Stats
}

// Stats are the columns of Table II for one variant.
type Stats struct {
	SPStates, SPTransitions int
	Uncoverable             int           // SP transitions on no initial-final path
	Symbolic                int           // symbolic tests
	SymbolicLen             float64       // their average length
	Filtered                int           // abstract transitions removed by the exact check
	Instantiated            int           // symbolic tests with an instance
	InstantiatedLen         float64       // the average length of the instances (insertions included)
	Inserted                int           // reflexive steps inserted, in all
	Pending                 int           // pending outputs let happen before an input, in all
	Extra                   int           // tests added by the completion
	Covered                 int           // SP transitions that some instance traverses
	Feasible                int           // SP transitions not proved infeasible within the bound
	Infeasible              int           // SP transitions proved infeasible within the bound
	Time                    time.Duration // tour and instantiation (the abstraction excluded)
}

// Ratio returns Instantiated / Symbolic (0 without symbolic tests).
func (s Stats) Ratio() float64 {
	if s.Symbolic == 0 {
		return 0
	}
	return float64(s.Instantiated) / float64(s.Symbolic)
}

// Generate runs the abstraction route on the spec s and the purpose tp:
// abstraction, SP and SP', covering tour of SP, instantiation of each of
// its paths, and, with opts.Testcases, a test case per instance named
// NAME-tI (I from 1, NAME the purpose's name).
func Generate(ctx *solver.Context, s, tp *spec.Model, opts Options) (*Suite, error) {
	a, err := predabs.Abstract(ctx, s, tp, opts.Abstraction)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	su := &Suite{Abstraction: a}
	if su.SP, err = a.Product(ctx, false); err != nil {
		return nil, err
	}
	if su.SPPrime, err = a.Product(ctx, true); err != nil {
		return nil, err
	}
	if su.Tour, su.Symbolic, err = Tour(su.SP); err != nil {
		return nil, err
	}
	anim, err := NewAnimator(ctx, su.SPPrime, opts.Reflexive)
	if err != nil {
		return nil, err
	}
	switch {
	case opts.Pending < 0:
		anim.Pending = 0
	case opts.Pending > 0:
		anim.Pending = opts.Pending
	}
	if err := su.animateTour(ctx, s, tp, anim, opts); err != nil {
		return nil, err
	}
	if err := su.complete(ctx, s, tp, anim, opts); err != nil {
		return nil, err
	}
	su.fillStats(time.Since(start))
	return su, nil
}

// animateTour instantiates every symbolic test of the tour.
func (su *Suite) animateTour(ctx *solver.Context, s, tp *spec.Model, anim *Animator, opts Options) error {
	for i, path := range su.Symbolic {
		inst, err := anim.Animate(ctx, path)
		if err != nil && !errors.Is(err, ErrNotInstantiable) {
			return err
		}
		su.Instances = append(su.Instances, inst)
		su.Reasons = append(su.Reasons, err)
		var tc *spec.Model
		if inst != nil && opts.Testcases {
			if tc, err = Testcase(ctx, s, inst, fmt.Sprintf("%s-t%d", tp.Name, i+1)); err != nil {
				return err
			}
		}
		su.Testcases = append(su.Testcases, tc)
	}
	return nil
}

func (su *Suite) fillStats(d time.Duration) {
	st := Stats{SPStates: len(su.SP.States), SPTransitions: len(su.SP.Transitions), Uncoverable: len(su.Tour.Uncoverable),
		Symbolic: len(su.Symbolic), Filtered: su.Abstraction.Stats.Filtered, Time: d}
	n, m := 0, 0
	for i, p := range su.Symbolic {
		n += len(p)
		if inst := su.Instances[i]; inst != nil {
			st.Instantiated++
			m += len(inst.Steps)
			st.Inserted += inst.Inserted
			st.Pending += inst.Pending
		}
	}
	st.Extra = len(su.Extra)
	st.Covered = len(su.Coverage.Covered)
	st.Infeasible = len(su.Coverage.Infeasible)
	st.Feasible = len(su.SP.Transitions) - st.Infeasible
	if st.Symbolic > 0 {
		st.SymbolicLen = float64(n) / float64(st.Symbolic)
	}
	if st.Instantiated > 0 {
		st.InstantiatedLen = float64(m) / float64(st.Instantiated)
	}
	su.Stats = st
}

// Tour returns the covering tour of the product sp and its paths as
// sequences of product transitions. With several initial states a
// virtual root leads to each (its edges count in the tour's length but
// are not part of the paths).
func Tour(sp *predabs.Product) (*tour.Tour, [][]*predabs.ProductTransition, error) {
	if len(sp.Initial) == 0 {
		return &tour.Tour{}, nil, nil
	}
	g := &tour.Graph{Nodes: len(sp.States), Initial: sp.Initial[0].ID}
	for _, t := range sp.Transitions {
		g.Edges = append(g.Edges, tour.Edge{From: t.From.ID, To: t.To.ID})
	}
	for _, f := range sp.Finals {
		g.Final = append(g.Final, f.ID)
	}
	root := len(sp.Transitions)
	if len(sp.Initial) > 1 {
		g.Initial = g.Nodes
		g.Nodes++
		for _, q := range sp.Initial {
			g.Edges = append(g.Edges, tour.Edge{From: g.Initial, To: q.ID})
		}
	}
	tr, err := tour.Cover(g)
	if err != nil {
		return nil, nil, err
	}
	var paths [][]*predabs.ProductTransition
	for _, p := range tr.Paths {
		var path []*predabs.ProductTransition
		for _, e := range p {
			if e < root {
				path = append(path, sp.Transitions[e])
			}
		}
		if len(path) > 0 {
			paths = append(paths, path)
		}
	}
	return tr, paths, nil
}
