package symex

import (
	"bytes"
	"testing"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// TestConditionSameTree unfolds every example to height 5 (at most 300
// nodes) twice, the solver asked about the nodes' conditions (local.go)
// and about their path conditions: the trees print alike, so a child is
// pruned on its condition exactly when its path condition is
// unsatisfiable.
func TestConditionSameTree(t *testing.T) {
	z := newContext(t)
	for name, m := range exampleSpecs(t) {
		var out [2]bytes.Buffer
		for i, noLocal := range []bool{false, true} {
			e, err := NewExecutor(z, m, Options{Depth: 5, MaxNodes: 300})
			if err != nil {
				t.Fatal(err)
			}
			e.noLocal = noLocal
			tr, err := e.Execute(nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := WriteText(&out[i], tr.Nodes, m.Variables, nil); err != nil {
				t.Fatal(err)
			}
		}
		if out[0].String() != out[1].String() {
			t.Errorf("%s: the trees differ:\n%s\nwith path conditions:\n%s", name, out[0].String(), out[1].String())
		}
	}
}

// TestConditionEquivalent checks each node's condition against its path
// condition with Z3 as the oracle: the path condition implies it
// (PC ∧ ¬cond unsatisfiable), and each of up to three models of the
// condition extends to a model of the path condition (the eliminated
// parameters exist), on the trees of every example (height 5, at most
// 50 nodes; 150 with STG_LONG=1).
func TestConditionEquivalent(t *testing.T) {
	z := newContext(t)
	reduced, points := 0, 0
	for name, m := range exampleSpecs(t) {
		tr := execute(t, z, m, Options{Depth: 5, MaxNodes: testlong.Runs(50, 150)})
		for _, n := range tr.Nodes {
			if n.red == nil || n.red == n.State.PC || n.Unknown {
				continue
			}
			reduced++
			if r, err := z.Sat(expr.AndOf(n.State.PC, expr.NotOf(n.red))); err == nil && r != solver.Unsat {
				t.Errorf("%s %s: the path condition does not imply the condition %s", name, n.PathString(), expr.Format(n.red))
			}
			points += checkExtends(t, z, name, n)
		}
	}
	if reduced == 0 || points == 0 {
		t.Errorf("%d nodes' conditions differ from their path conditions, %d points checked", reduced, points)
	}
	t.Logf("%d conditions, %d points", reduced, points)
}

// checkExtends takes up to three models of n's condition and checks
// that each, on the condition's symbols, satisfies n's path condition.
// It returns how many it checked.
func checkExtends(t *testing.T, z *solver.Context, name string, n *Node) (checked int) {
	t.Helper()
	var syms []*expr.Ident
	seen := map[string]bool{}
	expr.Idents(n.red, func(id *expr.Ident) {
		if !seen[id.Name] {
			seen[id.Name] = true
			syms = append(syms, id)
		}
	})
	block := []expr.Expr{n.red}
	for i := 0; i < 3; i++ {
		val, ok, err := z.Model(expr.AndOf(block...))
		if err != nil || !ok {
			return checked
		}
		var point []expr.Expr
		for _, id := range syms {
			if x, ok := val.Vars[id.Name]; ok {
				point = append(point, expr.Compare(expr.Eq, id, x.Expr()))
			}
		}
		r, err := z.Sat(expr.AndOf(append(point, n.State.PC)...))
		if err == nil && r != solver.Sat {
			t.Errorf("%s %s: %s satisfies the condition, not the path condition", name, n.PathString(), expr.Format(expr.AndOf(point...)))
			return checked
		}
		checked++
		if len(point) == 0 {
			return checked
		}
		block = append(block, expr.NotOf(expr.AndOf(point...)))
	}
	return checked
}
