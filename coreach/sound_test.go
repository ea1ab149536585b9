package coreach_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/canonical"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/internal/exampletest"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

func examples(t testing.TB) []exampletest.Pair { return exampletest.Pairs(t, "..") }

// someExamples returns the first purpose of every example, the share of
// examples(t) that the slow checks play by default: all of them with
// STG_LONG=1 (internal/testlong).
func someExamples(t testing.TB) []exampletest.Pair {
	seen := map[string]bool{}
	return testlong.Pick(examples(t), func(_ int, p exampletest.Pair) bool {
		ex, _, _ := strings.Cut(p.Name, "/")
		first := !seen[ex]
		seen[ex] = true
		return first
	})
}

// newContext returns the solver of the tests' oracles, with a time limit
// generous enough for a loaded machine (a query past it fails the test).
func newContext(t testing.TB) *solver.Context {
	ctx := exampletest.Context(t)
	ctx.SetTimeout(2 * time.Minute)
	return ctx
}

// build returns the product of the canonical tester of specPath with the
// purpose, as pipeline.Models makes it.
func build(t testing.TB, ctx *solver.Context, specPath, purposePath string) *product.Product {
	t.Helper()
	s, err := specfile.LoadFile(specPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := specfile.LoadFile(purposePath, s)
	if err != nil {
		t.Fatal(err)
	}
	return buildModels(t, ctx, s, tp)
}

func buildModels(t testing.TB, ctx *solver.Context, s, tp *spec.Model) *product.Product {
	t.Helper()
	can, err := canonical.Build(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := product.Build(ctx, can, tp)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// at renames the identifiers of e to the copies of step i of a symbolic
// path: variables of step 0 keep their names (the start state), later
// ones are v@i; parameters are always p@i.
func at(e expr.Expr, i int) expr.Expr {
	return expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
		if id.Kind == expr.VarIdent && i == 0 {
			return nil
		}
		return &expr.Ident{Name: fmt.Sprintf("%s@%d", id.Name, i), Kind: id.Kind, T: id.T}
	})
}

// step is the formula of firing t at step i: its guard, and the
// variables of step i+1 given by its assignments.
func step(p *product.Product, t *spec.Transition, i int) expr.Expr {
	cs := []expr.Expr{at(t.Guard, i)}
	for _, v := range p.Variables {
		next := at(expr.VarRef(v.Name, v.Type), i+1)
		cs = append(cs, expr.Compare(expr.Eq, next, at(t.AssignedValue(v), i)))
	}
	return expr.AndOf(cs...)
}

// stringDomain is the range of the string parameters in the
// exploration: names of each shape the bundled examples tell apart
// (valid with equal or different first letters, small letters only, a
// digit inside, empty). Z3 4.8.12 takes about a second on a path
// formula with free strings and regular expressions, and the bounded
// exploration poses thousands; over constants the string atoms evaluate
// away. Like the depth bound, the domain under-approximates the
// feasible paths: every state found is a real one, so a state the
// analyses miss is a real fault.
var stringDomain = []string{"", "Ann", "Abe", "Bob", "ann", "A1"}

// concrete returns the formulas of f with its string parameters set to
// every combination of values of stringDomain, the string atoms
// evaluated: the satisfiable-looking ones (not folded to false), each
// once. A formula without string parameters is its own only instance.
func concrete(f expr.Expr) []expr.Expr {
	var ids []*expr.Ident
	seen := map[string]bool{}
	expr.Idents(f, func(id *expr.Ident) {
		if id.Kind == expr.ParamIdent && id.T == expr.StringType && !seen[id.Name] {
			seen[id.Name] = true
			ids = append(ids, id)
		}
	})
	if len(ids) == 0 {
		return []expr.Expr{f}
	}
	var r []expr.Expr
	have := map[string]bool{}
	choice := make([]int, len(ids))
	for {
		vals := map[string]expr.Expr{}
		for k, id := range ids {
			vals[id.Name] = expr.StrConst(stringDomain[choice[k]])
		}
		g := fold(expr.Rewrite(f, func(id *expr.Ident) expr.Expr {
			if id.Kind == expr.ParamIdent {
				return vals[id.Name]
			}
			return nil
		}))
		if key := expr.Format(g); !expr.IsFalse(g) && !have[key] {
			have[key] = true
			r = append(r, g)
		}
		k := 0
		for ; k < len(choice) && choice[k] == len(stringDomain)-1; k++ {
			choice[k] = 0
		}
		if k == len(choice) {
			return r
		}
		choice[k]++
	}
}

// fold evaluates the closed subformulas of e through its &&, || and !.
func fold(e expr.Expr) expr.Expr {
	closed := true
	expr.Idents(e, func(*expr.Ident) { closed = false })
	if closed {
		if v, err := expr.Eval(e, expr.Valuation{}); err == nil {
			return v.Expr()
		}
		return e
	}
	switch x := e.(type) {
	case *expr.Unary:
		if x.Op == expr.Not {
			return expr.NotOf(fold(x.X))
		}
	case *expr.Binary:
		switch x.Op {
		case expr.And:
			return expr.AndOf(fold(x.X), fold(x.Y))
		case expr.Or:
			return expr.OrOf(fold(x.X), fold(x.Y))
		}
	}
	return e
}

// explorer enumerates the feasible symbolic paths of a product.
type explorer struct {
	t   testing.TB
	ctx *solver.Context
	p   *product.Product
}

func (x *explorer) sat(e expr.Expr) bool {
	x.t.Helper()
	r, err := x.ctx.Sat(e)
	if err != nil {
		x.t.Fatalf("Sat: %v", err)
	}
	return r != solver.Unsat
}

func (x *explorer) entails(a, b expr.Expr) bool {
	x.t.Helper()
	ok, err := x.ctx.Entails(a, b)
	if err != nil {
		x.t.Fatalf("Entails: %v", err)
	}
	return ok
}

// walk calls visit for every feasible path of at most k transitions
// (none into Fail) from loc, the state of step 0 satisfying start.
// locs[i] is the location at step i; path is the conjunction of the
// steps. Accept locations end paths.
func (x *explorer) walk(loc string, start expr.Expr, k int, visit func(locs []string, path expr.Expr)) {
	var dfs func(locs []string, path expr.Expr)
	dfs = func(locs []string, path expr.Expr) {
		visit(locs, path)
		l := locs[len(locs)-1]
		if len(locs) > k || x.p.Accept[l] {
			return
		}
		for _, tr := range x.p.Outgoing(l) {
			if tr.To == x.p.Fail {
				continue
			}
			for _, st := range concrete(step(x.p, tr, len(locs)-1)) {
				next := expr.AndOf(path, st)
				if x.sat(next) {
					dfs(append(locs[:len(locs):len(locs)], tr.To), next)
				}
			}
		}
	}
	if x.sat(start) {
		dfs([]string{loc}, start)
	}
}

// analyses returns the results to check: "unsliced" ones are plain
// over-approximations of reach and coreach; "sliced" ones (the
// defaults) are over-approximations of the states that are both.
func analyses(t testing.TB, ctx *solver.Context, p *product.Product) (unsliced, sliced map[string]*coreach.Result) {
	t.Helper()
	unsliced = map[string]*coreach.Result{"none": coreach.Graph(p)}
	sliced = map[string]*coreach.Result{}
	for _, dom := range []abstraction.Domain{abstraction.Intervals(), abstraction.Polyhedra()} {
		r, err := coreach.Analyze(p, dom, coreach.Options{Slicing: -1})
		if err != nil {
			t.Fatal(err)
		}
		unsliced[dom.Name()] = r
		if r, err = coreach.Analyze(p, dom, coreach.Options{}); err != nil {
			t.Fatal(err)
		}
		sliced[dom.Name()] = r
	}
	return unsliced, sliced
}

// Bounds of the exploration: paths to Accept from any location (free
// start state) and paths from the initial condition. The number of paths
// grows exponentially with the bound: the default run explores one
// transition less than STG_LONG=1 does.
var (
	backDepth = testlong.Runs(4, 5)
	fwdDepth  = testlong.Runs(5, 6)
)

// TestSoundOnExamples checks the analyses of the example products
// (someExamples: every example by default, every purpose with
// STG_LONG=1) against bounded exact exploration with Z3:
//
//   - every state from which a path of at most backDepth transitions
//     reaches Accept is in coreach(l) (unsliced analyses);
//   - every state reached from the initial condition by at most fwdDepth
//     transitions is in reach(l) (unsliced analyses);
//   - every state on a path of at most fwdDepth transitions from the
//     initial condition to Accept is in reach(l) ∧ coreach(l) (sliced,
//     the defaults).
func TestSoundOnExamples(t *testing.T) {
	for _, ex := range someExamples(t) {
		t.Run(ex.Name, func(t *testing.T) {
			t.Parallel()
			ctx := newContext(t)
			p := build(t, ctx, ex.Spec, ex.Purpose)
			unsliced, sliced := analyses(t, ctx, p)
			x := &explorer{t: t, ctx: ctx, p: p}
			paths := 0
			for _, l := range p.Locations {
				if l == p.Fail || p.Accept[l] {
					continue
				}
				x.walk(l, expr.True(), backDepth, func(locs []string, path expr.Expr) {
					if !p.Accept[locs[len(locs)-1]] {
						return
					}
					paths++
					for name, r := range unsliced {
						if !x.entails(path, r.CoreachOf(l)) {
							t.Errorf("%s: coreach(%s) = %s misses a state on the path %v",
								name, l, expr.Format(r.CoreachOf(l)), locs)
						}
					}
				})
			}
			init := p.Initial
			x.walk(init.Location, init.Condition, fwdDepth, func(locs []string, path expr.Expr) {
				n := len(locs) - 1
				l := locs[n]
				for name, r := range unsliced {
					if !x.entails(path, at(r.ReachOf(l), n)) {
						t.Errorf("%s: reach(%s) = %s misses the end of the path %v",
							name, l, expr.Format(r.ReachOf(l)), locs)
					}
				}
				if !p.Accept[l] {
					return
				}
				paths++
				for name, r := range sliced {
					for i, li := range locs {
						both := expr.AndOf(r.ReachOf(li), r.CoreachOf(li))
						if !x.entails(path, at(both, i)) {
							t.Errorf("%s (sliced): reach ∧ coreach of %s = %s misses step %d of the accepted path %v",
								name, li, expr.Format(both), i, locs)
						}
					}
				}
			})
			if paths == 0 {
				t.Errorf("no path to Accept within the bounds: the test checks nothing")
			}
			t.Logf("%d locations, %d transitions, %d paths to Accept checked", len(p.Locations), len(p.Transitions), paths)
		})
	}
}
