package instantiate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

func load(t *testing.T, specPath, purposePath string) (*spec.Model, *spec.Model) {
	t.Helper()
	s, err := spec.LoadFile(specPath, nil)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := spec.LoadFile(purposePath, s)
	if err != nil {
		t.Fatal(err)
	}
	return s, tp
}

func newContext(t *testing.T) *solver.Context {
	t.Helper()
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ctx.Close)
	return ctx
}

func describe(inst *Instance) string {
	var b strings.Builder
	for _, st := range inst.Steps {
		mark := ""
		if st.Reflexive {
			mark = "+"
		}
		fmt.Fprintf(&b, "%s%s%v ", mark, st.Transition.Name, st.Args)
	}
	return b.String()
}

func TestQuidoncSuite(t *testing.T) {
	s, tp := load(t, "../examples/quidonc/spec.yaml", "../examples/quidonc/purpose-fig4.yaml")
	ctx := newContext(t)
	for _, k := range []int{0, 1, 2, 3} {
		su, err := Generate(ctx, s, tp, Options{Reflexive: k, Testcases: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("K=%d %+v", k, su.Stats)
		for i, p := range su.Symbolic {
			var acts []string
			for _, tr := range p {
				acts = append(acts, tr.Action)
			}
			if su.Instances[i] != nil {
				t.Logf("  %v -> %s", acts, describe(su.Instances[i]))
				f, err := check.All(ctx, su.Testcases[i])
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("  check: %+v", f)
			} else {
				t.Logf("  %v: %v", acts, su.Reasons[i])
			}
		}
	}
}
