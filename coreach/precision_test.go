package coreach_test

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

var table = flag.Bool("table", false, "rewrite the precision table of README.md")

// sendKey identifies the sends of a test case across domains: product
// locations and actions are the same whatever the analysis.
type sendKey struct{ from, action, to string }

// sends returns the disjunction of the guards of the sends of tc leaving
// for a location other than a verdict, by key.
func sends(tc *spec.Model) map[sendKey]expr.Expr {
	m := map[sendKey][]expr.Expr{}
	for _, tr := range tc.Transitions {
		if tc.Action(tr.Action).Dir != spec.Send || tr.To == "Fail" || tr.To == "Inconc" {
			continue
		}
		k := sendKey{tr.From, tr.Action, tr.To}
		m[k] = append(m[k], tr.Guard)
	}
	r := map[sendKey]expr.Expr{}
	for k, gs := range m {
		r[k] = expr.OrOf(gs...)
	}
	return r
}

// pruned compares the sends of a coarse and a fine test case: a send of
// the coarse one is dropped when the fine one has none with its key, and
// strengthened when, in some state of reach(from) of the fine analysis,
// the coarse guard allows a value that the fine one refuses.
func pruned(t *testing.T, ctx *solver.Context, coarse, fine *pipeline.Result) (dropped, strengthened []sendKey) {
	t.Helper()
	fs := sends(fine.Testcase)
	for k, g := range sends(coarse.Testcase) {
		h, ok := fs[k]
		if !ok {
			dropped = append(dropped, k)
			continue
		}
		r, err := ctx.Sat(expr.AndOf(fine.Analysis.ReachOf(k.from), g, expr.NotOf(h)))
		if err != nil {
			t.Fatal(err)
		}
		if r != solver.Unsat {
			strengthened = append(strengthened, k)
		}
	}
	sortKeys(dropped)
	sortKeys(strengthened)
	return dropped, strengthened
}

func sortKeys(ks []sendKey) {
	sort.Slice(ks, func(i, j int) bool {
		return fmt.Sprint(ks[i]) < fmt.Sprint(ks[j])
	})
}

// inconcs returns the guards of the receives into Inconc, by source and
// action.
func inconcs(tc *spec.Model) map[sendKey]expr.Expr {
	m := map[sendKey][]expr.Expr{}
	for _, tr := range tc.Transitions {
		if tr.To == "Inconc" {
			k := sendKey{tr.From, tr.Action, tr.To}
			m[k] = append(m[k], tr.Guard)
		}
	}
	r := map[sendKey]expr.Expr{}
	for k, gs := range m {
		r[k] = expr.OrOf(gs...)
	}
	return r
}

func sortedKeys(m map[sendKey]expr.Expr) []sendKey {
	var ks []sendKey
	for k := range m {
		ks = append(ks, k)
	}
	sortKeys(ks)
	return ks
}

func count(tc *spec.Model, to string) int {
	n := 0
	for _, tr := range tc.Transitions {
		if tr.To == to {
			n++
		}
	}
	return n
}

