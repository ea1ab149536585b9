package coreach_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/spec"
)

// TestSameAsReference: the compiled guards (one meet per conjunction
// with polyhedra) and the worklist narrowing give, on every example and
// on rings of issue 15's family, the same reach and coreach sets as the
// plain algorithm (every guard met as a predicate, full sweeps), checked
// with Z3.
func TestSameAsReference(t *testing.T) {
	ctx := newContext(t)
	type pair struct {
		name  string
		s, tp *spec.Model
	}
	var pairs []pair
	for _, ex := range examples(t) {
		s, err := spec.LoadFile(ex.Spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		tp, err := spec.LoadFile(ex.Purpose, s)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, pair{ex.Name, s, tp})
	}
	for _, n := range []int{5, 30} {
		s, tp := ring2(t, n)
		pairs = append(pairs, pair{fmt.Sprintf("ring2/%d", n), s, tp})
	}
	for _, pr := range pairs {
		p := buildModels(t, ctx, pr.s, pr.tp)
		for _, dom := range []abstraction.Domain{abstraction.Intervals(), abstraction.Polyhedra()} {
			got, err := coreach.Analyze(p, dom, coreach.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want, err := coreach.AnalyzeReference(p, dom, coreach.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range p.Locations {
				if l == p.Fail {
					continue
				}
				for _, c := range []struct {
					what   string
					gx, wx spec.Expr
				}{{"reach", got.ReachOf(l), want.ReachOf(l)}, {"coreach", got.CoreachOf(l), want.CoreachOf(l)}} {
					if ok, err := ctx.Equivalent(c.gx, c.wx); err != nil || !ok {
						t.Errorf("%s/%s: %s(%s) = %s, reference %s (%v)", pr.name, dom.Name(), c.what, l, spec.Format(c.gx), spec.Format(c.wx), err)
					}
				}
			}
		}
	}
}

// ring2 is the family of issue 15 (see pipeline's BenchmarkRing2).
func ring2(t *testing.T, n int) (s, tp *spec.Model) {
	t.Helper()
	var b strings.Builder
	b.WriteString("kind: spec\nname: ring2\nvariables: {a: int, b: int, c: int, s: int}\n")
	b.WriteString("actions:\n  in: {dir: input, params: {p: int}}\n  out: {dir: output, params: {r: int}}\n")
	b.WriteString("initial: {location: S0, condition: \"a == 0 && b == 0 && c == 0 && s == 0\"}\ntransitions:\n")
	for i := 0; i < n; i++ {
		v, j := "abc"[i%3:i%3+1], (i+1)%n
		fmt.Fprintf(&b, "  - {from: S%d, action: in, guard: \"p >= 0 && p <= 100\", assign: {%s: p, s: %d}, to: R%d}\n", i, v, i, i)
		fmt.Fprintf(&b, "  - {from: R%d, action: out, guard: \"r == a + b && r < 150\", to: S%d}\n", i, j)
		fmt.Fprintf(&b, "  - {from: R%d, action: out, guard: \"r >= 150\", to: S%d}\n", i, j)
	}
	s, err := spec.ParseModel("ring2.yaml", []byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	tp, err = spec.ParseModel("big.yaml", []byte(fmt.Sprintf("kind: purpose\nname: big\nvariables: {}\ninitial: {location: W}\naccept: [A]\ntransitions:\n  - {from: W, action: out, guard: \"s == %d && r == 170\", to: A}\n", n-1)), s)
	if err != nil {
		t.Fatal(err)
	}
	return s, tp
}
