package symex

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/stg-tool/stg/examples/microgrid/funcs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/summary"
)

// microgridExec is the reference implementation of examples/microgrid
// (package funcs): Table 3's rows, else INTGR(a, b) = a + b + (a*b mod
// 7) and RISE(I) = I/1000. It counts its calls in execs.
func microgridExec(execs *int) summary.Exec {
	return func(f *spec.Func, args []spec.Value) (spec.Value, error) {
		*execs++
		if f.Name == "INTGR" {
			return funcs.INTGR(args)
		}
		return funcs.RISE(args)
	}
}

// highExec is a what-if implementation: Table 3's rows, else an
// integration that never falls to 200 or below (201 + |a| + |b|), so
// that the branch I <= 200 stays out of reach whatever inputs the
// solver picks, as in the paper's runs with m = 1.
func highExec(execs *int) summary.Exec {
	ref := microgridExec(new(int))
	return func(f *spec.Func, args []spec.Value) (spec.Value, error) {
		*execs++
		if f.Name == "INTGR" {
			if v, ok := table3.Lookup(f.Name, args); ok {
				return v, nil
			}
			s := new(big.Int).Add(new(big.Int).Abs(args[0].Int), new(big.Int).Abs(args[1].Int))
			return spec.IntValue(s.Add(s, big.NewInt(201))), nil
		}
		return ref(f, args)
	}
}

// table3 is Table 3 of the paper, the tables of its Table 4.
var table3 = func() summary.Tab {
	i := func(n int64) spec.Value { return spec.IntValue(big.NewInt(n)) }
	r := func(a, b int64) spec.Value { return spec.RatValue(big.NewRat(a, b)) }
	row := func(res spec.Value, args ...spec.Value) spec.TableRow { return spec.TableRow{Args: args, Result: res} }
	return summary.Tab{
		"INTGR": {row(i(0), i(0), i(0)), row(i(30), i(12), i(18)), row(i(228), i(123), i(96)), row(i(300), i(148), i(141))},
		"RISE":  {row(r(7, 10), i(202)), row(r(97, 100), i(228)), row(r(242, 100), i(300))},
	}
}()

