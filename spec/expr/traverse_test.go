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
