package symex

import (
	"testing"

	"github.com/stg-tool/stg/spec"
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
		t.Errorf("before the bet: δ under %s, want always (%v)", spec.Format(q), err)
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
		t.Errorf("after the bet: δ possible under %s (%v), want never", spec.Format(q), err)
	}
	// Without ∃: ¬π(t) for the win's target alone is satisfiable by a
	// cash value other than 10 times the bet.
	var naive []spec.Expr
	for _, c := range bet.Children {
		if c.Node.Action.Dir == spec.Output {
			naive = append(naive, spec.NotOf(c.Node.State.PC))
		}
	}
	if ok, _ := z.Possible(spec.AndOf(append(naive, bet.Node.State.PC)...)); !ok {
		t.Error("the naive condition (no ∃) is already unsatisfiable: the test shows nothing")
	}
	// An external constraint that excludes the win leaves quiescence
	// possible where only the win could answer.
	w := &spec.Ident{Name: "SM.w@0", Kind: spec.VarIdent, T: spec.BoolType}
	bet0 := bet.Node.Args[0]
	ec := spec.NotOf(spec.AndOf(w, spec.Compare(spec.Lt, spec.IntConst(0), bet0), spec.Compare(spec.Le, bet0, spec.IntConst(100))))
	q, err = TauQuiescence(z, bet, ec)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := z.Possible(spec.AndOf(q, w)); err != nil || !ok {
		t.Errorf("with the win excluded by the external constraint, δ is impossible under %s", spec.Format(q))
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
	if ok, err := z.Valid(spec.Compare(spec.Eq, q, spec.Compare(spec.Le, p, spec.IntConst(0)))); err != nil || !ok {
		t.Errorf("δ after in?%s: %s, want %s <= 0", p.Name, spec.Format(q), p.Name)
	}
}
