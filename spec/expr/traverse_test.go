package expr

import (
	"math/big"
	"testing"
)

// TestTraverseEveryKind: the traversal reaches into every node kind, a
// call under a string built-in included (len(name(p)) > 3, where name is
// an external function returning a string), and Transform rebuilds only
// what changes.
func TestTraverseEveryKind(t *testing.T) {
	p := &Ident{Name: "p", Kind: ParamIdent, T: IntType}
	call := &Call{Func: "name", Args: []Expr{p}, T: StringType}
	three := &IntLit{Val: big.NewInt(3)}
	lenCall := &StrCall{Fn: StrLen, Args: []Expr{call}}
	for _, tc := range []struct {
		name  string
		e     Expr
		nodes int
	}{
		{"literal", three, 1},
		{"ident", p, 1},
		{"unary", &Unary{Op: Neg, X: p}, 2},
		{"binary", &Binary{Op: Gt, X: lenCall, Y: three}, 5},
		{"cond", &Cond{If: &BoolLit{Val: true}, Then: p, Else: three}, 4},
		{"call", call, 2},
		{"strcall", lenCall, 3},
	} {
		n := 0
		Inspect(tc.e, func(Expr) { n++ })
		if n != tc.nodes {
			t.Errorf("%s: %d nodes visited, want %d", tc.name, n, tc.nodes)
		}
		if got := Transform(tc.e, func(x Expr) Expr { return x }); got != tc.e {
			t.Errorf("%s: the identity transform rebuilt the tree", tc.name)
		}
	}
	g := &Binary{Op: Gt, X: lenCall, Y: three}
	if !Contains(g, func(x Expr) bool { _, ok := x.(*Call); return ok }) {
		t.Error("Contains misses the call under len(...)")
	}
	q := &Ident{Name: "q", Kind: ParamIdent, T: IntType}
	r := Rewrite(g, func(id *Ident) Expr {
		if id.Name == "p" {
			return q
		}
		return nil
	})
	if !Mentions(r, ParamIdent, "q") || Mentions(r, ParamIdent, "p") || !Mentions(g, ParamIdent, "p") {
		t.Errorf("Rewrite under a string call: %s", Format(r))
	}
}

// TestTransformAllocatesOnlyWhatChanges: the identity transform of a
// tree of every kind allocates nothing, and a rewrite of one argument of
// a call copies the argument list, sharing the other arguments and
// leaving the original call as it was.
func TestTransformAllocatesOnlyWhatChanges(t *testing.T) {
	p := &Ident{Name: "p", Kind: ParamIdent, T: IntType}
	q := &Ident{Name: "q", Kind: ParamIdent, T: IntType}
	three := &IntLit{Val: big.NewInt(3)}
	call := &Call{Func: "f", Args: []Expr{three, p}, T: IntType}
	tree := &Binary{Op: And,
		X: &Cond{If: &BoolLit{Val: true}, Then: &Unary{Op: Neg, X: call}, Else: three},
		Y: &Binary{Op: Gt, X: &StrCall{Fn: StrLen, Args: []Expr{&Call{Func: "name", Args: []Expr{p}, T: StringType}}}, Y: three}}
	id := func(x Expr) Expr { return x }
	if n := testing.AllocsPerRun(10, func() { Transform(tree, id) }); n != 0 {
		t.Errorf("the identity transform allocates %v objects, want 0", n)
	}
	r, ok := Rewrite(call, func(id *Ident) Expr {
		if id.Name == "p" {
			return q
		}
		return nil
	}).(*Call)
	if !ok || r == call || r.Args[0] != three || r.Args[1] != q || call.Args[1] != p {
		t.Errorf("rewriting p in f(3, p): got %s, original now %s", Format(r), Format(call))
	}
}

// TestAppendConjuncts: AppendConjuncts extends dst by exactly the
// conjuncts of Conjuncts, in order.
func TestAppendConjuncts(t *testing.T) {
	a := &Ident{Name: "a", Kind: VarIdent, T: BoolType}
	b := &Ident{Name: "b", Kind: VarIdent, T: BoolType}
	c := &Ident{Name: "c", Kind: VarIdent, T: BoolType}
	for _, e := range []Expr{a, AndOf(a, b), AndOf(AndOf(a, OrOf(b, c)), c)} {
		want := Conjuncts(e)
		got := AppendConjuncts([]Expr{c}, e)
		if len(got) != len(want)+1 || got[0] != c {
			t.Fatalf("%s: AppendConjuncts gave %d, want %d after the first", Format(e), len(got), len(want))
		}
		for i, x := range want {
			if got[i+1] != x {
				t.Errorf("%s: conjunct %d is %s, want %s", Format(e), i, Format(got[i+1]), Format(x))
			}
		}
	}
}