// microgrid runs the symbolic execution of the microgrid (8 transitions
// t1..t8, Table 1 inline) at height 15 without quiescence, as the paper
// does, and returns the tree and its executor.
func microgrid(t testing.TB, z *solver.Context, opts Options) (*Tree, *Executor) {
	t.Helper()
	opts.Depth, opts.NoDelta = 15, true
	e, err := NewExecutor(z, loadSpec(t, "microgrid-flat.yaml"), opts)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := e.Execute(nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Stats.Undecided > 0 {
		t.Errorf("%d undecided nodes", tr.Stats.Undecided)
	}
	return tr, e
}

func summaries(m int, exec summary.Exec) Options {
	return Options{Functions: Summaries, Summary: summary.Options{M: m, Exec: exec}}
}

// TestMicrogridStatic is the first row of Table 2: Table 1, m = 0,
// height 15 gives a linear tree of 16 states covering 5 of the 8
// transitions (62.5 %), tables unchanged (2 / 2), no execution. It does
// not depend on the order.
func TestMicrogridStatic(t *testing.T) {
	z := newContext(t)
	for _, order := range []Order{BFS, DFS} {
		execs := 0
		opts := summaries(0, microgridExec(&execs))
		opts.Order = order
		tr, e := microgrid(t, z, opts)
		if tr.Stats.Nodes != 16 || tr.Stats.LongestPath != 15 {
			t.Errorf("%s: %d states, longest path %d, want 16 and 15", order, tr.Stats.Nodes, tr.Stats.LongestPath)
		}
		for _, n := range tr.Nodes {
			if len(n.Children) > 1 {
				t.Errorf("%s: node %s has %d children: the tree is not linear", order, n.PathString(), len(n.Children))
			}
		}
		want := Coverage{Covered: 5, Total: 8, Uncovered: []string{"t5", "t7", "t8"}}
		if c := tr.Coverage; c.Covered != want.Covered || c.Total != want.Total || !slices.Equal(c.Uncovered, want.Uncovered) || c.Percent() != 62.5 {
			t.Errorf("%s: coverage %+v, want %+v", order, c, want)
		}
		if s := e.Tab().Sizes(); s["INTGR"] != 2 || s["RISE"] != 2 || execs != 0 {
			t.Errorf("%s: tables %v, %d executions", order, s, execs)
		}
	}
}

// TestMicrogridEnrichment: m = 1 learns RISE(228) = 0.97 (RISE has 3
// rows) and covers t5, "ok after RISE". With the reference
// implementation the solver's first inputs for I <= 200 already
// integrate to at most 200, so the smallest m reaching 100 % is
// reported, and the coverage is checked to grow with m up to it.
func TestMicrogridEnrichment(t *testing.T) {
	z := newContext(t)
	smallest := -1
	for m := 1; m <= 4 && smallest < 0; m++ {
		execs := 0
		tr, e := microgrid(t, z, summaries(m, microgridExec(&execs)))
		rise := e.Tab()["RISE"]
		if len(rise) != 3 || !rise[2].Args[0].Equal(spec.IntValue(big.NewInt(228))) || rise[2].Result.String() != "0.97" {
			t.Errorf("m = %d: RISE rows %v, want Table 1's and 228 -> 0.97", m, rise)
		}
		if slices.Contains(tr.Coverage.Uncovered, "t5") || tr.Coverage.Covered < 6 {
			t.Errorf("m = %d: coverage %+v, want t5 covered", m, tr.Coverage)
		}
		checkGrowth(t, e)
		t.Logf("m = %d: %d states, coverage %d/%d, INTGR %d rows, RISE %d rows, %d executions",
			m, tr.Stats.Nodes, tr.Coverage.Covered, tr.Coverage.Total, len(e.Tab()["INTGR"]), len(rise), execs)
		if tr.Coverage.Covered == 8 {
			smallest = m
		}
	}
	if smallest < 0 {
		t.Fatal("no m <= 4 reaches 100 %")
	}
	t.Logf("smallest m reaching 100 %%: %d", smallest)
}

// TestMicrogridHighIntegrator is the second row of Table 2 with an
// implementation whose integration never falls to 200 outside the
// tables: m = 1 covers 6/8 (75 %), RISE gets 3 rows, and the two
// transitions behind I <= 200 stay uncovered for every m, each failed
// attempt adding exactly one INTGR row.
func TestMicrogridHighIntegrator(t *testing.T) {
	z := newContext(t)
	for _, m := range []int{1, 3} {
		execs := 0
		tr, e := microgrid(t, z, summaries(m, highExec(&execs)))
		if c := tr.Coverage; c.Covered != 6 || !slices.Equal(c.Uncovered, []string{"t7", "t8"}) || c.Percent() != 75 {
			t.Errorf("m = %d: coverage %+v, want 6/8 without t7, t8", m, c)
		}
		if n := len(e.Tab()["RISE"]); n != 3 {
			t.Errorf("m = %d: RISE has %d rows, want 3", m, n)
		}
		s := checkGrowth(t, e)
		t.Logf("m = %d: %d states, INTGR %d rows, %+v", m, tr.Stats.Nodes, len(e.Tab()["INTGR"]), s)
	}
}

// checkGrowth checks that the tables grew by the rows SolveTab added,
// at least one per attempt (NoCorres: some call has new inputs).
func checkGrowth(t *testing.T, e *Executor) SolveStats {
	t.Helper()
	s := e.SolveStats()
	sz := e.Tab().Sizes()
	if grown := sz["INTGR"] + sz["RISE"] - 4; grown != s.Added || s.Added < s.Attempts || s.Added > s.Execs {
		t.Errorf("tables %v after %+v", sz, s)
	}
	return s
}

// TestMicrogridTable3 is Table 4: with Table 3, m = 0 covers every
// transition, the tables stay 4 / 3 and no implementation is called.
func TestMicrogridTable3(t *testing.T) {
	z := newContext(t)
	fail := func(f *spec.Func, args []spec.Value) (spec.Value, error) {
		t.Errorf("%s(%s) executed", f.Name, summary.ValuesString(args))
		return spec.Value{}, nil
	}
	opts := summaries(0, fail)
	opts.Tables = table3
	tr, e := microgrid(t, z, opts)
	if tr.Coverage.Covered != 8 || len(tr.Coverage.Uncovered) != 0 {
		t.Errorf("coverage %+v, want 8/8", tr.Coverage)
	}
	if s := e.Tab().Sizes(); s["INTGR"] != 4 || s["RISE"] != 3 {
		t.Errorf("tables %v, want 4 / 3", s)
	}
	if len(table3["INTGR"]) != 4 {
		t.Error("the executor changed the tables it was given")
	}
	t.Logf("Table 3, m = 0: %d states", tr.Stats.Nodes)
}

// TestMicrogridUninterpreted is the baseline: results are free, every
// branch is feasible, and there are no tables.
func TestMicrogridUninterpreted(t *testing.T) {
	z := newContext(t)
	tr, e := microgrid(t, z, Options{})
	if tr.Coverage.Covered != 8 || e.Tab() != nil {
		t.Errorf("coverage %+v, tables %v", tr.Coverage, e.Tab())
	}
	for _, n := range tr.Nodes {
		if len(n.State.Calls) > 0 {
			t.Fatalf("uninterpreted node %s has call records", n.PathString())
		}
	}
	t.Logf("uninterpreted: %d states", tr.Stats.Nodes)
}

// TestSummariesCallRecords: along a path the records accumulate
// innermost first, the fresh variables never clash with symbols, and
// the path condition and variables hold no call.
func TestSummariesCallRecords(t *testing.T) {
	z := newContext(t)
	tr, _ := microgrid(t, z, summaries(0, nil))
	last := tr.Nodes[len(tr.Nodes)-1]
	if got := len(last.State.Calls); got != 4 { // two cycles: INTGR, RISE twice, then t1, t2, t2
		t.Errorf("%d records at the leaf %s, want 4", got, last.PathString())
	}
	names := map[string]bool{}
	for _, cl := range last.State.Calls {
		if names[cl.X.Name] || !summary.IsFresh(cl.X) || !IsSymbol(cl.X) {
			t.Errorf("record %s: fresh variable %s", cl, cl.X.Name)
		}
		names[cl.X.Name] = true
	}
	for _, n := range tr.Nodes {
		bad := hasCall(n.State.PC)
		for _, v := range n.State.Vars {
			bad = bad || hasCall(v)
		}
		if bad {
			t.Errorf("node %s keeps a call: %s", n.PathString(), n.State)
		}
	}
}

func hasCall(e spec.Expr) bool {
	switch e := e.(type) {
	case *spec.Call:
		return true
	case *spec.Unary:
		return hasCall(e.X)
	case *spec.Binary:
		return hasCall(e.X) || hasCall(e.Y)
	case *spec.Cond:
		return hasCall(e.If) || hasCall(e.Then) || hasCall(e.Else)
	}
	return false
}

// TestSummariesErrors: an implementation failure stops the execution
// with the function and the inputs; inclusion is refused.
func TestSummariesErrors(t *testing.T) {
	z := newContext(t)
	broken := func(f *spec.Func, args []spec.Value) (spec.Value, error) {
		return spec.Value{}, &spec.EvalError{Expr: spec.True(), Msg: "implementation timed out after 5s"}
	}
	e, err := NewExecutor(z, loadSpec(t, "microgrid-flat.yaml"), Options{Depth: 15, NoDelta: true, Functions: Summaries, Summary: summary.Options{M: 1, Exec: broken}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Execute(nil)
	if err == nil || !strings.Contains(err.Error(), "INTGR(") || !strings.Contains(err.Error(), "timed out") || !strings.Contains(err.Error(), "microgrid-flat.yaml:") {
		t.Errorf("error %v", err)
	}
	if _, err := NewExecutor(z, loadSpec(t, "microgrid-flat.yaml"), Options{Inclusion: true, Functions: Summaries}); err == nil {
		t.Error("inclusion accepted with summaries")
	}
	if _, err := NewExecutor(z, loadSpec(t, "microgrid-flat.yaml"), Options{Depth: 2, Functions: Summaries, Summary: summary.Options{M: -1}}); err == nil {
		t.Error("negative m accepted")
	}
}

// TestSummariesWithoutFunctions: on a spec without functions, summaries
// and the default give the same tree.
func TestSummariesWithoutFunctions(t *testing.T) {
	z := newContext(t)
	m := loadSpec(t, "atm-paper.yaml")
	a := execute(t, z, m, Options{Depth: 4})
	b := execute(t, z, m, Options{Depth: 4, Functions: Summaries})
	if a.Stats.Nodes != b.Stats.Nodes || a.Coverage.Covered != b.Coverage.Covered {
		t.Errorf("default %+v %+v, summaries %+v %+v", a.Stats, a.Coverage, b.Stats, b.Coverage)
	}
	c := execute(t, z, m, Options{Depth: 4, Order: DFS})
	if c.Stats.Nodes != a.Stats.Nodes {
		t.Errorf("dfs %d nodes, bfs %d", c.Stats.Nodes, a.Stats.Nodes)
	}
}

// microgridExample loads examples/microgrid with the tables file tables
// ("": the spec's, Table 1).
func microgridExample(t testing.TB, tables string) *spec.Model {
	t.Helper()
	m, err := spec.LoadFile("../examples/microgrid/spec.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if tables != "" {
		if err := spec.LoadTables("../examples/microgrid/"+tables, m); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// TestMicrogridExample checks the rows of Tables 2 and 4 on
// examples/microgrid itself (Value a [2]int array), with its reference
// implementation in process.
func TestMicrogridExample(t *testing.T) {
	z := newContext(t)
	for _, c := range []struct {
		tables        string
		m             int
		states        int // 0: only reported
		covered       int
		intgr, rise   int
		uncovered     []string
		noExec        bool
		riseLearns228 bool
	}{
		{tables: "", m: 0, states: 16, covered: 5, intgr: 2, rise: 2, uncovered: []string{"t5", "t7", "t8"}, noExec: true},
		{tables: "", m: 1, covered: 8, rise: 3, uncovered: []string{}, riseLearns228: true},
		{tables: "tables-3.yaml", m: 0, states: 64, covered: 8, intgr: 4, rise: 3, uncovered: []string{}, noExec: true},
	} {
		execs := 0
		e, err := NewExecutor(z, microgridExample(t, c.tables), Options{Depth: 15, NoDelta: true, Functions: Summaries,
			Summary: summary.Options{M: c.m, Exec: microgridExec(&execs)}})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := e.Execute(nil)
		if err != nil {
			t.Fatal(err)
		}
		sz := e.Tab().Sizes()
		name := fmt.Sprintf("%s m=%d", c.tables, c.m)
		t.Logf("%s: %d states, coverage %d/%d, INTGR %d, RISE %d, %d executions", name, tr.Stats.Nodes, tr.Coverage.Covered, tr.Coverage.Total, sz["INTGR"], sz["RISE"], execs)
		if c.states != 0 && tr.Stats.Nodes != c.states {
			t.Errorf("%s: %d states, want %d", name, tr.Stats.Nodes, c.states)
		}
		if tr.Coverage.Covered != c.covered || tr.Coverage.Total != 8 || !slices.Equal(tr.Coverage.Uncovered, c.uncovered) {
			t.Errorf("%s: coverage %+v", name, tr.Coverage)
		}
		if (c.intgr != 0 && sz["INTGR"] != c.intgr) || sz["RISE"] != c.rise {
			t.Errorf("%s: tables %v", name, sz)
		}
		if c.noExec && execs != 0 {
			t.Errorf("%s: %d executions", name, execs)
		}
		if c.riseLearns228 {
			if v, ok := e.Tab().Lookup("RISE", []spec.Value{spec.IntValue(big.NewInt(228))}); !ok || v.String() != "0.97" {
				t.Errorf("%s: RISE(228) not learned", name)
			}
		}
	}
}
