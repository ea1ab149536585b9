package selection

import (
	"math/big"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// TestShapeKey: expressions built anew with the same structure share a
// key, and every structural difference that matters to the conversion
// (operator, literal, identifier's name, kind or type, operand order)
// gives another key; unsupported nodes have none.
func TestShapeKey(t *testing.T) {
	id := func(name string, kind expr.IdentKind, ty expr.Type) expr.Expr {
		return &expr.Ident{Name: name, Kind: kind, T: ty}
	}
	x := func() expr.Expr { return id("x", expr.VarIdent, expr.IntType) }
	forms := []func() expr.Expr{
		func() expr.Expr { return expr.Compare(expr.Le, x(), expr.IntConst(12)) },
		func() expr.Expr { return expr.Compare(expr.Le, x(), expr.IntConst(1)) },
		func() expr.Expr { return expr.Compare(expr.Lt, x(), expr.IntConst(12)) },
		func() expr.Expr { return expr.Compare(expr.Le, expr.IntConst(12), x()) },
		func() expr.Expr {
			return expr.Compare(expr.Le, id("x", expr.ParamIdent, expr.IntType), expr.IntConst(12))
		},
		func() expr.Expr {
			return expr.Compare(expr.Le, id("x", expr.VarIdent, expr.RealType), expr.IntConst(12))
		},
		func() expr.Expr { return expr.Compare(expr.Le, x(), expr.RatConst(big.NewRat(12, 1))) },
		func() expr.Expr { return expr.Compare(expr.Le, x(), expr.RatConst(big.NewRat(1, 2))) },
		func() expr.Expr { return expr.Compare(expr.Le, x(), expr.IntConst(-12)) },
		func() expr.Expr {
			return expr.Compare(expr.Eq, expr.Arith(expr.Add, id("ab", expr.VarIdent, expr.IntType), id("c", expr.VarIdent, expr.IntType)), expr.IntConst(0))
		},
		func() expr.Expr {
			return expr.Compare(expr.Eq, expr.Arith(expr.Add, id("a", expr.VarIdent, expr.IntType), id("bc", expr.VarIdent, expr.IntType)), expr.IntConst(0))
		},
		func() expr.Expr {
			return expr.Compare(expr.Eq, expr.Arith(expr.Sub, id("a", expr.VarIdent, expr.IntType), id("bc", expr.VarIdent, expr.IntType)), expr.IntConst(0))
		},
		func() expr.Expr { return expr.Compare(expr.Eq, &expr.Unary{Op: expr.Neg, X: x()}, expr.IntConst(0)) },
		func() expr.Expr { return expr.Compare(expr.Eq, x(), expr.IntConst(0)) },
	}
	seen := map[string]int{}
	for i, f := range forms {
		k1, ok1 := shapeKey(nil, f())
		k2, ok2 := shapeKey(nil, f())
		if !ok1 || !ok2 || string(k1) != string(k2) {
			t.Fatalf("form %d: keys %q (%v) and %q (%v) of two copies", i, k1, ok1, k2, ok2)
		}
		if j, dup := seen[string(k1)]; dup {
			t.Errorf("forms %d and %d share the key %q", j, i, k1)
		}
		seen[string(k1)] = i
	}
	call := expr.Compare(expr.Le, &expr.Call{Func: "f", T: expr.IntType}, expr.IntConst(0))
	if _, ok := shapeKey(nil, call); ok {
		t.Errorf("a call has a shape key")
	}
}
