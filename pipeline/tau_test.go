package pipeline

import (
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// Property tests of test generation from specs with internal actions
// (canonical.Close): the properties of TestProperties, Fail soundness
// against the original spec by bounded unrolling of its τ-paths (an
// oracle independent of the closure), and random concrete runs of the
// spec, taking τ steps at random, that never reach Fail.

// tauCase is a spec with internal actions and a purpose, as files.
type tauCase struct{ name, spec, purpose string }

// tauHandCases are the hand examples under testdata/tau.
func tauHandCases(t *testing.T) []tauCase {
	var r []tauCase
	for _, n := range []string{"after", "choice", "quiet", "cycle", "slot"} {
		d := filepath.Join("testdata", "tau")
		r = append(r, tauCase{n, filepath.Join(d, n+".spec.yaml"), filepath.Join(d, n+".purpose.yaml")})
	}
	return r
}

// checkTauProperties runs every check on the test case of c and returns
// its result.
func checkTauProperties(t *testing.T, ctx *solver.Context, res *Result, runs int, r *rand.Rand) simStats {
	t.Helper()
	tc := res.Testcase
	checkRoundTrip(t, tc)
	checkDeterministic(t, ctx, tc)
	checkReceiveComplete(t, ctx, tc)
	checkFailSound(t, ctx, res)
	checkFailSoundUnrolled(t, ctx, res, 6)
	var st simStats
	for i := 0; i < runs; i++ {
		st.add(simulate(t, ctx, res.Spec, tc, r, 40))
	}
	return st
}

// TestTauHandExamples: an output reachable only after τ (no δ before
// it), a τ choosing between two outputs, a τ choosing between an output
// and quiescence, a τ-cycle, the composed slot machine (hidden channels
// as τ with parameters); each with its purpose, every property, and
// 50 random concrete runs of the spec that never reach Fail (150 with
// STG_LONG=1).
func TestTauHandExamples(t *testing.T) {
	for _, c := range tauHandCases(t) {
		t.Run(c.name, func(t *testing.T) {
			res, err := Generate(c.spec, c.purpose, Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx := newContext(t)
			st := checkTauProperties(t, ctx, res, testlong.Runs(50, 150), rand.New(rand.NewSource(1)))
			if !passReachable(t, ctx, res.Testcase, 12) {
				t.Errorf("no feasible run of at most 12 steps reaches Pass")
			}
			if st.pass == 0 {
				t.Errorf("no simulated run reached Pass: %+v", st)
			}
			t.Logf("%s: %+v", c.name, st)
		})
	}
}

// TestTauNoDeltaBeforeOutput: in testdata/tau/after, the output follows
// the input only through τ steps, so the test case fails quiescence
// right after the input, and never elsewhere than where an output is
// certain.
func TestTauNoDeltaBeforeOutput(t *testing.T) {
	res, err := Generate("testdata/tau/after.spec.yaml", "testdata/tau/after.purpose.yaml", Options{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tr := range res.Testcase.Transitions {
		if tr.Action == spec.Delta && tr.To == "Fail" && res.Product.Origin[tr.From][0] == "Busy" {
			found = true
			if !expr.IsTrue(tr.Guard) {
				t.Errorf("delta from %s fails only when %s, want always", tr.From, expr.Format(tr.Guard))
			}
		}
	}
	if !found {
		t.Errorf("no Fail on delta after the input:\n%s", marshal(res.Testcase))
	}
}

// TestTauRandomSpecs generates random specs with internal actions,
// acyclic (τ-steps may assign) and cyclic (τ-cycles that assign
// nothing), and checks every property on those whose closure is
// deterministic and whose purpose is reachable, with 20 random concrete
// runs each.
func TestTauRandomSpecs(t *testing.T) {
	const nspecs = 80
	r := rand.New(rand.NewSource(7))
	dir := t.TempDir()
	ctx := newContext(t)
	var generated, refused, unreachable int
	var total simStats
	for i := 0; i < nspecs; i++ {
		cyclic := i%2 == 1
		src, purpose := randomTauSpec(r, i, cyclic)
		sp := filepath.Join(dir, fmt.Sprintf("s%d.yaml", i))
		pp := filepath.Join(dir, fmt.Sprintf("p%d.yaml", i))
		os.WriteFile(sp, []byte(src), 0o644)
		os.WriteFile(pp, []byte(purpose), 0o644)
		res, err := Generate(sp, pp, Options{})
		switch {
		case err != nil && strings.Contains(err.Error(), "after internal actions"):
			refused++
			if testing.Verbose() && refused <= 3 {
				t.Logf("spec %d refused: %v", i, err)
			}
			continue
		case err != nil && strings.Contains(err.Error(), "unreachable"):
			unreachable++
			continue
		case err != nil:
			t.Fatalf("spec %d: %v\n%s\n%s", i, err, src, purpose)
		}
		generated++
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			st := checkTauProperties(t, ctx, res, 20, r)
			total.add(st)
			if t.Failed() {
				t.Logf("spec:\n%s\npurpose:\n%s\ntest case:\n%s", src, purpose, marshal(res.Testcase))
			}
		})
	}
	t.Logf("%d random specs: %d test cases, %d non-deterministic closures refused, %d unreachable purposes; runs %+v", nspecs, generated, refused, unreachable, total)
	if generated < nspecs/4 {
		t.Errorf("only %d of %d random specs gave a test case", generated, nspecs)
	}
	if total.pass == 0 {
		t.Errorf("no simulated run reached Pass")
	}
}

// TestTauRandomAssigningCyclesRefused: random specs whose τ-cycles
// assign are refused with a positioned error naming the cycle.
func TestTauRandomAssigningCyclesRefused(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	dir := t.TempDir()
	for i := 0; i < 10; i++ {
		src, purpose := randomTauSpec(r, i, true)
		// A τ-loop that counts: always on a cycle, always assigning.
		src += "  - {from: L1, action: t, guard: x < 100, assign: {x: x + 1}, to: L1}\n"
		sp := filepath.Join(dir, fmt.Sprintf("s%d.yaml", i))
		pp := filepath.Join(dir, fmt.Sprintf("p%d.yaml", i))
		os.WriteFile(sp, []byte(src), 0o644)
		os.WriteFile(pp, []byte(purpose), 0o644)
		_, err := Generate(sp, pp, Options{})
		if err == nil || !strings.Contains(err.Error(), sp+":") || !strings.Contains(err.Error(), "changes variables on the cycle") || !strings.Contains(err.Error(), "L1 -t-> L1") {
			t.Errorf("spec %d: got %v, want the τ-cycle refused with its position", i, err)
		}
	}
}

// randomTauSpec returns a random spec with five locations, the variable
// x, the input in(p), the outputs a(r), b(r) and c, the internal action
// t, and a purpose accepting an a or b output. Visible transitions are
// deterministic by construction; τ-transitions go forward (and may
// assign) when acyclic, anywhere (and never assign) when cyclic. A
// location with τ-transitions takes no input, and guards are often
// specific to their location, so that a good share of the closures are
// deterministic; the others are refused, and counted.
func randomTauSpec(r *rand.Rand, n int, cyclic bool) (string, string) {
	var b strings.Builder
	fmt.Fprintf(&b, `kind: spec
name: rnd%d
variables: {x: int}
actions:
  in: {dir: input, params: {p: int}}
  a: {dir: output, params: {r: int}}
  b: {dir: output, params: {r: int}}
  c: {dir: output}
  t: {dir: internal}
initial: {location: L0, condition: x == 0}
transitions:
`, n)
	const nloc = 5
	loc := func() string { return fmt.Sprintf("L%d", r.Intn(nloc)) }
	for i := 0; i < nloc; i++ {
		l := fmt.Sprintf("L%d", i)
		ntau := r.Intn(3)
		if !cyclic && i == nloc-1 {
			ntau = 0
		}
		if ntau == 0 && (i == 0 || r.Intn(3) > 0) {
			k := r.Intn(4)
			assign := []string{"{x: p}", "{x: x + p}", "{}"}[r.Intn(3)]
			own := "true"
			if r.Intn(5) < 3 {
				own = fmt.Sprintf("p >= %d && p < %d", 10*i, 10*i+10)
				k += 10 * i
			}
			if r.Intn(2) == 0 {
				fmt.Fprintf(&b, "  - {from: %s, action: in, guard: \"%s && p >= %d\", assign: %s, to: %s}\n", l, own, k, assign, loc())
				fmt.Fprintf(&b, "  - {from: %s, action: in, guard: \"%s && p < %d\", to: %s}\n", l, own, k, loc())
			} else {
				fmt.Fprintf(&b, "  - {from: %s, action: in, guard: \"%s\", assign: %s, to: %s}\n", l, own, assign, loc())
			}
		}
		for _, o := range []string{"a", "b"} {
			if r.Intn(3) == 0 {
				g := fmt.Sprintf("r == x + %d", i)
				if r.Intn(5) < 2 {
					g = []string{"r == x", "r > x", fmt.Sprintf("r == %d && x >= %d", r.Intn(4), r.Intn(3))}[r.Intn(3)]
				}
				assign := []string{"{x: r}", "{x: x - 1}", "{}"}[r.Intn(3)]
				fmt.Fprintf(&b, "  - {from: %s, action: %s, guard: %q, assign: %s, to: %s}\n", l, o, g, assign, loc())
			}
		}
		if r.Intn(5) == 0 {
			fmt.Fprintf(&b, "  - {from: %s, action: c, guard: x < %d, to: %s}\n", l, r.Intn(4), loc())
		}
		for k := 0; k < ntau; k++ {
			to := r.Intn(nloc)
			if !cyclic {
				to = i + 1 + r.Intn(nloc-i-1)
			}
			g := []string{"true", fmt.Sprintf("x > %d", r.Intn(3)), fmt.Sprintf("x <= %d", r.Intn(3))}[r.Intn(3)]
			assign := "{}"
			if !cyclic {
				assign = []string{"{x: x + 1}", "{x: 0}", "{}"}[r.Intn(3)]
			}
			fmt.Fprintf(&b, "  - {from: %s, action: t, guard: %q, assign: %s, to: L%d}\n", l, g, assign, to)
		}
	}
	o := []string{"a", "b"}[r.Intn(2)]
	purpose := fmt.Sprintf(`kind: purpose
name: rnd%d-%s
variables: {}
initial: {location: W}
accept: [Acc]
transitions:
  - {from: W, action: %s, guard: r >= %d, to: Acc}
`, n, o, o, r.Intn(3))
	return b.String(), purpose
}

// checkFailSoundUnrolled checks, against the original spec, that every
// Fail on an output fires only where no τ-path of at most k steps from
// the corresponding spec location allows that output, and every Fail on
// delta only where no τ-path of at most k steps reaches a stable
// quiescent state (no output, no τ enabled). The τ-paths are unrolled
// here, cycles included, independently of canonical.Close. In a
// post-quiescence location, outputs are not checked here (no output can
// follow quiescence without an input; the simulation checks it against
// runs of the spec) and delta is judged as in its location.
func checkFailSoundUnrolled(t *testing.T, ctx *solver.Context, res *Result, k int) {
	t.Helper()
	s := res.Spec
	for _, tr := range res.Testcase.Transitions {
		if tr.To != "Fail" {
			continue
		}
		l := res.Product.Origin[tr.From][0]
		if q, ok := res.Tester.Quiet[l]; ok {
			// After quiescence: no output can follow (Def. 5), and δ
			// again is judged as in the location itself.
			if tr.Action != spec.Delta {
				continue
			}
			l = q
		}
		var allowed []expr.Expr
		for _, p := range unrollTau(s, l, k) {
			if tr.Action == spec.Delta {
				stable, err := stableQuiescent(ctx, s, p.end)
				if err != nil {
					t.Fatal(err)
				}
				allowed = append(allowed, expr.AndOf(p.guard, expr.Substitute(stable, p.subst, nil)))
				continue
			}
			for _, st := range s.Outgoing(p.end) {
				if st.Action == tr.Action {
					allowed = append(allowed, expr.AndOf(p.guard, expr.Substitute(st.Guard, p.subst, nil)))
				}
			}
		}
		res, err := ctx.Sat(expr.AndOf(tr.Guard, expr.OrOf(allowed...)))
		if err != nil {
			t.Fatal(err)
		}
		if res != solver.Unsat {
			t.Errorf("Fail on %s from %s [%s], but the spec allows it after τ from %s", tr.Action, tr.From, expr.Format(tr.Guard), l)
		}
	}
}

// unrolled is a τ-path of the unrolling: its guard and its composed
// assignment over the variables at its start. Internal parameters are
// renamed apart and stay free (the caller's Sat quantifies them).
type unrolled struct {
	guard expr.Expr
	subst map[string]expr.Expr
	end   string
}

func unrollTau(s *spec.Model, l string, k int) []unrolled {
	paths := []unrolled{{guard: expr.True(), subst: map[string]expr.Expr{}, end: l}}
	frontier := paths
	for step := 1; step <= k; step++ {
		var next []unrolled
		for _, p := range frontier {
			for _, t := range s.Outgoing(p.end) {
				a := s.Action(t.Action)
				if a.Dir != spec.Internal {
					continue
				}
				rename := map[string]expr.Expr{}
				for _, prm := range a.Params {
					rename[prm.Name] = expr.ParamRef(fmt.Sprintf("%s_%d_%d", prm.Name, step, len(next)), prm.Type)
				}
				q := unrolled{guard: expr.AndOf(p.guard, expr.Substitute(t.Guard, p.subst, rename)), subst: map[string]expr.Expr{}, end: t.To}
				for _, v := range s.Variables {
					q.subst[v.Name] = expr.Substitute(t.AssignedValue(v), p.subst, rename)
				}
				next = append(next, q)
			}
		}
		paths = append(paths, next...)
		frontier = next
	}
	return paths
}

// stableQuiescent is the condition under which location l of s enables
// no output and no τ.
func stableQuiescent(ctx *solver.Context, s *spec.Model, l string) (expr.Expr, error) {
	var enabled []expr.Expr
	for _, t := range s.Outgoing(l) {
		a := s.Action(t.Action)
		if a.Dir == spec.Input {
			continue
		}
		var ids []*expr.Ident
		for _, p := range a.Params {
			ids = append(ids, &expr.Ident{Name: p.Name, Kind: expr.ParamIdent, T: p.Type})
		}
		g, err := ctx.EliminateExists(ids, t.Guard)
		if err != nil {
			return nil, err
		}
		enabled = append(enabled, g)
	}
	return expr.NotOf(expr.OrOf(enabled...)), nil
}

// simStats counts simulated runs by outcome.
type simStats struct {
	pass, inconc, open, unjudged int
}

func (s *simStats) add(o simStats) {
	s.pass += o.pass
	s.inconc += o.inconc
	s.open += o.open
	s.unjudged += o.unjudged
}

// simulate plays the test case tc against the spec s itself, run as a
// conformant SUT: it takes enabled τ and output transitions at random
// (output values from Z3 models, randomised), is quiescent only in a
// stable state with no output enabled or after diverging with no output
// ahead, and takes an input after τ steps
// of its choice that lead to a state accepting it. A run that would need
// an input the SUT's current state cannot accept after τ is unjudged
// (its trace leaves the spec). Reaching Fail is an error.
func simulate(t *testing.T, ctx *solver.Context, s, tc *spec.Model, r *rand.Rand, maxSteps int) simStats {
	t.Helper()
	sut := simState{loc: s.Initial.Location, vars: initial(t, ctx, s.Initial.Condition, s.Variables, r)}
	tester := simState{loc: tc.Initial.Location, vars: initial(t, ctx, tc.Initial.Condition, tc.Variables, r)}
	// The tester's initial variables must agree with the SUT's where both
	// have them (the test case's initial condition is the spec's).
	for n, v := range sut.vars {
		if _, ok := tester.vars[n]; ok {
			tester.vars[n] = v
		}
	}
	var trace []string
	observe := func(action string, params map[string]expr.Value) bool {
		trace = append(trace, describeEvent(action, params))
		next, ok := fire(t, tc, tester, action, params)
		if !ok {
			t.Fatalf("test case %s has no transition on %s from %s: trace %v", tc.Name, action, tester.loc, trace)
		}
		tester = next
		if tc.Verdict(tester.loc) == "fail" {
			t.Errorf("test case %s reached Fail against a run of its spec: trace %s", tc.Name, strings.Join(trace, " "))
			return false
		}
		return true
	}
	taus := 0
	for step := 0; step < maxSteps; step++ {
		switch tc.Verdict(tester.loc) {
		case "pass":
			return simStats{pass: 1}
		case "inconc":
			return simStats{inconc: 1}
		case "fail":
			return simStats{}
		}
		if send := enabledSends(t, ctx, tc, tester, r); len(send) > 0 && r.Intn(2) == 0 {
			ev := send[r.Intn(len(send))]
			next, ok := acceptInput(t, ctx, s, sut, ev, r)
			if !ok {
				return simStats{unjudged: 1}
			}
			sut = next
			if !observe(ev.action, ev.params) {
				return simStats{}
			}
			continue
		}
		moves := sutMoves(t, ctx, s, sut, r)
		if len(moves) == 0 {
			if !observe(spec.Delta, nil) {
				return simStats{}
			}
			continue
		}
		m := moves[r.Intn(len(moves))]
		sut = m.to
		if s.Action(m.action).Dir == spec.Internal {
			if taus++; taus > 10 {
				// Diverging: δ is allowed (Def. 5) when no τ*·output
				// continuation exists; otherwise the run is cut.
				if !outputAhead(t, ctx, s, sut, r) {
					taus = 0
					if !observe(spec.Delta, nil) {
						return simStats{}
					}
					continue
				}
				return simStats{unjudged: 1}
			}
			trace = append(trace, "("+m.action+")")
			continue
		}
		taus = 0
		if !observe(m.action, m.params) {
			return simStats{}
		}
	}
	return simStats{open: 1}
}

type simState struct {
	loc  string
	vars map[string]expr.Value
}

type simEvent struct {
	action string
	params map[string]expr.Value
	to     simState
}

func describeEvent(action string, params map[string]expr.Value) string {
	if len(params) == 0 {
		return action
	}
	var ps []string
	for n, v := range params {
		ps = append(ps, n+"="+v.String())
	}
	return action + "(" + strings.Join(ps, ",") + ")"
}

// initial returns values of vars satisfying cond, random where cond
// leaves them free (small integers, booleans).
func initial(t *testing.T, ctx *solver.Context, cond expr.Expr, vars []*spec.Variable, r *rand.Rand) map[string]expr.Value {
	t.Helper()
	var hint []expr.Expr
	for _, v := range vars {
		switch v.Type.Kind {
		case expr.Int:
			hint = append(hint, expr.Compare(expr.Eq, expr.VarRef(v.Name, v.Type), expr.IntConst(int64(r.Intn(9)-2))))
		case expr.Bool:
			hint = append(hint, expr.Compare(expr.Eq, expr.VarRef(v.Name, v.Type), expr.BoolConst(r.Intn(2) == 0)))
		}
	}
	m, ok, err := ctx.Model(expr.AndOf(append([]expr.Expr{cond}, hint...)...))
	if err == nil && !ok {
		m, ok, err = ctx.Model(cond)
	}
	if err != nil || !ok {
		t.Fatalf("initial condition %s: %v %v", expr.Format(cond), ok, err)
	}
	out := map[string]expr.Value{}
	for _, v := range vars {
		if x, ok := m.Vars[v.Name]; ok {
			out[v.Name] = x
		} else {
			out[v.Name] = zero(v.Type)
		}
	}
	return out
}

func zero(t expr.Type) expr.Value {
	switch t.Kind {
	case expr.Real:
		return expr.RatValue(new(big.Rat))
	case expr.Bool:
		return expr.BoolValue(false)
	case expr.EnumKind:
		return expr.EnumValue(t.Enum, 0)
	}
	return expr.IntValue(new(big.Int))
}

// pickParams returns values of a's parameters satisfying the guard g in
// the state vars, preferring small random integers; ok is false when g
// cannot hold.
func pickParams(t *testing.T, ctx *solver.Context, a *spec.Action, g expr.Expr, vars map[string]expr.Value, r *rand.Rand) (map[string]expr.Value, bool) {
	t.Helper()
	consts := map[string]expr.Expr{}
	for n, v := range vars {
		consts[n] = v.Expr()
	}
	g = expr.Substitute(g, consts, nil)
	var tries []expr.Expr
	var hint []expr.Expr
	for _, p := range a.Params {
		if p.Type.Kind == expr.Int {
			hint = append(hint, expr.Compare(expr.Eq, expr.ParamRef(p.Name, p.Type), expr.IntConst(int64(r.Intn(9)-2))))
		}
	}
	if len(hint) > 0 {
		tries = append(tries, expr.AndOf(append([]expr.Expr{g}, hint...)...))
	}
	tries = append(tries, g)
	for _, q := range tries {
		m, ok, err := ctx.Model(q)
		if err != nil {
			t.Fatalf("model of %s: %v", expr.Format(q), err)
		}
		if !ok {
			continue
		}
		out := map[string]expr.Value{}
		for _, p := range a.Params {
			if x, ok := m.Params[p.Name]; ok {
				out[p.Name] = x
			} else {
				out[p.Name] = zero(p.Type)
			}
		}
		return out, true
	}
	return nil, false
}

// take returns the state after t fires from st with params, if its
// guard holds.
func take(t *testing.T, tr *spec.Transition, st simState, params map[string]expr.Value) (simState, bool) {
	t.Helper()
	env := expr.Valuation{Vars: st.vars, Params: params}
	ok, err := expr.EvalBool(tr.Guard, env)
	if err != nil {
		t.Fatalf("guard %s: %v", expr.Format(tr.Guard), err)
	}
	if !ok {
		return simState{}, false
	}
	next := simState{loc: tr.To, vars: map[string]expr.Value{}}
	for n, v := range st.vars {
		next.vars[n] = v
	}
	for _, a := range tr.Assign {
		v, err := expr.Eval(a.Value, env)
		if err != nil {
			t.Fatalf("assignment %s: %v", expr.Format(a.Value), err)
		}
		next.vars[a.Var] = v
	}
	return next, true
}

// fire follows the test case's only transition on action with params.
func fire(t *testing.T, tc *spec.Model, st simState, action string, params map[string]expr.Value) (simState, bool) {
	t.Helper()
	for _, tr := range tc.Outgoing(st.loc) {
		if tr.Action != action {
			continue
		}
		if next, ok := take(t, tr, st, params); ok {
			return next, true
		}
	}
	return simState{}, false
}

// enabledSends returns one stimulus per send transition of the test case
// that can fire.
func enabledSends(t *testing.T, ctx *solver.Context, tc *spec.Model, st simState, r *rand.Rand) []simEvent {
	t.Helper()
	var out []simEvent
	for _, tr := range tc.Outgoing(st.loc) {
		a := tc.Action(tr.Action)
		if a.Dir != spec.Send {
			continue
		}
		if ps, ok := pickParams(t, ctx, a, tr.Guard, st.vars, r); ok {
			out = append(out, simEvent{action: tr.Action, params: ps})
		}
	}
	return out
}

// sutMoves returns the τ and output moves of the spec from st, one per
// enabled transition.
func sutMoves(t *testing.T, ctx *solver.Context, s *spec.Model, st simState, r *rand.Rand) []simEvent {
	t.Helper()
	var out []simEvent
	for _, tr := range s.Outgoing(st.loc) {
		a := s.Action(tr.Action)
		if a.Dir == spec.Input {
			continue
		}
		ps, ok := pickParams(t, ctx, a, tr.Guard, st.vars, r)
		if !ok {
			continue
		}
		if next, ok := take(t, tr, st, ps); ok {
			out = append(out, simEvent{action: tr.Action, params: ps, to: next})
		}
	}
	return out
}

// acceptInput lets the SUT take the input ev after τ steps of its choice
// (at most 6, chosen at random among the ways that lead to a state where
// ev is enabled); ok is false when no such way exists.
func acceptInput(t *testing.T, ctx *solver.Context, s *spec.Model, st simState, ev simEvent, r *rand.Rand) (simState, bool) {
	t.Helper()
	var ways []simState
	frontier := []simState{st}
	for depth := 0; depth <= 6 && len(frontier) > 0; depth++ {
		var next []simState
		for _, x := range frontier {
			for _, tr := range s.Outgoing(x.loc) {
				switch s.Action(tr.Action).Dir {
				case spec.Input:
					if tr.Action != ev.action {
						continue
					}
					if y, ok := take(t, tr, x, ev.params); ok {
						ways = append(ways, y)
					}
				case spec.Internal:
					ps, ok := pickParams(t, ctx, s.Action(tr.Action), tr.Guard, x.vars, r)
					if !ok {
						continue
					}
					if y, ok := take(t, tr, x, ps); ok {
						next = append(next, y)
					}
				}
			}
		}
		frontier = next
	}
	if len(ways) == 0 {
		return simState{}, false
	}
	return ways[r.Intn(len(ways))], true
}

// outputAhead reports whether an output is enabled in a state reachable
// from st by τ steps (breadth first, as many steps as there are
// locations: exact when τ-cycles assign nothing and τ has no
// parameters, as in the specs simulated here).
func outputAhead(t *testing.T, ctx *solver.Context, s *spec.Model, st simState, r *rand.Rand) bool {
	t.Helper()
	frontier := []simState{st}
	for depth := 0; depth <= len(s.Locations) && len(frontier) > 0; depth++ {
		var next []simState
		for _, x := range frontier {
			for _, m := range sutMoves(t, ctx, s, x, r) {
				if s.Action(m.action).Dir == spec.Output {
					return true
				}
				next = append(next, m.to)
			}
		}
		frontier = next
	}
	return false
}

// TestTauPurposeOnInternalRefused: a purpose transition on an internal
// action could never be taken; it is refused with its position.
func TestTauPurposeOnInternalRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "p.yaml")
	os.WriteFile(p, []byte(`kind: purpose
name: after-work
variables: {}
initial: {location: W}
accept: [Acc]
transitions:
  - {from: W, action: work, to: Acc}
`), 0o644)
	_, err := Generate("testdata/tau/after.spec.yaml", p, Options{})
	if err == nil || !strings.Contains(err.Error(), p+":7:5: purpose transition W -work-> Acc is labelled by the internal action work") {
		t.Fatalf("got %v, want the purpose transition refused with its position", err)
	}
}

// FuzzGenerateTau reads arbitrary specs (seeded with the ones with
// internal actions) and runs the whole pipeline on those that load, with
// a purpose accepting quiescence: it must never panic, and a test case it
// produces must be written and read back.
func FuzzGenerateTau(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/tau/*.spec.yaml")
	seeds = append(seeds, "../examples/jobs/spec.yaml")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	ctx := newContext(f)
	ctx.SetTimeout(5 * time.Second)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := specfile.ParseModel("s.yaml", data, nil)
		if err != nil || s.Kind != spec.SpecKind || len(s.Transitions) > 12 {
			return
		}
		tp, err := specfile.ParseModel("p.yaml", []byte("kind: purpose\nname: d\nvariables: {}\ninitial: {location: W}\naccept: [A]\ntransitions:\n  - {from: W, action: delta, to: A}\n"), s)
		if err != nil {
			return
		}
		res, err := Models(ctx, s, tp, Options{Domain: "polyhedra"})
		if err != nil {
			return
		}
		b, err := specfile.Marshal(res.Testcase)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := specfile.ParseModel("tc.yaml", b, nil); err != nil {
			t.Fatalf("generated test case does not load: %v\n%s", err, b)
		}
	})
}
