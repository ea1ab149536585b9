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
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/summary"
)

// microgridExec is the reference implementation of examples/microgrid
// (package funcs), in process: Table 3's rows, else INTGR([a, b]) = 195
// + ((31a + 17b) mod 97), at most 200 for 6 residues in 97, and RISE(I)
// = I/1000. It counts its calls in execs.
func microgridExec(execs *int) summary.Exec {
	return func(f *expr.Func, args []expr.Value) (expr.Value, error) {
		*execs++
		if f.Name == "INTGR" {
			return funcs.INTGR(args)
		}
		return funcs.RISE(args)
	}
}

// table3 is Table 3 of the paper, the tables of its Table 4.
var table3 = func() summary.Tab {
	i := func(n int64) expr.Value { return expr.IntValue(big.NewInt(n)) }
	r := func(a, b int64) expr.Value { return expr.RatValue(big.NewRat(a, b)) }
	row := func(res expr.Value, args ...expr.Value) expr.TableRow { return expr.TableRow{Args: args, Result: res} }
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

// perCall is summaries with SolveTab's per-call queries first
// (summary.Options.PerCall), under which the figures of the README's
// earlier table were measured.
func perCall(m int, exec summary.Exec) Options {
	o := summaries(m, exec)
	o.Summary.PerCall = true
	return o
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

// microgridSmallestM is the smallest m reaching 100 % with Table 1, the
// reference implementation and SolveTab's per-call queries
// (summary.Options.PerCall): the second input pair Z3 proposes for
// I <= 200 integrates to at most 200 (the paper, with its own INTGR and
// solver, needed 196).
const microgridSmallestM = 2

// TestMicrogridEnrichment is the second and third rows of Table 2 on
// the flat model: m = 1 learns one RISE row (3 rows) and covers t5, "ok
// after RISE", but not the branch I <= 200 (6/8, 75 %); every m below
// microgridSmallestM stays below 100 %, which it reaches. The tables grow
// by the rows SolveTab added.
func TestMicrogridEnrichment(t *testing.T) {
	for m := 1; m <= microgridSmallestM; m++ {
		execs := 0
		tr, e := microgrid(t, newContext(t), perCall(m, microgridExec(&execs))) // fresh: see microgridRun
		checkEnriched(t, fmt.Sprintf("m = %d", m), tr, e, m == microgridSmallestM)
		s := checkGrowth(t, e)
		t.Logf("m = %d: %d states, coverage %d/%d, INTGR %d rows, RISE %d rows, %+v",
			m, tr.Stats.Nodes, tr.Coverage.Covered, tr.Coverage.Total, len(e.Tab()["INTGR"]), len(e.Tab()["RISE"]), s)
	}
}

// checkEnriched checks a tree of Table 1 with m >= 1: RISE has learned
// exactly one row, with r <= 1 (t5 covered), and the coverage is 8/8
// when full, else 6/8 = 75 % without t7 and t8 (the branch I <= 200).
func checkEnriched(t *testing.T, name string, tr *Tree, e *Executor, full bool) {
	t.Helper()
	rise := e.Tab()["RISE"]
	if len(rise) != 3 || rise[2].Result.Rat.Cmp(big.NewRat(1, 1)) > 0 {
		t.Errorf("%s: RISE rows %v, want Table 1's and one with r <= 1", name, rise)
	}
	want := Coverage{Covered: 6, Total: 8, Uncovered: []string{"t7", "t8"}}
	if full {
		want = Coverage{Covered: 8, Total: 8}
	}
	if c := tr.Coverage; c.Covered != want.Covered || c.Total != want.Total || len(c.Uncovered) != len(want.Uncovered) ||
		!slices.Equal(c.Uncovered, want.Uncovered) {
		t.Errorf("%s: coverage %+v, want %+v", name, c, want)
	}
	if !full && tr.Coverage.Percent() != 75 {
		t.Errorf("%s: coverage %v %%, want 75 %%", name, tr.Coverage.Percent())
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
	fail := func(f *expr.Func, args []expr.Value) (expr.Value, error) {
		t.Errorf("%s(%s) executed", f.Name, summary.ValuesString(args))
		return expr.Value{}, nil
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

func hasCall(e expr.Expr) bool {
	switch e := e.(type) {
	case *expr.Call:
		return true
	case *expr.Unary:
		return hasCall(e.X)
	case *expr.Binary:
		return hasCall(e.X) || hasCall(e.Y)
	case *expr.Cond:
		return hasCall(e.If) || hasCall(e.Then) || hasCall(e.Else)
	}
	return false
}

// TestSummariesErrors: an implementation failure stops the execution
// with the function and the inputs; inclusion is refused.
func TestSummariesErrors(t *testing.T) {
	z := newContext(t)
	broken := func(f *expr.Func, args []expr.Value) (expr.Value, error) {
		return expr.Value{}, &expr.EvalError{Expr: expr.True(), Msg: "implementation timed out after 5s"}
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
	m, err := specfile.LoadFile("../examples/microgrid/spec.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if tables != "" {
		if err := specfile.LoadTables("../examples/microgrid/"+tables, m); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// microgridRun builds the tree of examples/microgrid at height 15
// without quiescence with the tables file tables ("": Table 1), bound m
// and the reference implementation in process, counting its calls. Each
// tree gets a fresh solver context, as each stg symex does: the inputs
// SolveTab executes are Z3's choices, which a context's earlier queries
// (its memo) may change.
func microgridRun(t *testing.T, tables string, m int, f Functions) (*Tree, *Executor, int) {
	return microgridRunWith(t, tables, f, summary.Options{M: m, PerCall: true})
}

// microgridRunWith is microgridRun with SolveTab's options (Exec is the
// reference implementation).
func microgridRunWith(t *testing.T, tables string, f Functions, so summary.Options) (*Tree, *Executor, int) {
	t.Helper()
	z := newContext(t)
	execs := 0
	m := so.M
	so.Exec = microgridExec(&execs)
	e, err := NewExecutor(z, microgridExample(t, tables), Options{Depth: 15, NoDelta: true, Functions: f, Summary: so})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := e.Execute(nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Stats.Undecided > 0 {
		t.Errorf("%s m=%d: %d undecided nodes", tables, m, tr.Stats.Undecided)
	}
	sz, name := e.Tab().Sizes(), tables
	if name == "" {
		name = "tables-1.yaml"
	}
	t.Logf("%s m=%d %s: %d states, coverage %d/%d %v, INTGR %d, RISE %d, %d executions", name, m, f, tr.Stats.Nodes,
		tr.Coverage.Covered, tr.Coverage.Total, tr.Coverage.Uncovered, sz["INTGR"], sz["RISE"], execs)
	return tr, e, execs
}

// TestMicrogridExample checks the hard rows of Tables 2 and 4 on
// examples/microgrid itself (Value a [2]int array), with its reference
// implementation in process: Table 1, m = 0: 16 states, 5/8, tables
// 2 / 2, no execution; m = 1: 6/8 (75 %), RISE 3 rows; every m below
// microgridSmallestM stays below 100 %, which it reaches; Table 3, m =
// 0: 8/8, tables 4 / 3, no execution; and the uninterpreted baseline,
// 8/8 with no tables. The state counts of Table 3 and of the baseline
// (64, the paper 120) are those of our reconstructed shape.
func TestMicrogridExample(t *testing.T) {
	tr, e, execs := microgridRun(t, "", 0, Summaries)
	want := Coverage{Covered: 5, Total: 8, Uncovered: []string{"t5", "t7", "t8"}}
	if c := tr.Coverage; tr.Stats.Nodes != 16 || c.Covered != 5 || c.Total != 8 || !slices.Equal(c.Uncovered, want.Uncovered) || c.Percent() != 62.5 {
		t.Errorf("Table 1, m = 0: %d states, coverage %+v, want 16 and %+v", tr.Stats.Nodes, c, want)
	}
	if sz := e.Tab().Sizes(); sz["INTGR"] != 2 || sz["RISE"] != 2 || execs != 0 {
		t.Errorf("Table 1, m = 0: tables %v, %d executions", sz, execs)
	}
	for m := 1; m <= microgridSmallestM; m++ {
		tr, e, _ := microgridRun(t, "", m, Summaries)
		checkEnriched(t, fmt.Sprintf("Table 1, m = %d", m), tr, e, m == microgridSmallestM)
	}
	tr, e, execs = microgridRun(t, "tables-3.yaml", 0, Summaries)
	if c := tr.Coverage; tr.Stats.Nodes != 64 || c.Covered != 8 || c.Total != 8 || len(c.Uncovered) != 0 {
		t.Errorf("Table 3, m = 0: %d states, coverage %+v, want 64 and 8/8", tr.Stats.Nodes, c)
	}
	if sz := e.Tab().Sizes(); sz["INTGR"] != 4 || sz["RISE"] != 3 || execs != 0 {
		t.Errorf("Table 3, m = 0: tables %v, %d executions", sz, execs)
	}
	tr, e, execs = microgridRun(t, "", 0, Uninterpreted)
	if c := tr.Coverage; tr.Stats.Nodes != 64 || c.Covered != 8 || e.Tab() != nil || execs != 0 {
		t.Errorf("uninterpreted: %d states, coverage %+v, tables %v, %d executions", tr.Stats.Nodes, c, e.Tab(), execs)
	}
}

// TestMicrogridDepAblation: with SolveTab as Algorithm 1 (the default),
// leaving Dep out (NoDep) changes the m = 1 and m = 2 rows of Table 2 on
// examples/microgrid: without Dep, RISE is executed on inputs INTGR's
// table cannot produce, and the tree loses states and coverage.
func TestMicrogridDepAblation(t *testing.T) {
	for m := 1; m <= 2; m++ {
		var rows [2]string
		for i, noDep := range []bool{false, true} {
			tr, e, _ := microgridRunWith(t, "", Summaries, summary.Options{M: m, NoDep: noDep})
			sz := e.Tab().Sizes()
			rows[i] = fmt.Sprintf("%d states, %d/8, INTGR %d, RISE %d", tr.Stats.Nodes, tr.Coverage.Covered, sz["INTGR"], sz["RISE"])
			checkSolutions(t, e, tr)
		}
		if rows[0] == rows[1] {
			t.Errorf("m = %d: Dep and NoDep give the same row: %s", m, rows[0])
		}
	}
}

// checkSolutions checks every node's solution: it satisfies the node's
// path condition, and each call record's inputs and result are a row of
// the tables (the paper's Sol, within Sums(κ, Tab)).
func checkSolutions(t *testing.T, e *Executor, tr *Tree) {
	t.Helper()
	for _, n := range tr.Nodes {
		if n.Sol == nil {
			t.Errorf("%s: no solution", n.PathString())
			continue
		}
		if ok, err := expr.EvalBool(n.State.PC, *n.Sol); err != nil || !ok {
			t.Errorf("%s: the solution %v does not satisfy %s (%v)", n.PathString(), n.Sol.Vars, expr.Format(n.State.PC), err)
		}
		for _, cl := range n.State.Calls {
			args := make([]expr.Value, len(cl.Args))
			for i, a := range cl.Args {
				v, err := expr.Eval(a, *n.Sol)
				if err != nil {
					t.Fatal(err)
				}
				args[i] = v
			}
			want, ok := e.Tab().Lookup(cl.Func.Name, args)
			if got := n.Sol.Vars[cl.X.Name]; !ok || !got.Equal(want) {
				t.Errorf("%s: %s(%s) = %s in the solution, the table has %s (%v)", n.PathString(), cl.Func.Name, summary.ValuesString(args), got, want, ok)
			}
		}
		for s := n; s.Parent != nil; s = s.Parent {
			if _, ok := n.StepValues(s); !ok && len(s.Args) > 0 {
				t.Errorf("%s: no values for step %s", n.PathString(), s.Label())
			}
		}
	}
}

// TestMicrogridNoImplementation: with m > 0 and no implementation, each
// node that needs a new row counts as "no new inputs": the unfolding
// goes on and gives the static tree (16 states, 5/8), no error.
func TestMicrogridNoImplementation(t *testing.T) {
	z := newContext(t)
	tr, e := microgrid(t, z, summaries(3, nil))
	if tr.Stats.Nodes != 16 || tr.Coverage.Covered != 5 || e.SolveStats().Added != 0 || e.SolveStats().Attempts == 0 {
		t.Errorf("%d states, coverage %+v, %+v", tr.Stats.Nodes, tr.Coverage, e.SolveStats())
	}
}
