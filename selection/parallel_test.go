package selection

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/canonical"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/internal/exampletest"
	"github.com/stg-tool/stg/internal/ring"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// TestSelectWorkersEquivalent: on the ring family and on every example
// purpose (whose products are below parallelFrom: the workers are
// forced), the test case of three workers has the transitions of one
// worker's with equivalent guards (Z3), and two runs with three workers
// on the ring give the same bytes.
func TestSelectWorkersEquivalent(t *testing.T) {
	type pair struct{ name, spec, purpose string }
	pairs := []pair{{"ring-40", ring.Spec(40), ring.Purpose(40)}}
	for _, p := range exampletest.Pairs(t, "..") {
		pairs = append(pairs, pair{name: p.Name, spec: "@" + p.Spec, purpose: "@" + p.Purpose})
	}
	compared := 0
	for _, pr := range pairs {
		s, tp := loadPair(t, pr.spec, pr.purpose) // loaded once: the enumerations of both test cases are the same
		one, err1 := selectPair(t, s, tp, 1)
		three, err3 := selectPair(t, s, tp, 3)
		var u *UnreachableError
		switch {
		case err1 == errSkip:
			continue
		case errors.As(err1, &u) && errors.As(err3, &u):
			continue
		case err1 != nil || err3 != nil:
			t.Fatalf("%s: one worker: %v; three: %v", pr.name, err1, err3)
		}
		if compared == 0 { // the ring, the largest: scheduling varies most
			again, _ := selectPair(t, s, tp, 3)
			if !bytes.Equal(marshal(t, three), marshal(t, again)) {
				t.Errorf("%s: two runs with three workers differ", pr.name)
			}
		}
		sameUpToGuards(t, pr.name, one, three)
		compared++
	}
	if compared < 10 {
		t.Fatalf("only %d test cases compared", compared)
	}
}

var errSkip = errors.New("skipped")

// selectPair selects the test case of the spec s and the purpose tp
// with n workers, in a new solver context; errSkip when the plain
// canonical tester refuses the spec (hidden values, not this test's
// matter).
func selectPair(t *testing.T, s, tp *spec.Model, n int) (*spec.Model, error) {
	t.Helper()
	ctx := exampletest.Context(t)
	can, err := canonical.Build(ctx, s)
	if err != nil {
		return nil, errSkip
	}
	p, err := product.Build(ctx, can, tp)
	if err != nil {
		t.Fatal(err)
	}
	a, err := coreach.Analyze(p, abstraction.Polyhedra(), coreach.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return selectWith(ctx, p, a, n)
}

// sameUpToGuards fails unless a and b have the same transitions in the
// same order, their guards equivalent, and the same locations.
func sameUpToGuards(t *testing.T, name string, a, b *spec.Model) {
	t.Helper()
	ctx := exampletest.Context(t)
	if len(a.Transitions) != len(b.Transitions) || !slices.Equal(a.Locations, b.Locations) {
		t.Errorf("%s: %d and %d transitions, locations %v and %v", name, len(a.Transitions), len(b.Transitions), a.Locations, b.Locations)
		return
	}
	for i, x := range a.Transitions {
		y := b.Transitions[i]
		if x.From != y.From || x.Action != y.Action || x.To != y.To || x.Name != y.Name {
			t.Errorf("%s: transition %d: %s -%s-> %s and %s -%s-> %s", name, i, x.From, x.Action, x.To, y.From, y.Action, y.To)
			continue
		}
		if expr.Equal(x.Guard, y.Guard) {
			continue
		}
		if eq, err := ctx.Equivalent(x.Guard, y.Guard); err != nil || !eq {
			t.Errorf("%s: transition %d: guards %s and %s not shown equivalent (%v)", name, i, expr.Format(x.Guard), expr.Format(y.Guard), err)
		}
	}
}

// loadPair loads a spec and a purpose given as text, or as a file name
// after @.
func loadPair(t *testing.T, s, p string) (*spec.Model, *spec.Model) {
	t.Helper()
	load := func(text string, sp *spec.Model) *spec.Model {
		var m *spec.Model
		var err error
		if text[0] == '@' {
			m, err = specfile.LoadFile(text[1:], sp)
		} else {
			m, err = specfile.ParseModel("model.yaml", []byte(text), sp)
		}
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	sp := load(s, nil)
	return sp, load(p, sp)
}

func marshal(t *testing.T, m *spec.Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := specfile.Write(&buf, m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
