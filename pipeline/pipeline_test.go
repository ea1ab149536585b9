package pipeline

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/internal/exampletest"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func examples(t testing.TB) []exampletest.Pair { return exampletest.Pairs(t, "..") }

func newContext(t testing.TB) *solver.Context { return exampletest.Context(t) }

// TestProperties checks, on every example and purpose and in every
// domain, the properties a test case must have: deterministic, complete
// for receives in every non-verdict location, Fail only on unspecified
// outputs, Pass reachable by a feasible run. The default run checks each
// purpose in one domain, each domain on a third of the purposes in turn,
// and of lucky's purposes only by-name (the checks of the others, over
// strings, take tens of seconds each); STG_LONG=1 every purpose in every
// domain.
func TestProperties(t *testing.T) {
	for i, ex := range examples(t) {
		for d, domain := range []string{"none", "interval", "polyhedra"} {
			if !testlong.Enabled() && ((i+d)%3 != 0 || strings.HasPrefix(ex.Name, "lucky/") && ex.Name != "lucky/purpose-by-name") {
				continue
			}
			t.Run(ex.Name+"/"+domain, func(t *testing.T) {
				res, err := Generate(ex.Spec, ex.Purpose, Options{Domain: domain})
				if err != nil {
					t.Fatalf("generate: %v", err)
				}
				ctx := newContext(t)
				tc := res.Testcase
				checkRoundTrip(t, tc)
				checkDeterministic(t, ctx, tc)
				checkReceiveComplete(t, ctx, tc)
				checkFailSound(t, ctx, res)
				if !passReachable(t, ctx, tc, 12) {
					t.Errorf("no feasible run of at most 12 steps reaches Pass")
				}
			})
		}
	}
}

func checkRoundTrip(t *testing.T, tc *spec.Model) {
	t.Helper()
	b, err := specfile.Marshal(tc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := specfile.ParseModel("tc.yaml", b, nil)
	if err != nil {
		t.Fatalf("the written test case does not load: %v\n%s", err, b)
	}
	b2, _ := specfile.Marshal(back)
	if !bytes.Equal(b, b2) {
		t.Errorf("write/load/write differs:\n%s\n---\n%s", b, b2)
	}
}

type group struct{ from, action string }

func groups(tc *spec.Model) map[group][]*spec.Transition {
	g := map[group][]*spec.Transition{}
	for _, tr := range tc.Transitions {
		k := group{tr.From, tr.Action}
		g[k] = append(g[k], tr)
	}
	return g
}

func checkDeterministic(t *testing.T, ctx *solver.Context, tc *spec.Model) {
	t.Helper()
	for k, ts := range groups(tc) {
		for i := range ts {
			for j := i + 1; j < len(ts); j++ {
				r, err := ctx.Sat(expr.AndOf(ts[i].Guard, ts[j].Guard))
				if err != nil {
					t.Fatal(err)
				}
				if r != solver.Unsat {
					t.Errorf("non-deterministic in %s on %s: [%s] and [%s]", k.from, k.action, expr.Format(ts[i].Guard), expr.Format(ts[j].Guard))
				}
			}
		}
	}
}

func checkReceiveComplete(t *testing.T, ctx *solver.Context, tc *spec.Model) {
	t.Helper()
	g := groups(tc)
	for _, l := range tc.Locations {
		if tc.Verdict(l) != "" {
			continue
		}
		for _, a := range tc.Actions {
			if a.Dir != spec.Receive {
				continue
			}
			var gs []expr.Expr
			for _, tr := range g[group{l, a.Name}] {
				gs = append(gs, tr.Guard)
			}
			ok, err := ctx.Valid(expr.OrOf(gs...))
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Errorf("location %s is not complete for %s: %s", l, a.Name, expr.Format(expr.OrOf(gs...)))
			}
		}
	}
}

// checkFailSound: every transition into Fail fires only on an output
// that the spec does not allow from the corresponding spec location.
func checkFailSound(t *testing.T, ctx *solver.Context, res *Result) {
	t.Helper()
	for _, tr := range res.Testcase.Transitions {
		if tr.To != "Fail" {
			continue
		}
		l := res.Product.Origin[tr.From][0]
		var allowed []expr.Expr
		for _, st := range res.Tester.Outgoing(l) {
			if st.Action == tr.Action && st.To != res.Tester.Fail {
				allowed = append(allowed, st.Guard)
			}
		}
		r, err := ctx.Sat(expr.AndOf(tr.Guard, expr.OrOf(allowed...)))
		if err != nil {
			t.Fatal(err)
		}
		if r != solver.Unsat {
			t.Errorf("Fail on a specified output: %s %s [%s], spec allows [%s]", tr.From, tr.Action, expr.Format(tr.Guard), expr.Format(expr.OrOf(allowed...)))
		}
	}
}

