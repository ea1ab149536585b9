package instantiate

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// fig4 is Qui-Donc's Fig. 4 suite with its test cases (filtering, K =
// 2), generated once for the tests that read it (TestGenerateExamples,
// TestQuidoncFigures, TestQuidoncToursKillMutants), on fig4.ctx, which
// TestMain closes. The tests of this package run one after the other, so
// they share the context.
var fig4 struct {
	ctx  *solver.Context
	once sync.Once
	s    *spec.Model
	su   *Suite
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fig4.ctx != nil {
		fig4.ctx.Close()
	}
	os.Exit(code)
}

// fig4Suite returns the context, the spec and the suite of fig4.
func fig4Suite(t *testing.T) (*solver.Context, *spec.Model, *Suite) {
	t.Helper()
	fig4.once.Do(func() {
		fig4.ctx, fig4.err = solver.NewContext()
		if fig4.err != nil {
			return
		}
		var tp *spec.Model
		if fig4.s, fig4.err = specfile.LoadFile(examplePairs[0].spec, nil); fig4.err != nil {
			return
		}
		if tp, fig4.err = specfile.LoadFile(examplePairs[0].purpose, fig4.s); fig4.err != nil {
			return
		}
		fig4.su, fig4.err = Generate(fig4.ctx, fig4.s, tp, Options{Reflexive: 2, Testcases: true})
	})
	if fig4.err != nil {
		t.Fatal(fmt.Errorf("quidonc fig4, K = 2: %w", fig4.err))
	}
	return fig4.ctx, fig4.s, fig4.su
}
