package compose

import (
	"fmt"
	"math/big"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stg-tool/stg/internal/randsys"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// The trace test compares the concrete runs of a composed flat model
// with a brute-force composition of the components' concrete steps
// (the rules of Def 7 read on values: an output synchronises with every
// input that accepts its value and goes to the environment only when
// none does; two inputs of one value join; internal steps interleave;
// hiding turns outputs into internal steps and drops inputs), on
// bounded data: parameters in paramDom, initial integer variables in
// varDom.

var (
	paramDom = []int64{0, 1, 3}
	varDom   = []int64{0, 1}
)

const traceDepth = 6

// values returns the values of type t in the bounded domain d.
func values(t expr.Type, d []int64) []expr.Value {
	switch t.Kind {
	case expr.Bool:
		return []expr.Value{expr.BoolValue(false), expr.BoolValue(true)}
	case expr.EnumKind:
		var vs []expr.Value
		for i := range t.Enum.Values {
			vs = append(vs, expr.EnumValue(t.Enum, i))
		}
		return vs
	}
	var vs []expr.Value
	for _, x := range d {
		vs = append(vs, expr.IntValue(big.NewInt(x)))
	}
	return vs
}

// tuples returns every assignment of values to the types ts.
func tuples(ts []expr.Type, d []int64) [][]expr.Value {
	res := [][]expr.Value{nil}
	for _, t := range ts {
		var next [][]expr.Value
		for _, r := range res {
			for _, v := range values(t, d) {
				next = append(next, append(append([]expr.Value(nil), r...), v))
			}
		}
		res = next
	}
	return res
}

func holds(e expr.Expr, vars map[string]expr.Value, params map[string]expr.Value) bool {
	v, err := expr.Eval(e, expr.Valuation{Vars: vars, Params: params})
	return err == nil && v.Bool
}

// local is a component's concrete state.
type local struct {
	loc  string
	vars map[string]expr.Value
}

// cstep is a concrete step: its label and the next state of the
// components (all of them).
type cstep struct {
	action string
	dir    spec.Dir
	vals   string
	next   []local
}

func (s cstep) label() string { return s.action + dirMark(s.dir) + "(" + s.vals + ")" }

func valString(vs []expr.Value) string {
	var ss []string
	for _, v := range vs {
		ss = append(ss, v.String())
	}
	return strings.Join(ss, ",")
}

// basicSteps are the concrete steps of component c at position i.
func basicSteps(c *spec.Component, i int, st []local) []cstep {
	var steps []cstep
	for _, t := range c.Model.Outgoing(st[i].loc) {
		a := c.Model.Action(t.Action)
		var ts []expr.Type
		for _, p := range a.Params {
			ts = append(ts, p.Type)
		}
		for _, vs := range tuples(ts, paramDom) {
			params := map[string]expr.Value{}
			for k, p := range a.Params {
				params[p.Name] = vs[k]
			}
			if !holds(t.Guard, st[i].vars, params) {
				continue
			}
			nv := map[string]expr.Value{}
			for k, v := range st[i].vars {
				nv[k] = v
			}
			ok := true
			for _, as := range t.Assign {
				v, err := expr.Eval(as.Value, expr.Valuation{Vars: st[i].vars, Params: params})
				ok = ok && err == nil
				nv[as.Var] = v
			}
			if !ok {
				continue
			}
			next := append([]local(nil), st...)
			next[i] = local{t.To, nv}
			steps = append(steps, cstep{t.Action, a.Dir, valString(vs), next})
		}
	}
	return steps
}

// bruteSteps composes the concrete steps along the structure; off is
// the position of st's first component.
func bruteSteps(sys *spec.System, s *spec.Structure, off int, st []local) []cstep {
	switch s.Op {
	case spec.Leaf:
		return basicSteps(sys.Component(s.Component), off, st)
	case spec.Hiding:
		hidden := map[string]bool{}
		for _, c := range s.Hidden {
			hidden[c] = true
		}
		var res []cstep
		for _, x := range bruteSteps(sys, s.Parts[0], off, st) {
			if hidden[x.action] && x.dir == spec.Input {
				continue
			}
			if hidden[x.action] {
				x.dir = spec.Internal
			}
			res = append(res, x)
		}
		return res
	}
	n1 := len(s.Parts[0].Leaves())
	left := bruteSteps(sys, s.Parts[0], off, st)
	right := bruteSteps(sys, s.Parts[1], off+n1, st)
	merge := func(l, r cstep, dir spec.Dir) cstep {
		next := append([]local(nil), l.next...)
		copy(next[off+n1:], r.next[off+n1:])
		return cstep{l.action, dir, l.vals, next}
	}
	accepts := func(x cstep, ys []cstep) []cstep {
		var rs []cstep
		for _, y := range ys {
			if y.dir == spec.Input && y.action == x.action && y.vals == x.vals {
				rs = append(rs, y)
			}
		}
		return rs
	}
	var res []cstep
	for _, l := range left {
		rs := accepts(l, right)
		if l.dir != spec.Internal {
			for _, r := range rs {
				res = append(res, merge(l, r, l.dir))
			}
		}
		if l.dir == spec.Internal || len(rs) == 0 {
			res = append(res, l)
		}
	}
	for _, r := range right {
		ls := accepts(r, left)
		if r.dir == spec.Output {
			for _, l := range ls {
				res = append(res, merge(l, r, spec.Output))
			}
		}
		if r.dir == spec.Internal || len(ls) == 0 {
			res = append(res, r)
		}
	}
	return res
}

// flatSteps are the concrete steps of the flat model from (loc, vars).
func flatSteps(m *spec.Model, loc string, vars map[string]expr.Value) []cstep {
	st := []local{{loc, vars}}
	comp := &spec.Component{Model: m}
	return basicSteps(comp, 0, st)
}

func traces(steps func([]local) []cstep, st []local, depth int, prefix string, out map[string]bool) {
	out[prefix] = true
	if depth == 0 {
		return
	}
	for _, s := range steps(st) {
		traces(steps, s.next, depth-1, prefix+" "+s.label(), out)
	}
}

// initials returns the initial concrete states of the components, on
// varDom.
func initials(sys *spec.System) [][]local {
	res := [][]local{nil}
	for _, name := range sys.Structure.Leaves() {
		m := sys.Component(name).Model
		var ts []expr.Type
		for _, v := range m.Variables {
			ts = append(ts, v.Type)
		}
		var next [][]local
		for _, vs := range tuples(ts, varDom) {
			vars := map[string]expr.Value{}
			for k, v := range m.Variables {
				vars[v.Name] = vs[k]
			}
			if !holds(m.Initial.Condition, vars, nil) {
				continue
			}
			for _, r := range res {
				next = append(next, append(append([]local(nil), r...), local{m.Initial.Location, vars}))
			}
		}
		res = next
	}
	return res
}

// checkTraces compares the traces of both up to traceDepth from every
// initial state; it returns the number of traces compared.
func checkTraces(t *testing.T, sys *spec.System, m *spec.Model) int {
	t.Helper()
	leaves := sys.Structure.Leaves()
	n := 0
	for _, init := range initials(sys) {
		flat := map[string]expr.Value{}
		var locs []string
		for i, l := range init {
			locs = append(locs, l.loc)
			for k, v := range l.vars {
				flat[qualify(leaves[i], k)] = v
			}
		}
		want, got := map[string]bool{}, map[string]bool{}
		traces(func(st []local) []cstep { return bruteSteps(sys, sys.Structure, 0, st) }, init, traceDepth, "", want)
		traces(func(st []local) []cstep {
			ss := flatSteps(m, st[0].loc, st[0].vars)
			return ss
		}, []local{{strings.Join(locs, ","), flat}}, traceDepth, "", got)
		if d := diff(want, got); d != "" {
			t.Fatalf("%s from %v: traces differ:\n%s", sys.Structure, init, d)
		}
		n += len(want)
	}
	return n
}

func diff(want, got map[string]bool) string {
	var ds []string
	for w := range want {
		if !got[w] {
			ds = append(ds, "missing:"+w)
		}
	}
	for g := range got {
		if !want[g] {
			ds = append(ds, "extra:  "+g)
		}
	}
	sort.Strings(ds)
	if len(ds) > 10 {
		ds = append(ds[:10], fmt.Sprintf("... %d more", len(ds)-10))
	}
	return strings.Join(ds, "\n")
}

// TestTracesRules: the systems of the rule goldens that have a flat
// model have the traces of their brute-force composition.
func TestTracesRules(t *testing.T) {
	for _, path := range []string{"testdata/hide", "testdata/r2", "testdata/r3", "testdata/r4", "testdata/r5", "../examples/slot"} {
		sys, g := build(t, filepath.Join(path, "system.yaml"))
		m, err := g.Model(sys.Name, sys.File)
		if err != nil {
			t.Fatal(err)
		}
		if n := checkTraces(t, sys, m); n < 3 {
			t.Errorf("%s: only %d traces", path, n)
		}
	}
}

// TestTracesRandom: random systems of two or three components (random
// alphabets, guards, assignments and structures) have the traces of
// their brute-force composition up to depth 6, and the projection of
// each of their transitions on each sub-system is unique (Def. 9). The
// default run checks 8 systems, STG_LONG=1 20.
func TestTracesRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	want := testlong.Runs(8, 20)
	checked, total := 0, 0
	for i := 0; checked < want && i < 400; i++ {
		dir := t.TempDir()
		path := randomSystem(rng, dir)
		sys, err := specfile.LoadSystem(path)
		if err != nil {
			if i < 3 {
				t.Log(err)
			}
			continue // e.g. a hidden channel its part does not use
		}
		g, err := Build(sys)
		if err != nil {
			t.Fatal(err)
		}
		m, err := g.Model(sys.Name, sys.File)
		if err != nil {
			continue // a visible channel in both directions
		}
		total += checkTraces(t, sys, m)
		checked++
		for _, tr := range g.Transitions {
			for _, sub := range g.Subsystems() {
				p, cands := g.Project(tr, sub), fits(g, tr, sub)
				if (p == nil) != (len(cands) == 0) || (p != nil && (len(cands) != 1 || cands[0] != p)) {
					t.Fatalf("%s: projection of %s on %s: %v, fitting %v", sys.Structure, tr, sub, p, cands)
				}
			}
		}
	}
	if checked < want {
		t.Fatalf("only %d random systems checked", checked)
	}
	t.Logf("%d systems, %d traces", checked, total)
}

// randomSystem writes a random system and its components into dir:
// channels c and d carry a parameter.
func randomSystem(rng *rand.Rand, dir string) string {
	path, err := randsys.Write(rng, dir, randsys.Options{
		Structures2:  []string{"A * B", "Hide([c], A * B)", "Hide([c, d], A * B)", "Hide([c, d, e], A * B)", "B * A"},
		Structures3:  []string{"(A * B) * C", "Hide([c], A * B) * C", "Hide([c, d, e], A * (B * C))", "Hide([d], Hide([c], C * A) * B)"},
		Params:       []string{"c", "d"},
		ParamGuards:  []string{"p > 0", "p == x", "p != x && p < 3"},
		ParamAssigns: []string{"x: p"},
	})
	if err != nil {
		panic(err)
	}
	return path
}
