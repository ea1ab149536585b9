package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
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
	s, err := spec.ParseModel("ring.yaml", []byte(b.String()), nil)
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
	tp, err = spec.ParseModel("ring-purpose.yaml", []byte(purpose), s)
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
