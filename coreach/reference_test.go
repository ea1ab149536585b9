package coreach_test

import (
	"fmt"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/internal/ring"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
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
		s, err := specfile.LoadFile(ex.Spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		tp, err := specfile.LoadFile(ex.Purpose, s)
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
					gx, wx expr.Expr
				}{{"reach", got.ReachOf(l), want.ReachOf(l)}, {"coreach", got.CoreachOf(l), want.CoreachOf(l)}} {
					if ok, err := ctx.Equivalent(c.gx, c.wx); err != nil || !ok {
						t.Errorf("%s/%s: %s(%s) = %s, reference %s (%v)", pr.name, dom.Name(), c.what, l, expr.Format(c.gx), expr.Format(c.wx), err)
					}
				}
			}
		}
	}
}

// ring2 is the ring family of the generation benchmarks (internal/ring).
func ring2(t *testing.T, n int) (s, tp *spec.Model) {
	t.Helper()
	s, err := specfile.ParseModel("ring2.yaml", []byte(ring.Spec(n)), nil)
	if err != nil {
		t.Fatal(err)
	}
	tp, err = specfile.ParseModel("big.yaml", []byte(ring.Purpose(n)), s)
	if err != nil {
		t.Fatal(err)
	}
	return s, tp
}
