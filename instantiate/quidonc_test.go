package instantiate

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

func load(t *testing.T, specPath, purposePath string) (*spec.Model, *spec.Model) {
	t.Helper()
	s, err := specfile.LoadFile(specPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := specfile.LoadFile(purposePath, s)
	if err != nil {
		t.Fatal(err)
	}
	return s, tp
}

func newContext(t *testing.T) *solver.Context {
	t.Helper()
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ctx.Close)
	return ctx
}

var examplePairs = []struct{ name, spec, purpose string }{
	{"quidonc", "../examples/quidonc/spec.yaml", "../examples/quidonc/purpose-fig4.yaml"},
	{"tank", "../examples/tank/spec.yaml", "../examples/tank/purpose-high-then-empty.yaml"},
	{"quidonc-tp1", "../examples/quidonc/spec.yaml", "../examples/quidonc/purpose-tp1.yaml"},
}

func actions(path []*predabs.ProductTransition) string {
	var acts []string
	for _, t := range path {
		acts = append(acts, t.Action)
	}
	return strings.Join(acts, " ")
}

// TestGenerateExamples checks the suites of the examples, with and
// without filtering and for K = 0 (the tour only) and 2 (with the
// completion): the tour covers SP, every instance replays on the model
// (Animate and Reach replay it), and every test case (built for K = 2,
// the completion's included) passes check.All and can reach Pass. The
// default run plays two of the four settings, each filtering and each K
// once; STG_LONG=1 all four.
func TestGenerateExamples(t *testing.T) {
	ctx := newContext(t)
	type setting struct {
		noFilter bool
		k        int
	}
	settings := testlong.Pick([]setting{{false, 2}, {true, 0}, {false, 0}, {true, 2}},
		func(i int, _ setting) bool { return i < 2 })
	for _, ex := range examplePairs {
		s, tp := load(t, ex.spec, ex.purpose)
		for _, set := range settings {
			noFilter, k := set.noFilter, set.k
			var su *Suite
			var err error
			if ex.name == "quidonc" && set == (setting{false, 2}) {
				_, _, su = fig4Suite(t) // the same options, generated once
			} else if su, err = Generate(ctx, s, tp, Options{Reflexive: k, Testcases: k > 0, TourOnly: k == 0, Abstraction: predabs.Options{NoFilter: noFilter}}); err != nil {
				t.Fatal(err)
			}
			st := su.Stats
			t.Logf("%s no-filter=%v K=%d: %d symbolic (avg %.2f), %d instantiated (avg %.2f, %d inserted), SP %d/%d",
				ex.name, noFilter, k, st.Symbolic, st.SymbolicLen, st.Instantiated, st.InstantiatedLen, st.Inserted, st.SPStates, st.SPTransitions)
			checkCovered(t, su)
			for i, inst := range su.Instances {
				if inst == nil {
					if !errors.Is(su.Reasons[i], ErrNotInstantiable) {
						t.Errorf("%s t%d: no instance and no reason", ex.name, i+1)
					}
					continue
				}
				if k > 0 {
					checkTestcase(t, ctx, su.Testcases[i])
				}
			}
			if k > 0 && len(su.Testcases) != len(su.Symbolic)+len(su.Extra) {
				t.Errorf("%s: %d test cases, want %d (tour) + %d (completion)", ex.name, len(su.Testcases), len(su.Symbolic), len(su.Extra))
			}
			for _, tc := range su.Testcases[len(su.Symbolic):] {
				checkTestcase(t, ctx, tc)
			}
		}
	}
}

// checkCovered checks that the symbolic tests are paths of SP from its
// initial state to final states that traverse every coverable transition.
func checkCovered(t *testing.T, su *Suite) {
	t.Helper()
	seen := map[*predabs.ProductTransition]bool{}
	for i, p := range su.Symbolic {
		if !p[0].From.Initial || !p[len(p)-1].To.Final {
			t.Errorf("t%d (%s) does not go from the initial state to a final one", i+1, actions(p))
		}
		for j, tr := range p {
			seen[tr] = true
			if j > 0 && p[j-1].To != tr.From {
				t.Errorf("t%d is not a path at step %d", i+1, j+1)
			}
		}
	}
	for _, e := range su.Tour.Coverable {
		if !seen[su.SP.Transitions[e]] {
			t.Errorf("coverable SP transition %d not covered", e)
		}
	}
}

