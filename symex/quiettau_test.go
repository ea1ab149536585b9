package symex

import (
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// TestTauQuiescenceSlot: Def 14 on the slot machine's τ-reduced tree.
// Before the bet only internal steps lead to the player's bet?, so the
// machine is quiescent there (out_η is empty); after a bet it is not:
// refused! covers the bets outside (0, 100], and the win and the loss,
// whose cash! values are fresh (∃ needed), cover the others. Without
// the ∃ the fresh values would leave room for δ.
func TestTauQuiescenceSlot(t *testing.T) {
	z := newContext(t)
	red := TauReduce(execute(t, z, slotModel(t), Options{Inclusion: true}).Root)
	q, err := TauQuiescence(z, red, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := z.Valid(q); err != nil || !ok {
		t.Errorf("before the bet: δ under %s, want always (%v)", expr.Format(q), err)
	}
	bet := red.Children[0]
	if bet.Node.Action.Name != "bet" {
		t.Fatalf("first visible step %s, want bet?", bet.Label())
	}
	q, err = TauQuiescence(z, bet, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := z.Possible(q); err != nil || ok {
		t.Errorf("after the bet: δ possible under %s (%v), want never", expr.Format(q), err)
	}
	// Without ∃: ¬π(t) for the win's target alone is satisfiable by a
	// cash value other than 10 times the bet.
	var naive []expr.Expr
	for _, c := range bet.Children {
		if c.Node.Action.Dir == spec.Output {
			naive = append(naive, expr.NotOf(c.Node.State.PC))
		}
	}
	if ok, _ := z.Possible(expr.AndOf(append(naive, bet.Node.State.PC)...)); !ok {
		t.Error("the naive condition (no ∃) is already unsatisfiable: the test shows nothing")
	}
	// An external constraint that excludes the win leaves quiescence
	// possible where only the win could answer.
	w := &expr.Ident{Name: "SM.w@0", Kind: expr.VarIdent, T: expr.BoolType}
	bet0 := bet.Node.Args[0]
	ec := expr.NotOf(expr.AndOf(w, expr.Compare(expr.Lt, expr.IntConst(0), bet0), expr.Compare(expr.Le, bet0, expr.IntConst(100))))
	q, err = TauQuiescence(z, bet, ec)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := z.Possible(expr.AndOf(q, w)); err != nil || !ok {
		t.Errorf("with the win excluded by the external constraint, δ is impossible under %s", expr.Format(q))
	}
}

// TestTauQuiescenceEnds: an internal chain that ends the tree adds no
// conjunct (over-approximation); an output behind two internal steps
// does.
func TestTauQuiescenceEnds(t *testing.T) {
	z := newContext(t)
	red := reducedTauChain(t, z) // tau_test.go
	in := red.Children[0]
	q, err := TauQuiescence(z, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := in.Node.Args[0]
	if ok, err := z.Valid(expr.Compare(expr.Eq, q, expr.Compare(expr.Le, p, expr.IntConst(0)))); err != nil || !ok {
		t.Errorf("δ after in?%s: %s, want %s <= 0", p.Name, expr.Format(q), p.Name)
	}
}
