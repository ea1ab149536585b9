package pipeline

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/selection"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

const microgrid = "../examples/microgrid/"

// TestTablesDecideMicrogrid: on the microgrid with Table 1, a purpose
// that measures [148, 141] gets a test case whose only Pass is the alarm
// (INTGR = 300, RISE(300) = 2.42 > 1): the low answer t8 is decided
// impossible by the rows. With --functions uninterpreted the low answer
// leads to Pass too. A purpose that wants ok after [148, 141] is
// unreachable with the tables, and selected without.
func TestTablesDecideMicrogrid(t *testing.T) {
	passes := func(res *Result) map[string]bool {
		names := map[string]bool{}
		for _, tr := range res.Testcase.Transitions {
			if tr.To == selection.Pass {
				names[tr.Name] = true
			}
		}
		return names
	}
	tab, err := Generate(microgrid+"spec.yaml", microgrid+"testdata/purpose-300.yaml", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Facts != 4 {
		t.Errorf("%d facts, want the 4 rows of Table 1", tab.Facts)
	}
	uni, err := Generate(microgrid+"spec.yaml", microgrid+"testdata/purpose-300.yaml", Options{Functions: Uninterpreted})
	if err != nil {
		t.Fatal(err)
	}
	if uni.Facts != 0 {
		t.Errorf("uninterpreted: %d facts, want 0", uni.Facts)
	}
	if p := passes(tab); !p["t5"] || p["t8"] {
		t.Errorf("with the tables, Pass is reached by %v, want t5 (the alarm) only:\n%s", p, marshal(tab.Testcase))
	}
	// The guard to Pass reads as decided: the alarm, RISE's and INTGR's
	// comparisons implied by the rows.
	for _, tr := range tab.Testcase.Transitions {
		if g := expr.Format(tr.Guard); tr.To == selection.Pass && (strings.Contains(g, "msg == ok") || strings.Contains(g, "> 200") || !strings.Contains(g, "msg == alarm")) {
			t.Errorf("the guard to Pass is not decided by the tables: %s", g)
		}
	}
	// The test case is well-formed under the rows it carries (stg check
	// and stg run assume them).
	ctx := newContext(t)
	if err := ctx.SetFacts(tableFactsOf(t, tab.Testcase)); err != nil {
		t.Fatal(err)
	}
	checkDeterministic(t, ctx, tab.Testcase)
	checkReceiveComplete(t, ctx, tab.Testcase)
	if p := passes(uni); !p["t5"] || !p["t8"] {
		t.Errorf("uninterpreted, Pass is reached by %v, want t5 and t8", p)
	}

	_, err = Generate(microgrid+"spec.yaml", microgrid+"testdata/purpose-300-ok.yaml", Options{})
	var ue *selection.UnreachableError
	if !errors.As(err, &ue) {
		t.Errorf("ok after [148, 141] with Table 1: %v, want Accept unreachable", err)
	}
	if _, err := Generate(microgrid+"spec.yaml", microgrid+"testdata/purpose-300-ok.yaml", Options{Functions: Uninterpreted}); err != nil {
		t.Errorf("ok after [148, 141], uninterpreted: %v", err)
	}
	// Options.Tables replaces the spec's tables: Table 3 has 7 rows.
	t3, err := Generate(microgrid+"spec.yaml", microgrid+"testdata/purpose-300.yaml", Options{Tables: microgrid + "tables-3.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if t3.Facts != 7 {
		t.Errorf("--tables tables-3.yaml: %d facts, want 7", t3.Facts)
	}
	if rows := len(t3.Testcase.Func("INTGR").Table); rows != 4 {
		t.Errorf("the test case carries %d INTGR rows, want Table 3's 4", rows)
	}
}

// TestTablesErrors: a tables file that does not fit the spec is an
// error with its position.
func TestTablesErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("kind: tables\nfunctions:\n  RISE: [[202, 0.7], [202, 0.8]]\n"), 0o644)
	_, err := Generate(microgrid+"spec.yaml", microgrid+"testdata/purpose-300.yaml", Options{Tables: bad})
	if err == nil || !strings.Contains(err.Error(), bad+":3:") {
		t.Errorf("two results for RISE(202): %v, want an error at %s:3", err, bad)
	}
	_, err = Generate(microgrid+"spec.yaml", microgrid+"testdata/purpose-300.yaml", Options{Tables: bad + ".missing"})
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a missing tables file: %v", err)
	}
}