func checkTestcase(t *testing.T, ctx *solver.Context, tc *spec.Model) {
	t.Helper()
	f, err := check.All(ctx, tc)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Errors) > 0 {
		t.Errorf("%s: check.All: %v", tc.Name, f.Errors)
	}
	r, err := check.PassReachable(ctx, tc, 40, 5000)
	if err != nil || r != solver.Sat {
		t.Errorf("%s: Pass not reachable: %v %v", tc.Name, r, err)
	}
}

// TestQuidoncFigures pins what the reconstruction gives: SP, the tour and
// the instantiation ratio, with filtering and K = 2 (the README's table):
// 7 of 8 with pending outputs; 3 of 8 without (TourOnly, Pending < 0:
// the paper's procedure).
func TestQuidoncFigures(t *testing.T) {
	ctx, s, su := fig4Suite(t) // Reflexive: 2, with its test cases
	tp, err := specfile.LoadFile(examplePairs[0].purpose, s)
	if err != nil {
		t.Fatal(err)
	}
	st := su.Stats
	got := fmt.Sprintf("SP %d/%d, %d symbolic of total length %d, %d instantiated", st.SPStates, st.SPTransitions, st.Symbolic, su.Tour.Length(), st.Instantiated)
	want := "SP 15/36, 8 symbolic of total length 81, 7 instantiated"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	wantReport := "quidonc-fig4-t1p6  prefix of t1 (6 of 28 steps), covers 1 more transition\n"
	if r := su.Report(); !strings.HasPrefix(r, wantReport) || !strings.Contains(r, "coverage: 36 of 36 feasible transitions of SP covered (36 in all; 0 proved infeasible within 30 steps; 0 undecided)\n") {
		t.Errorf("report:\n%s", r)
	}
	paper, err := Generate(ctx, s, tp, Options{Reflexive: 2, Pending: -1, TourOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := paper.Stats.Instantiated; n != 3 {
		t.Errorf("without pending outputs: %d instantiated, want 3", n)
	}
}

// TestTankNeedsReflexiveSteps: the tank cannot reach 7 litres from a
// pour of at most 3 without an inserted pour (K = 0 fails, K = 1 works).
func TestTankNeedsReflexiveSteps(t *testing.T) {
	ctx := newContext(t)
	s, tp := load(t, examplePairs[1].spec, examplePairs[1].purpose)
	for k, want := range []int{0, 1, 1} {
		su, err := Generate(ctx, s, tp, Options{Reflexive: k})
		if err != nil {
			t.Fatal(err)
		}
		if su.Stats.Instantiated != want*su.Stats.Symbolic || want == 1 && su.Stats.Inserted == 0 {
			t.Errorf("K=%d: %+v", k, su.Stats)
		}
	}
}

// TestAnimateAgainstBruteForce compares Animate with an independent
// search: a depth-first enumeration of concrete executions with the
// concrete evaluator (parameters over small finite sets), with the same
// rules (inputs only where quiescent, abstract states, at most K
// reflexive insertions before each step, each an SP' step that keeps the
// purpose location then at most Pending outputs, back in the abstract
// state; then at most Pending outputs before an input), with and without
// pending outputs. Both must agree on which symbolic tests have an
// instance. The suites are the tours alone (TourOnly): the completion,
// most of Generate's time, adds nothing this test reads. The default
// run checks each example at one K (each K on some example); STG_LONG=1
// every example at both.
func TestAnimateAgainstBruteForce(t *testing.T) {
	ctx := newContext(t)
	for i, ex := range examplePairs {
		s, tp := load(t, ex.spec, ex.purpose)
		for _, k := range []int{0, 1} {
			if (i+k)%2 != 0 && !testlong.Enabled() {
				continue // the default run: each example at one K, each K on some example
			}
			su, err := Generate(ctx, s, tp, Options{Reflexive: k, TourOnly: true, Abstraction: predabs.Options{NoFilter: true}})
			if err != nil {
				t.Fatal(err)
			}
			anim, err := NewAnimator(ctx, su.SPPrime, k)
			if err != nil {
				t.Fatal(err)
			}
			for _, pending := range []int{0, DefaultPending} {
				anim.Pending = pending
				for i, p := range su.Symbolic {
					for n := 1; n <= len(p); n++ {
						_, err := anim.Animate(ctx, p[:n])
						got := err == nil
						if want := bruteInstance(t, anim, p[:n]); got != want {
							t.Errorf("%s K=%d pending=%d t%d prefix %d (%s): Animate %v (%v), brute force %v", ex.name, k, pending, i+1, n, actions(p[:n]), got, err, want)
						}
					}
				}
			}
		}
	}
}

// bruteInstance reports whether some concrete execution instantiates
// path, by enumeration.
func bruteInstance(t *testing.T, a *Animator, path []*predabs.ProductTransition) bool {
	t.Helper()
	var inits []map[string]expr.Value
	enumerate(a.b.Vars, 0, map[string]expr.Value{}, func(x map[string]expr.Value) {
		if holds(t, a.b.Init, x, nil) && holds(t, a.b.Invariant, x, nil) && holds(t, path[0].From.Pred(), x, nil) {
			inits = append(inits, clone(x))
		}
	})
	for _, x := range inits {
		if a.bruteFrom(t, path, 0, a.K, a.Pending, x) {
			return true
		}
	}
	return false
}

// bruteFrom: from state x before step i, with left reflexive steps and
// pend pending outputs still allowed before it (the reflexive ones
// first, as in the unrolling).
func (a *Animator) bruteFrom(t *testing.T, path []*predabs.ProductTransition, i, left, pend int, x map[string]expr.Value) bool {
	if i == len(path) {
		return true
	}
	tr := path[i]
	input := false
	for _, st := range tr.Steps {
		input = input || a.isInput(st.EGA)
		for _, y := range a.successors(t, st.EGA, x) {
			if holds(t, tr.To.Pred(), y, nil) && a.bruteFrom(t, path, i+1, a.K, a.Pending, y) {
				return true
			}
		}
	}
	if input && pend > 0 {
		for _, g := range a.outputs {
			for _, y := range a.successors(t, g, x) {
				if a.bruteFrom(t, path, i, 0, pend-1, y) {
					return true
				}
			}
		}
	}
	if left == 0 || pend < a.Pending {
		return false
	}
	return a.bruteInsert(t, path, i, left, x, true, a.Pending, false)
}

// bruteInsert: inside a reflexive insertion before step i, at x: first
// says whether its first step (an SP' step that keeps the purpose
// location) may still come, outs how many outputs may; once it moved,
// it may end wherever it is back in the step's abstract state.
func (a *Animator) bruteInsert(t *testing.T, path []*predabs.ProductTransition, i, left int, x map[string]expr.Value, first bool, outs int, moved bool) bool {
	tr := path[i]
	if moved && holds(t, tr.From.Pred(), x, nil) && a.bruteFrom(t, path, i, left-1, a.Pending, x) {
		return true
	}
	if first {
		for _, g := range a.reflexive[stateKey(tr.From)] {
			for _, y := range a.successors(t, g, x) {
				if a.bruteInsert(t, path, i, left, y, false, outs, true) {
					return true
				}
			}
		}
	}
	if outs == 0 {
		return false
	}
	for _, g := range a.loopOutputs[tr.From.Purpose] {
		for _, y := range a.successors(t, g, x) {
			if a.bruteInsert(t, path, i, left, y, false, outs-1, true) {
				return true
			}
		}
	}
	return false
}

// successors returns the states g leads to from x (satisfying the
// invariant), an input only from a quiescent state.
func (a *Animator) successors(t *testing.T, g *predabs.EGA, x map[string]expr.Value) []map[string]expr.Value {
	if a.isInput(g) && !holds(t, a.quiescent, x, nil) {
		return nil
	}
	var params []*spec.Variable
	for _, p := range a.s.Action(g.Action).Params {
		params = append(params, &spec.Variable{Name: p.Name, Type: p.Type})
	}
	var out []map[string]expr.Value
	enumerateParams(params, 0, map[string]expr.Value{}, func(args map[string]expr.Value) {
		if !holds(t, g.Guard, x, args) {
			return
		}
		y := map[string]expr.Value{}
		for _, v := range a.b.Vars {
			val, err := expr.Eval(g.Assign[v.Name], expr.Valuation{Vars: x, Params: args})
			if err != nil {
				t.Fatal(err)
			}
			y[v.Name] = val
		}
		if holds(t, a.b.Invariant, y, nil) {
			out = append(out, y)
		}
	})
	return out
}

func holds(t *testing.T, e expr.Expr, x, args map[string]expr.Value) bool {
	ok, err := expr.EvalBool(e, expr.Valuation{Vars: x, Params: args})
	if err != nil {
		t.Fatalf("%s: %v", expr.Format(e), err)
	}
	return ok
}

// finite returns the values tried for a variable or parameter of type
// typ: every value of an enum or bool, the range of a bounded int, and
// -1..9 for any other int.
func finite(typ expr.Type, r *expr.Range) []expr.Value {
	switch typ.Kind {
	case expr.EnumKind:
		var vs []expr.Value
		for i := range typ.Enum.Values {
			vs = append(vs, expr.EnumValue(typ.Enum, i))
		}
		return vs
	case expr.Bool:
		return []expr.Value{expr.BoolValue(false), expr.BoolValue(true)}
	}
	lo, hi := int64(-1), int64(9)
	if r != nil {
		lo, hi = r.Lo.Int64(), r.Hi.Int64()
	}
	var vs []expr.Value
	for v := lo; v <= hi; v++ {
		vs = append(vs, expr.IntValue(big.NewInt(v)))
	}
	return vs
}

func enumerate(vars []*predabs.Var, i int, x map[string]expr.Value, f func(map[string]expr.Value)) {
	if i == len(vars) {
		f(x)
		return
	}
	for _, v := range finite(vars[i].Type, vars[i].Range) {
		x[vars[i].Name] = v
		enumerate(vars, i+1, x, f)
	}
}

func enumerateParams(ps []*spec.Variable, i int, x map[string]expr.Value, f func(map[string]expr.Value)) {
	if i == len(ps) {
		f(x)
		return
	}
	for _, v := range finite(ps[i].Type, nil) {
		x[ps[i].Name] = v
		enumerateParams(ps, i+1, x, f)
	}
}

func clone(x map[string]expr.Value) map[string]expr.Value {
	y := map[string]expr.Value{}
	for k, v := range x {
		y[k] = v
	}
	return y
}

// TestPurposeIsLinear: the purpose of an instance has one location per
// step and the sink, quiescence loops where an input is next, and loads
// with the spec.
func TestPurposeIsLinear(t *testing.T) {
	ctx := newContext(t)
	s, tp := load(t, examplePairs[1].spec, examplePairs[1].purpose)
	su, err := Generate(ctx, s, tp, Options{Reflexive: 2})
	if err != nil {
		t.Fatal(err)
	}
	inst := su.Instances[0]
	p, err := Purpose(s, inst, "lin")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Accept) != 1 || p.Accept[0] != fmt.Sprintf("s%d", len(inst.Steps)) {
		t.Errorf("accept %v, want s%d", p.Accept, len(inst.Steps))
	}
	deltas := 0
	for _, tr := range p.Transitions {
		if tr.Action == spec.Delta {
			deltas++
		}
	}
	inputs := 0
	for _, st := range inst.Steps {
		if st.Input {
			inputs++
		}
	}
	if deltas != inputs {
		t.Errorf("%d quiescence loops, %d inputs", deltas, inputs)
	}
}

// TestCoverageAgainstBruteForce compares the completion's coverage with a
// breadth-first search of the concrete executions through SP' (parameters
// over small finite sets, inputs only where quiescent), up to the bound:
// a transition of SP is covered iff the search traverses it, and one
// proved infeasible is never traversed.
func TestCoverageAgainstBruteForce(t *testing.T) {
	ctx := newContext(t)
	for _, ex := range examplePairs {
		s, tp := load(t, ex.spec, ex.purpose)
		su, err := Generate(ctx, s, tp, Options{Reflexive: 1, Bound: 12})
		if err != nil {
			t.Fatal(err)
		}
		anim, err := NewAnimator(ctx, su.SPPrime, 1)
		if err != nil {
			t.Fatal(err)
		}
		seen := bruteTraversed(t, anim, su.SPPrime, 12)
		infeasible := map[*predabs.ProductTransition]bool{}
		for _, tr := range su.Coverage.Infeasible {
			infeasible[tr] = true
		}
		covered := map[*predabs.ProductTransition]bool{}
		for _, tr := range su.Coverage.Covered {
			covered[tr] = true
		}
		for _, tr := range su.SP.Transitions {
			name := fmt.Sprintf("%s: %s -%s-> %s", ex.name, tr.From.Name(), tr.Action, tr.To.Name())
			if covered[tr] && !seen[keyOf(tr)] {
				t.Errorf("%s covered, the search never traverses it", name)
			}
			if seen[keyOf(tr)] && !covered[tr] {
				t.Errorf("%s traversed by the search, not covered (infeasible: %v)", name, infeasible[tr])
			}
		}
		t.Logf("%s: %d transitions, %d covered, %d infeasible, %d undecided", ex.name, len(su.SP.Transitions),
			len(su.Coverage.Covered), len(su.Coverage.Infeasible), len(su.Coverage.Undecided))
	}
}

func bruteTraversed(t *testing.T, a *Animator, sp *predabs.Product, bound int) map[trKey]bool {
	type node struct {
		q *predabs.ProductState
		x map[string]expr.Value
	}
	nodeKey := func(n node) string { return fmt.Sprint(n.q.ID, n.x) }
	var frontier []node
	visited := map[string]bool{}
	enumerate(a.b.Vars, 0, map[string]expr.Value{}, func(x map[string]expr.Value) {
		for _, q := range sp.Initial {
			if holds(t, a.b.Init, x, nil) && holds(t, a.b.Invariant, x, nil) && holds(t, q.Pred(), x, nil) {
				n := node{q, clone(x)}
				visited[nodeKey(n)] = true
				frontier = append(frontier, n)
			}
		}
	})
	seen := map[trKey]bool{}
	for d := 0; d < bound && len(frontier) > 0; d++ {
		var next []node
		for _, n := range frontier {
			for _, tr := range sp.Transitions {
				if tr.From != n.q {
					continue
				}
				for _, st := range tr.Steps {
					for _, y := range a.successors(t, st.EGA, n.x) {
						if !holds(t, tr.To.Pred(), y, nil) {
							continue
						}
						seen[keyOf(tr)] = true
						m := node{tr.To, y}
						if !visited[nodeKey(m)] {
							visited[nodeKey(m)] = true
							next = append(next, m)
						}
					}
				}
			}
		}
		frontier = next
	}
	return seen
}

// TestCompletionProvesInfeasible: in the latch, boom needs y == 1, which
// no execution reaches, but the abstraction (on x alone) keeps it: the
// completion keeps the feasible prefix of the tour's only test and
// reports boom's transition proved infeasible within the bound, the
// others covered; the concrete search agrees.
func TestCompletionProvesInfeasible(t *testing.T) {
	ctx := newContext(t)
	s, tp := load(t, "testdata/latch.yaml", "testdata/latch-purpose.yaml")
	su, err := Generate(ctx, s, tp, Options{Reflexive: 1, Testcases: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + su.Report())
	c := su.Coverage
	if len(c.Infeasible) != 1 || c.Infeasible[0].Action != "boom" || len(c.Undecided) != 0 || len(c.Covered) != len(su.SP.Transitions)-1 {
		t.Errorf("coverage: %d covered, %d infeasible, %d undecided of %d\n%s", len(c.Covered), len(c.Infeasible), len(c.Undecided), len(su.SP.Transitions), su.Report())
	}
	if st := su.Stats; st.Instantiated != 0 || st.Extra == 0 || st.Feasible != len(su.SP.Transitions)-1 || st.Covered != st.Feasible {
		t.Errorf("stats %+v", st)
	}
	anim, err := NewAnimator(ctx, su.SPPrime, 1)
	if err != nil {
		t.Fatal(err)
	}
	seen := bruteTraversed(t, anim, su.SPPrime, c.Bound)
	for _, tr := range c.Infeasible {
		if seen[keyOf(tr)] {
			t.Errorf("%s -%s-> %s proved infeasible, the search traverses it", tr.From.Name(), tr.Action, tr.To.Name())
		}
	}
	for _, tr := range c.Covered {
		if !seen[keyOf(tr)] {
			t.Errorf("%s -%s-> %s covered, the search never traverses it", tr.From.Name(), tr.Action, tr.To.Name())
		}
	}
	for _, tc := range su.Testcases {
		if tc != nil {
			checkTestcase(t, ctx, tc)
		}
	}
}