// passReachable reports whether a feasible run of tc of at most depth
// steps ends in Pass (check.PassReachable, without a query budget).
func passReachable(t *testing.T, ctx *solver.Context, tc *spec.Model, depth int) bool {
	t.Helper()
	r, err := check.PassReachable(ctx, tc, depth, math.MaxInt)
	if err != nil || r == solver.Unknown {
		t.Fatalf("searching a run to Pass: %v, %v", r, err)
	}
	return r == solver.Sat
}

// TestFigure3 checks that the cmp test case has the meaning of Figure 3
// of the STG paper: send in with p >= 3, then in with p == x + 2, Pass on
// ok with p == 2.
func TestFigure3(t *testing.T) {
	res, err := Generate("../examples/cmp/spec.yaml", "../examples/cmp/purpose.yaml", Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := newContext(t)
	tc := res.Testcase
	find := func(from, action, to string) *spec.Transition {
		for _, tr := range tc.Transitions {
			if tr.From == from && tr.Action == action && tr.To == to {
				return tr
			}
		}
		t.Fatalf("no transition %s -%s-> %s in\n%s", from, action, to, marshal(tc))
		return nil
	}
	scope := &expr.Scope{Vars: map[string]expr.Type{"x": expr.IntType, "y": expr.IntType}, Params: map[string]expr.Type{"p": expr.IntType}}
	want := func(tr *spec.Transition, src, under string) {
		t.Helper()
		w, err := expr.Parse(src, expr.Pos{}, scope)
		if err != nil {
			t.Fatal(err)
		}
		u, err := expr.Parse(under, expr.Pos{}, scope)
		if err != nil {
			t.Fatal(err)
		}
		ok, err := ctx.Equivalent(expr.AndOf(u, tr.Guard), expr.AndOf(u, w))
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Errorf("%s -%s-> %s: guard %s, want %s (when %s)", tr.From, tr.Action, tr.To, expr.Format(tr.Guard), src, under)
		}
	}
	want(find("Rx,Wait", "in", "Ry,Wait"), "p >= 3", "x == 0 && y == 0")
	want(find("Ry,Wait", "in", "Cmp,Wait"), "p == x + 2", "x >= 3 && y == 0")
	want(find("Cmp,Wait", "ok", "Pass"), "p == 2", "x >= 3 && y == x + 2")
	// The sends read exactly like the paper.
	if g := expr.Format(find("Rx,Wait", "in", "Ry,Wait").Guard); g != "p >= 3" {
		t.Errorf("first send guard %q, want %q", g, "p >= 3")
	}
	if g := expr.Format(find("Ry,Wait", "in", "Cmp,Wait").Guard); g != "p == x + 2" {
		t.Errorf("second send guard %q, want %q", g, "p == x + 2")
	}
}

func marshal(m *spec.Model) string {
	b, _ := specfile.Marshal(m)
	return string(b)
}

// TestGolden compares the test cases of the reference examples with the
// files in testdata (go test -update rewrites them).
func TestGolden(t *testing.T) {
	for _, name := range []string{"cmp", "atm"} {
		for _, domain := range []string{"none", "polyhedra"} {
			t.Run(name+"/"+domain, func(t *testing.T) {
				dir := filepath.Join("..", "examples", name)
				res, err := Generate(filepath.Join(dir, "spec.yaml"), filepath.Join(dir, "purpose.yaml"), Options{Domain: domain})
				if err != nil {
					t.Fatal(err)
				}
				for _, format := range []string{"yaml", "dot"} {
					got, err := Encode(res.Testcase, format, "")
					if err != nil {
						t.Fatal(err)
					}
					golden := filepath.Join("testdata", name+"-"+domain+"."+format)
					if *update {
						if err := os.WriteFile(golden, got, 0o644); err != nil {
							t.Fatal(err)
						}
						continue
					}
					want, err := os.ReadFile(golden)
					if err != nil {
						t.Fatalf("%v (run go test -update)", err)
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s differs from the golden file:\n%s", golden, got)
					}
				}
			})
		}
	}
}

func TestUnreachableAccept(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "p.yaml")
	// ok with p == 2 after x >= 3 and y - x == 2 ... but also p > 5: impossible.
	os.WriteFile(p, []byte(`kind: purpose
name: impossible
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: ok, guard: "p == 2 && p > 5", to: A}
`), 0o644)
	_, err := Generate("../examples/cmp/spec.yaml", p, Options{})
	if err == nil || !strings.Contains(err.Error(), "impossible") || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("got %v, want an error naming the purpose and saying Accept is unreachable", err)
	}
}