// TestTablesRandomSound generates random small specs calling a tabled
// function F, selects a test case with the tables as facts (and one
// without), checks with Z3 under the tables that every Fail of the test
// case is an output the spec forbids and that the test case is
// deterministic and complete for receives, and plays both against in-process
// SUTs: the spec run with an F that agrees with the table and is random
// elsewhere. A conformant SUT never gets Fail. The tables must change
// some test cases; where they make Accept unreachable, no run of the
// uninterpreted test case passes.
func TestTablesRandomSound(t *testing.T) {
	const nspecs, runs = 60, 25
	r := rand.New(rand.NewSource(3))
	dir := t.TempDir()
	oracle := newContext(t)
	var stats [2]simStats
	var generated [2]int
	changed, decided := 0, 0
	for i := 0; i < nspecs; i++ {
		src, purpose := randomTabledSpec(r, i)
		sp, pp := filepath.Join(dir, fmt.Sprintf("s%d.yaml", i)), filepath.Join(dir, fmt.Sprintf("p%d.yaml", i))
		os.WriteFile(sp, []byte(src), 0o644)
		os.WriteFile(pp, []byte(purpose), 0o644)
		var tcs [2]string
		var passed [2]int
		for mode, fm := range []Functions{Tables, Uninterpreted} {
			res, err := Generate(sp, pp, Options{Functions: fm})
			var ue *selection.UnreachableError
			if errors.As(err, &ue) {
				tcs[mode] = "unreachable"
				continue
			}
			if err != nil {
				t.Fatalf("spec %d (%s): %v\n%s\n%s", i, fm, err, src, purpose)
			}
			generated[mode]++
			tcs[mode] = marshal(res.Testcase)
			if err := oracle.SetFacts(tableFactsOf(t, res.Spec)); err != nil {
				t.Fatal(err)
			}
			checkFailSound(t, oracle, res)
			checkDeterministic(t, oracle, res.Testcase)
			checkReceiveComplete(t, oracle, res.Testcase)
			for k := 0; k < runs; k++ {
				st := playTabled(t, res.Spec, res.Testcase, r, 12)
				stats[mode].add(st)
				passed[mode] += st.pass
				if st.pass+st.inconc+st.open+st.unjudged == 0 {
					t.Fatalf("spec %d (%s), run %d: Fail\n%s\n%s\ntest case:\n%s", i, fm, k, src, purpose, tcs[mode])
				}
			}
		}
		if tcs[0] != tcs[1] {
			changed++
		}
		if tcs[0] == "unreachable" && tcs[1] != "unreachable" {
			decided++
			if passed[1] > 0 {
				t.Errorf("spec %d: the tables make Accept unreachable, but %d uninterpreted runs passed\n%s\n%s", i, passed[1], src, purpose)
			}
		}
	}
	t.Logf("%d random specs: with the tables %d test cases, runs %+v; uninterpreted %d, runs %+v; %d test cases changed by the tables, %d purposes decided unreachable",
		nspecs, generated[0], stats[0], generated[1], stats[1], changed, decided)
	if stats[0].pass == 0 || stats[1].pass == 0 {
		t.Errorf("no run reached Pass")
	}
	if changed < nspecs/8 {
		t.Errorf("the tables changed only %d of %d test cases", changed, nspecs)
	}
}

