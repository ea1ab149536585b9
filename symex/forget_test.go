package symex

import (
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// TestForget checks which conjuncts a satisfiable node's condition
// keeps: those linked by shared symbols to a variable's value, and a
// group that calls an external function (shared by the whole path);
// a group over forgotten symbols alone is left out, and a ground
// comparison folds.
func TestForget(t *testing.T) {
	sym := func(name string) *expr.Ident { return &expr.Ident{Name: name, Kind: expr.VarIdent, T: expr.IntType} }
	gt := func(x expr.Expr, v int64) expr.Expr { return expr.Compare(expr.Gt, x, expr.IntConst(v)) }
	a, b, c, d, f := sym("a@1"), sym("a@2"), sym("a@3"), sym("a@4"), sym("a@5")
	call := &expr.Call{Func: "g", Args: []expr.Expr{d}, T: expr.IntType}
	ground := expr.OrOf(gt(expr.IntConst(3), 2), gt(c, 0)) // 3 > 2 || a@3 > 0: true
	linked := expr.Compare(expr.Lt, b, a)                  // a@2 < a@1, a@1 is x's value
	for _, tc := range []struct {
		name string
		pc   []expr.Expr
		want []expr.Expr
	}{
		{"linked kept", []expr.Expr{gt(a, 0), gt(b, 0), linked}, []expr.Expr{gt(a, 0), gt(b, 0), linked}},
		{"forgotten dropped", []expr.Expr{gt(a, 0), gt(c, 0), expr.Compare(expr.Lt, c, f)}, []expr.Expr{gt(a, 0)}},
		{"ground folded", []expr.Expr{gt(a, 0), ground}, []expr.Expr{gt(a, 0)}},
		{"call kept", []expr.Expr{gt(a, 0), expr.Compare(expr.Eq, call, expr.IntConst(3))}, []expr.Expr{gt(a, 0), expr.Compare(expr.Eq, call, expr.IntConst(3))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &Executor{}
			st := &State{Loc: "L", Vars: map[string]expr.Expr{"x": a, "n": expr.IntConst(4)}, PC: expr.AndOf(tc.pc...)}
			got := e.forget(st.PC, st)
			if g, w := expr.Format(got), expr.Format(expr.AndOf(tc.want...)); g != w {
				t.Errorf("forget(%s) = %s, want %s", expr.Format(st.PC), g, w)
			}
		})
	}
}

// TestForgetBoundsConditions unfolds examples/atm restricted by
// inclusion: withdrawals refused again and again make paths of more
// than 60 steps whose path conditions grow with them, while the
// conditions the solver is asked about keep to the symbols of the
// balance and the amount asked for.
func TestForgetBoundsConditions(t *testing.T) {
	m, err := specfile.LoadFile(filepath.Join("..", "examples", "atm", "spec.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := execute(t, newContext(t), m, Options{Inclusion: true, MaxNodes: 600})
	maxPC, maxCond := 0, 0
	for _, n := range tr.Nodes {
		maxPC = max(maxPC, len(expr.Conjuncts(n.State.PC)))
		maxCond = max(maxCond, len(expr.Conjuncts(n.cond())))
	}
	if tr.Stats.LongestPath < 60 || maxPC < 60 || maxCond > 20 {
		t.Errorf("longest path %d, path conditions up to %d conjuncts, conditions up to %d; want >= 60, >= 60, <= 20",
			tr.Stats.LongestPath, maxPC, maxCond)
	}
	t.Logf("longest path %d, path conditions up to %d conjuncts, conditions up to %d", tr.Stats.LongestPath, maxPC, maxCond)
}

// TestForgetChildAgrees checks the shortcut of forgetChild against
// forget on every node of every example's tree (height 6): the same
// condition.
func TestForgetChildAgrees(t *testing.T) {
	z := newContext(t)
	short := 0
	for name, m := range exampleSpecs(t) {
		e, err := NewExecutor(z, m, Options{Depth: 6, MaxNodes: 400})
		if err != nil {
			t.Fatal(err)
		}
		tr, err := e.Execute(nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range tr.Nodes {
			if n.Parent == nil || !n.forgot || !n.Parent.forgot {
				continue
			}
			red, err := e.reduce(n.Parent, n.State, n.Args)
			if err != nil {
				t.Fatal(err)
			}
			full := e.forget(red, n.State)
			if g, w := expr.Format(e.forgetChild(n.Parent, red, n.State)), expr.Format(full); g != w {
				t.Errorf("%s %s: forgetChild %s, forget %s", name, n.PathString(), g, w)
			}
			short++
		}
	}
	t.Logf("%d nodes", short)
}
