package pipeline

import (
	"fmt"
	"strings"
	"testing"

	ringfam "github.com/stg-tool/stg/internal/ring"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// ring returns the synthetic family of the scale benchmark: a ring of n
// stages over k variables; stage i reads a value into v[i mod k], then
// reports v[i mod k] + v[(i+1) mod k] (the last stage with the action
// final); the purpose accepts a final report of 42.
func ring(tb testing.TB, n, k int) (s, tp *spec.Model) {
	tb.Helper()
	var b strings.Builder
	b.WriteString("kind: spec\nname: ring\nvariables:\n")
	for j := 0; j < k; j++ {
		fmt.Fprintf(&b, "  v%d: int\n", j)
	}
	b.WriteString("actions:\n  in: {dir: input, params: {p: int}}\n  report: {dir: output, params: {q: int}}\n  final: {dir: output, params: {q: int}}\n")
	var init []string
	for j := 0; j < k; j++ {
		init = append(init, fmt.Sprintf("v%d == 0", j))
	}
	fmt.Fprintf(&b, "initial: {location: S0, condition: %q}\ntransitions:\n", strings.Join(init, " && "))
	for i := 0; i < n; i++ {
		a, c := i%k, (i+1)%k
		fmt.Fprintf(&b, "  - {from: S%d, action: in, assign: {v%d: p}, to: R%d}\n", i, a, i)
		act := "report"
		if i == n-1 {
			act = "final"
		}
		fmt.Fprintf(&b, "  - {from: R%d, action: %s, guard: \"q == v%d + v%d\", to: S%d}\n", i, act, a, c, (i+1)%n)
	}
	s, err := specfile.ParseModel("ring.yaml", []byte(b.String()), nil)
	if err != nil {
		tb.Fatal(err)
	}
	purpose := `kind: purpose
name: ring-final-42
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: final, guard: "q == 42", to: A}
  - {from: W, action: final, guard: "q != 42", to: X}
`
	tp, err = specfile.ParseModel("ring-purpose.yaml", []byte(purpose), s)
	if err != nil {
		tb.Fatal(err)
	}
	return s, tp
}

// BenchmarkRing measures whole generation (canonical tester, product,
// analysis, selection) on the ring family, per domain and size.
func BenchmarkRing(b *testing.B) {
	for _, domain := range []string{"interval", "polyhedra"} {
		for _, n := range []int{100, 200, 400, 800} {
			b.Run(fmt.Sprintf("%s/N=%d/K=4", domain, n), func(b *testing.B) {
				s, tp := ring(b, n, 4)
				for i := 0; i < b.N; i++ {
					ctx := newContext(b)
					if _, err := Models(ctx, s, tp, Options{Domain: domain}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestRingSmall keeps the benchmark's model honest: a small ring
// generates a test case that can reach Pass.
func TestRingSmall(t *testing.T) {
	s, tp := ring(t, 6, 4)
	ctx := newContext(t)
	res, err := Models(ctx, s, tp, Options{Domain: "polyhedra"})
	if err != nil {
		t.Fatal(err)
	}
	checkDeterministic(t, ctx, res.Testcase)
	checkReceiveComplete(t, ctx, res.Testcase)
	if !passReachable(t, ctx, res.Testcase, 12) {
		t.Errorf("Pass unreachable in the ring test case")
	}
}

// ring2 returns the family of issues 15 and 25 (package internal/ring):
// a ring of n stages over four variables; stage i reads an input p in
// [0, 100] into a, b or c (by turns) and records i in s, then the SUT
// answers out(r) with either r == a + b && r < 150 or r >= 150. The
// purpose big accepts the answer 170 of the last stage, which only the
// second branch allows.
func ring2(tb testing.TB, n int) (s, tp *spec.Model) {
	tb.Helper()
	return parsePair(tb, ringfam.Spec(n), ringfam.Purpose(n))
}

// wide returns a spec with k independent numeric variables: a chain of
// n stages, stage i reads p into v[i mod k] when p is in [0, 100] and
// answers ok(r) with r == v[i mod k] + 1; the purpose accepts an ok of
// 50 at the last stage. The variables never meet in one constraint, the
// case where a polyhedra domain split into independent blocks would
// pay off.
func wide(tb testing.TB, n, k int) (s, tp *spec.Model) {
	tb.Helper()
	var b strings.Builder
	b.WriteString("kind: spec\nname: wide\nvariables:\n")
	var init []string
	for j := 0; j < k; j++ {
		fmt.Fprintf(&b, "  v%d: int\n", j)
		init = append(init, fmt.Sprintf("v%d == 0", j))
	}
	b.WriteString("  s: int\nactions:\n  in: {dir: input, params: {p: int}}\n  ok: {dir: output, params: {r: int}}\n")
	fmt.Fprintf(&b, "initial: {location: S0, condition: %q}\ntransitions:\n", strings.Join(init, " && ")+" && s == 0")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - {from: S%d, action: in, guard: \"p >= 0 && p <= 100\", assign: {v%d: p, s: %d}, to: R%d}\n", i, i%k, i, i)
		fmt.Fprintf(&b, "  - {from: R%d, action: ok, guard: \"r == v%d + 1\", to: S%d}\n", i, i%k, (i+1)%n)
	}
	return parsePair(tb, b.String(), fmt.Sprintf(`kind: purpose
name: fifty
variables: {}
initial: {location: W}
accept: [A]
transitions:
  - {from: W, action: ok, guard: "s == %d && r == 50", to: A}
`, n-1))
}

func parsePair(tb testing.TB, specText, purposeText string) (s, tp *spec.Model) {
	tb.Helper()
	s, err := specfile.ParseModel("spec.yaml", []byte(specText), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tp, err = specfile.ParseModel("purpose.yaml", []byte(purposeText), s)
	if err != nil {
		tb.Fatal(err)
	}
	return s, tp
}

// BenchmarkRing2 measures whole generation on the family of issue 15
// with the polyhedra domain, N = 100 … 3,200, and reports the Z3 work
// per generation (checks, tactics, memo hits, questions settled by
// the selection's polyhedra).
func BenchmarkRing2(b *testing.B) {
	for _, n := range []int{100, 200, 400, 800, 1600, 3200} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			s, tp := ring2(b, n)
			benchModels(b, s, tp)
		})
	}
}

// BenchmarkWide measures generation with K = 4, 8 and 12 independent
// variables (N = 24 stages): the polyhedra analysis grows exponentially
// in K (0.05 s, 1 s, about 50 s), since its loop head links every
// variable to the stage counter (coreach/README.md); the selection's
// questions stay cheap, decided in independent blocks of polyhedra.
func BenchmarkWide(b *testing.B) {
	for _, k := range []int{4, 8, 12} {
		b.Run(fmt.Sprintf("N=24/K=%d", k), func(b *testing.B) {
			s, tp := wide(b, 24, k)
			benchModels(b, s, tp)
		})
	}
}

func benchModels(b *testing.B, s, tp *spec.Model) {
	var st solver.Stats
	for i := 0; i < b.N; i++ {
		ctx := newContext(b)
		if _, err := Models(ctx, s, tp, Options{Domain: "polyhedra"}); err != nil {
			b.Fatal(err)
		}
		st = ctx.Stats()
	}
	b.ReportMetric(float64(st.Checks), "checks/op")
	b.ReportMetric(float64(st.Tactics), "tactics/op")
	b.ReportMetric(float64(st.Hits), "hits/op")
	b.ReportMetric(float64(st.Settled), "settled/op")
}
