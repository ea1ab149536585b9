package symex

import (
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// exampleSpecs returns the specs of the bundled examples.
func exampleSpecs(t testing.TB) map[string]*spec.Model {
	t.Helper()
	files, err := filepath.Glob("../examples/*/spec.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example specs: %v", err)
	}
	out := map[string]*spec.Model{}
	for _, f := range files {
		m, err := specfile.LoadFile(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(filepath.Dir(f))] = m
	}
	return out
}

// TestInclusionSoundOnExamples checks restriction by inclusion with Z3 as
// the oracle, without quantifier elimination: for every node cut by
// inclusion, concrete states of it (models of its path condition, several
// per node) are states of the node that includes it; and every node of
// the tree has a satisfiable path condition. The default run explores
// trees of at most 50 nodes; STG_LONG=1 150.
func TestInclusionSoundOnExamples(t *testing.T) {
	z := newContext(t)
	specs := exampleSpecs(t)
	progress := testlong.NewProgress(t, "specs", len(specs))
	for name, m := range specs {
		progress.Add(1)
		tr := execute(t, z, m, Options{Inclusion: true, MaxNodes: testlong.Runs(25, 150)})
		for _, n := range tr.Nodes {
			if r, err := z.Sat(n.State.PC); err == nil && r == solver.Unsat {
				t.Errorf("%s %s: unsatisfiable node kept", name, n.PathString())
			}
			if n.CutBy == nil {
				continue
			}
			checkCovered(t, z, name, n, n.CutBy)
		}
	}
}

// checkCovered samples up to 5 concrete states of n and checks that each
// is a state of b.
func checkCovered(t *testing.T, z *solver.Context, name string, n, b *Node) {
	t.Helper()
	block := []expr.Expr{binding(n.State, nil)}
	for i := 0; i < 5; i++ {
		val, ok, err := z.Model(expr.AndOf(block...))
		if err != nil || !ok {
			return
		}
		var point []expr.Expr
		for _, v := range sortedNames(n.State.Vars) {
			x, ok := val.Vars[v]
			if !ok {
				continue
			}
			id := &expr.Ident{Name: v, Kind: expr.VarIdent, T: x.T}
			point = append(point, expr.Compare(expr.Eq, id, x.Expr()))
		}
		r, err := z.Sat(expr.AndOf(append(point, binding(b.State, map[string]*expr.Ident{}))...))
		if err != nil {
			continue // undecided: nothing to conclude
		}
		if r != solver.Sat {
			t.Errorf("%s %s cut by %s, but its state %v is not one of %s's", name, n.PathString(), b.PathString(), expr.AndOf(point...), b.PathString())
			return
		}
		block = append(block, expr.NotOf(expr.AndOf(point...)))
	}
}
