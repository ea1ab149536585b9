package symex

import (
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// TestGrownBy checks the new conjuncts of a child's path condition read
// off its chain against those found by comparison (newConjuncts), and
// foldChild against FoldGround of the whole, on every node of every
// example's tree (height 5): the same conjuncts, the same printed path
// condition.
func TestGrownBy(t *testing.T) {
	z := newContext(t)
	checked := 0
	for name, m := range exampleSpecs(t) {
		tr := execute(t, z, m, Options{Depth: 5, MaxNodes: 300})
		for _, n := range tr.Nodes {
			if n.Parent == nil {
				continue
			}
			pc, parent := n.State.PC, n.Parent.State.PC
			added, ok := grownBy(pc, parent)
			if !ok {
				continue
			}
			checked++
			if g, w := expr.Format(expr.AndOf(added...)), expr.Format(expr.AndOf(newConjuncts(pc, parent)...)); g != w {
				t.Errorf("%s %s: grownBy %s, newConjuncts %s", name, n.PathString(), g, w)
			}
			if g, w := expr.Format(foldChild(pc, parent)), expr.Format(FoldGround(pc)); g != w {
				t.Errorf("%s %s: foldChild %s, FoldGround %s", name, n.PathString(), g, w)
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d nodes extend their parent's chain", checked)
	}
	t.Logf("%d nodes", checked)
}

// TestFoldChild: a false new conjunct makes the whole false, true ones
// drop, and a path condition that does not extend its parent's is
// folded whole.
func TestFoldChild(t *testing.T) {
	a := &expr.Ident{Name: "a@1", Kind: expr.VarIdent, T: expr.IntType}
	gt := func(x expr.Expr, v int64) expr.Expr { return expr.Compare(expr.Gt, x, expr.IntConst(v)) }
	parent := expr.AndOf(gt(a, 0), gt(a, 1))
	for _, tc := range []struct {
		name     string
		pc, want expr.Expr
	}{
		{"true dropped", expr.AndOf(parent, gt(expr.IntConst(2), 1), gt(a, 2)), expr.AndOf(gt(a, 0), gt(a, 1), gt(a, 2))},
		{"false", expr.AndOf(parent, gt(a, 2), gt(expr.IntConst(1), 2)), expr.False()},
		{"not extending", expr.AndOf(gt(a, 0), gt(expr.IntConst(2), 1), gt(a, 1)), parent},
		{"nothing new", parent, parent},
	} {
		if g, w := expr.Format(foldChild(tc.pc, parent)), expr.Format(tc.want); g != w {
			t.Errorf("%s: foldChild = %s, want %s", tc.name, g, w)
		}
	}
}