// TestPrecisionTable prints, for every example and domain, the size of
// the test case, the sends pruned relative to the domain "none", the
// Inconc transitions, and whether a run (of a correct SUT) can still
// reach Pass; then the sends that polyhedra prune and intervals do not.
// A measurement, left out of the default run (pipeline's TestProperties
// checks that Pass stays reachable, in every domain in turn): STG_LONG=1
// and -table, which rewrites the table in README.md, measure every
// purpose of every example.
func TestPrecisionTable(t *testing.T) {
	if testing.Short() {
		t.Skip("a measurement: skipped in short mode")
	}
	if !*table {
		testlong.Skip(t)
	}
	ctx := newContext(t)
	var tab, diff strings.Builder
	tab.WriteString("| example | domain | transitions | sends dropped | sends strengthened | Inconc | Pass reachable |\n")
	tab.WriteString("|---|---|---:|---:|---:|---:|---|\n")
	exs := someExamples(t)
	if *table {
		exs = examples(t)
	}
	for _, ex := range exs {
		s, err := specfile.LoadFile(ex.Spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		tp, err := specfile.LoadFile(ex.Purpose, s)
		if err != nil {
			t.Fatal(err)
		}
		res := map[string]*pipeline.Result{}
		for _, dom := range []string{"none", "interval", "polyhedra"} {
			r, err := pipeline.Models(ctx, s, tp, pipeline.Options{Domain: dom})
			if err != nil {
				t.Fatalf("%s/%s: %v", ex.Name, dom, err)
			}
			res[dom] = r
			tc := r.Testcase
			dropped, strengthened := pruned(t, ctx, res["none"], r)
			pass := passReachable(t, ctx, tc, 12)
			if !pass {
				t.Errorf("%s/%s: Pass unreachable within 12 steps", ex.Name, dom)
			}
			fmt.Fprintf(&tab, "| %s | %s | %d | %d | %d | %d | %v |\n",
				ex.Name, dom, len(tc.Transitions), len(dropped), len(strengthened), count(tc, "Inconc"), pass)
		}
		// Where polyhedra prune what intervals cannot: sends, then Inconc.
		dropped, strengthened := pruned(t, ctx, res["interval"], res["polyhedra"])
		itv, poly := sends(res["interval"].Testcase), sends(res["polyhedra"].Testcase)
		for _, k := range dropped {
			fmt.Fprintf(&diff, "- %s: `%s -%s-> %s` interval `[%s]`, polyhedra: dropped\n", ex.Name, k.from, k.action, k.to, expr.Format(itv[k]))
		}
		for _, k := range strengthened {
			fmt.Fprintf(&diff, "- %s: `%s -%s-> %s` interval `[%s]`, polyhedra `[%s]`\n", ex.Name, k.from, k.action, k.to, expr.Format(itv[k]), expr.Format(poly[k]))
		}
		ii, ip := inconcs(res["interval"].Testcase), inconcs(res["polyhedra"].Testcase)
		for _, k := range sortedKeys(ip) {
			g, ok := ii[k]
			if !ok {
				g = expr.False()
			}
			r, err := ctx.Sat(expr.AndOf(res["polyhedra"].Analysis.ReachOf(k.from), ip[k], expr.NotOf(g)))
			if err != nil {
				t.Fatal(err)
			}
			if r != solver.Unsat {
				fmt.Fprintf(&diff, "- %s: `%s -%s-> Inconc` interval `[%s]`, polyhedra `[%s]`\n", ex.Name, k.from, k.action, expr.Format(g), expr.Format(ip[k]))
			}
		}
	}
	out := tab.String() + "\nWhere polyhedra prune what intervals cannot (sends strengthened or dropped, receives sent to Inconc; guards as written in the test cases):\n\n" + diff.String()
	t.Logf("\n%s", out)
	if *table {
		writeTable(t, "README.md", out)
	}
}

// writeTable replaces the text between the table markers of a file.
func writeTable(t *testing.T, file, text string) {
	const begin, end = "<!-- precision table: begin -->\n", "<!-- precision table: end -->"
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no table markers", file)
	}
	s = s[:i+len(begin)] + text + s[j:]
	if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// passReachable searches the symbolic runs of tc of at most depth steps
// for a feasible one ending in Pass (bounded model checking with Z3), as
// pipeline's test does.
func passReachable(t *testing.T, ctx *solver.Context, tc *spec.Model, depth int) bool {
	t.Helper()
	var dfs func(loc string, step int, path expr.Expr) bool
	dfs = func(loc string, i int, path expr.Expr) bool {
		if loc == "Pass" {
			return true
		}
		if i == depth || tc.Verdict(loc) != "" {
			return false
		}
		for _, tr := range tc.Outgoing(loc) {
			next := []expr.Expr{path, at(tr.Guard, i)}
			for _, v := range tc.Variables {
				next = append(next, expr.Compare(expr.Eq, at(expr.VarRef(v.Name, v.Type), i+1), at(tr.AssignedValue(v), i)))
			}
			p := expr.AndOf(next...)
			r, err := ctx.Sat(p)
			if err != nil {
				t.Fatal(err)
			}
			if r != solver.Unsat && dfs(tr.To, i+1, p) {
				return true
			}
		}
		return false
	}
	return dfs(tc.Initial.Location, 0, tc.Initial.Condition)
}