func tableFactsOf(t *testing.T, s *spec.Model) expr.Expr {
	reg, err := extfunc.New(s.Funcs, extfunc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return reg.TableFacts()
}

// randomTabledSpec returns a deterministic spec with 3 locations, an int
// variable x, an input in(v) and outputs hi, lo and out(y) whose guards
// and assignments call F: int -> int, which has 2 or 3 rows; and a
// purpose accepting one output, often when x is a row's input (and y
// some value). Inputs are often fixed to a row's input too, so that the
// rows decide later guards.
func randomTabledSpec(r *rand.Rand, i int) (string, string) {
	ins := r.Perm(5)[:2+r.Intn(2)]
	var rows []string
	for _, a := range ins {
		rows = append(rows, fmt.Sprintf("[%d, %d]", a, r.Intn(10)))
	}
	c := 2 + r.Intn(6)
	var b strings.Builder
	fmt.Fprintf(&b, "kind: spec\nname: tabled%d\nfunctions:\n  F: {params: [int], result: int, table: [%s]}\n", i, strings.Join(rows, ", "))
	b.WriteString("variables: {x: int}\nactions:\n  in: {dir: input, params: {v: int}}\n  hi: {dir: output}\n  lo: {dir: output}\n  out: {dir: output, params: {y: int}}\n")
	b.WriteString("locations: [L0, L1, L2]\ninitial: {location: L0, condition: x == 0}\ntransitions:\n")
	loc := func() string { return fmt.Sprintf("L%d", r.Intn(3)) }
	for l := 0; l < 3; l++ {
		if l == 0 || r.Intn(5) > 0 {
			var g string
			switch r.Intn(6) {
			case 0, 1, 2:
				g = fmt.Sprintf("v == %d", ins[r.Intn(len(ins))])
			case 3:
				g = fmt.Sprintf("v >= %d && v <= %d", r.Intn(3), 2+r.Intn(3))
			case 4:
				g = "true"
			default:
				g = fmt.Sprintf("F(v) > %d", c)
			}
			assign := []string{"{x: v}", "{x: v}", "{x: v}", "{x: F(v)}", "{x: x + v}"}[r.Intn(5)]
			fmt.Fprintf(&b, "  - {from: L%d, action: in, guard: %q, assign: %s, to: %s}\n", l, g, assign, loc())
		}
		switch r.Intn(4) {
		case 0, 1:
			fmt.Fprintf(&b, "  - {from: L%d, action: hi, guard: \"F(x) > %d\", to: %s}\n", l, c, loc())
			fmt.Fprintf(&b, "  - {from: L%d, action: lo, guard: \"F(x) <= %d\", to: %s}\n", l, c, loc())
		case 2:
			fmt.Fprintf(&b, "  - {from: L%d, action: out, guard: \"y == F(x)\", to: %s}\n", l, loc())
		}
	}
	target := []string{"hi", "lo", "out"}[r.Intn(3)]
	guard := "true"
	switch r.Intn(3) {
	case 0:
		guard = fmt.Sprintf("x == %d", ins[r.Intn(len(ins))])
	case 1:
		if target == "out" {
			guard = fmt.Sprintf("x == %d && y == %d", ins[r.Intn(len(ins))], r.Intn(10))
		}
	}
	purpose := fmt.Sprintf("kind: purpose\nname: p%d\nvariables: {}\ninitial: {location: W}\naccept: [Accept]\ntransitions:\n  - {from: W, action: %s, guard: %q, to: Accept}\n", i, target, guard)
	return b.String(), purpose
}

// playTabled plays the test case tc against the spec s run as a SUT in
// process, with F implemented by a function that agrees with F's table
// and is random elsewhere (fixed for the run). The tester sends, when it
// can and chooses to, a value among -3..10 that a send guard allows;
// otherwise the SUT emits one of its enabled outputs, or quiescence.
// Reaching Fail returns zero stats.
func playTabled(t *testing.T, s, tc *spec.Model, r *rand.Rand, maxSteps int) simStats {
	t.Helper()
	elsewhere := map[string]expr.Value{}
	impl := func(args []expr.Value) (expr.Value, error) {
		k := args[0].String()
		if _, ok := elsewhere[k]; !ok {
			elsewhere[k] = expr.IntValue(big.NewInt(int64(r.Intn(10))))
		}
		return elsewhere[k], nil
	}
	sutF, tcF := registry(t, s, impl), registry(t, tc, impl)
	sut := simState{loc: s.Initial.Location, vars: map[string]expr.Value{"x": expr.IntValue(new(big.Int))}}
	tester := simState{loc: tc.Initial.Location, vars: map[string]expr.Value{"x": expr.IntValue(new(big.Int))}}
	var trace []string
	for step := 0; step < maxSteps; step++ {
		switch tc.Verdict(tester.loc) {
		case "pass":
			return simStats{pass: 1}
		case "inconc":
			return simStats{inconc: 1}
		}
		ev, ok := chooseSend(t, tc, tcF, tester, r)
		if ok && r.Intn(2) == 0 {
			next, accepted := step1(t, s, sutF, sut, ev)
			if !accepted {
				t.Errorf("the test case sends %s, which its spec refuses after %v", describeEvent(ev.action, ev.params), trace)
				return simStats{unjudged: 1}
			}
			sut = next
		} else {
			ev, sut = sutOutput(t, s, sutF, sut, r)
		}
		trace = append(trace, describeEvent(ev.action, ev.params))
		next, fired := step1(t, tc, tcF, tester, ev)
		if !fired {
			t.Fatalf("test case %s has no transition on %s from %s: trace %v", tc.Name, ev.action, tester.loc, trace)
		}
		tester = next
		if tc.Verdict(tester.loc) == "fail" {
			t.Errorf("test case %s reached Fail against a conformant SUT: trace %s", tc.Name, strings.Join(trace, " "))
			return simStats{}
		}
	}
	return simStats{open: 1}
}

func registry(t *testing.T, m *spec.Model, impl extfunc.GoFunc) *extfunc.Registry {
	reg, err := extfunc.New(m.Funcs, extfunc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register("F", impl); err != nil {
		t.Fatal(err)
	}
	return reg
}

// holds evaluates the guard of tr with calls evaluated by reg.
func holds(t *testing.T, reg *extfunc.Registry, tr *spec.Transition, st simState, params map[string]expr.Value) bool {
	ok, err := expr.EvalBool(tr.Guard, reg.Env(expr.Valuation{Vars: st.vars, Params: params}))
	if err != nil {
		t.Fatalf("guard %s: %v", expr.Format(tr.Guard), err)
	}
	return ok
}

// step1 fires the transition of m on ev whose guard holds (the models
// played are deterministic).
func step1(t *testing.T, m *spec.Model, reg *extfunc.Registry, st simState, ev simEvent) (simState, bool) {
	for _, tr := range m.Outgoing(st.loc) {
		if tr.Action != ev.action || !holds(t, reg, tr, st, ev.params) {
			continue
		}
		next := simState{loc: tr.To, vars: map[string]expr.Value{}}
		for n, v := range st.vars {
			next.vars[n] = v
		}
		env := reg.Env(expr.Valuation{Vars: st.vars, Params: ev.params})
		for _, a := range tr.Assign {
			v, err := expr.Eval(a.Value, env)
			if err != nil {
				t.Fatalf("assignment %s: %v", expr.Format(a.Value), err)
			}
			next.vars[a.Var] = v
		}
		return next, true
	}
	return st, false
}

// chooseSend picks a send of the test case and a value of v its guard
// allows.
func chooseSend(t *testing.T, tc *spec.Model, reg *extfunc.Registry, st simState, r *rand.Rand) (simEvent, bool) {
	var evs []simEvent
	for _, tr := range tc.Outgoing(st.loc) {
		if tc.Action(tr.Action).Dir != spec.Send {
			continue
		}
		for v := -3; v <= 10; v++ {
			ps := map[string]expr.Value{"v": expr.IntValue(big.NewInt(int64(v)))}
			if holds(t, reg, tr, st, ps) {
				evs = append(evs, simEvent{action: tr.Action, params: ps})
			}
		}
	}
	if len(evs) == 0 {
		return simEvent{}, false
	}
	return evs[r.Intn(len(evs))], true
}

// sutOutput returns an output of the SUT (out's y from its guard
// y == E), or quiescence when none is enabled.
func sutOutput(t *testing.T, s *spec.Model, reg *extfunc.Registry, st simState, r *rand.Rand) (simEvent, simState) {
	var evs []simEvent
	for _, tr := range s.Outgoing(st.loc) {
		if s.Action(tr.Action).Dir != spec.Output {
			continue
		}
		ps := map[string]expr.Value{}
		if b, ok := tr.Guard.(*expr.Binary); ok && b.Op == expr.Eq {
			if id, ok := b.X.(*expr.Ident); ok && id.Kind == expr.ParamIdent {
				y, err := expr.Eval(b.Y, reg.Env(expr.Valuation{Vars: st.vars}))
				if err != nil {
					t.Fatal(err)
				}
				ps[id.Name] = y
			}
		}
		if holds(t, reg, tr, st, ps) {
			evs = append(evs, simEvent{action: tr.Action, params: ps})
		}
	}
	if len(evs) == 0 {
		return simEvent{action: spec.Delta}, st
	}
	ev := evs[r.Intn(len(evs))]
	next, _ := step1(t, s, reg, st, ev)
	return ev, next
}

// TestDefinedFunctionsDecide: a function defined in the model (def:) is
// inlined by the parser, never a call: its body decides the guards on
// the STG route with or without tables.
func TestDefinedFunctionsDecide(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "spec.yaml")
	os.WriteFile(sp, []byte(`kind: spec
name: defined
functions:
  G: {params: {a: int}, result: int, def: "a * 2 + 1"}
variables: {x: int}
actions:
  in: {dir: input, params: {v: int}}
  hi: {dir: output}
  lo: {dir: output}
locations: [L0, L1, L2]
initial: {location: L0, condition: x == 0}
transitions:
  - {from: L0, action: in, guard: "v == 3", assign: {x: v}, to: L1}
  - {from: L1, action: hi, guard: "G(x) > 5", to: L2}
  - {from: L1, action: lo, guard: "G(x) <= 5", to: L2}
`), 0o644)
	for _, target := range []string{"hi", "lo"} {
		pp := filepath.Join(dir, target+".yaml")
		os.WriteFile(pp, []byte("kind: purpose\nname: "+target+"\nvariables: {}\ninitial: {location: W}\naccept: [Accept]\ntransitions:\n  - {from: W, action: "+target+", to: Accept}\n"), 0o644)
		for _, fm := range []Functions{Tables, Uninterpreted} {
			res, err := Generate(sp, pp, Options{Functions: fm})
			var ue *selection.UnreachableError
			switch {
			case target == "hi" && err != nil:
				t.Errorf("%s, %s: %v", target, fm, err)
			case target == "hi" && strings.Contains(marshal(res.Testcase), "G("):
				t.Errorf("%s, %s: a call of the defined G survives:\n%s", target, fm, marshal(res.Testcase))
			case target == "lo" && !errors.As(err, &ue):
				t.Errorf("%s, %s: %v, want Accept unreachable (G(3) = 7)", target, fm, err)
			}
		}
	}
}
