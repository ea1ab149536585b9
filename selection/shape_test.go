package selection

import (
	"math/big"
	"testing"

	"github.com/stg-tool/stg/spec"
)

// TestShapeKey: expressions built anew with the same structure share a
// key, and every structural difference that matters to the conversion
// (operator, literal, identifier's name, kind or type, operand order)
// gives another key; unsupported nodes have none.
func TestShapeKey(t *testing.T) {
	id := func(name string, kind spec.IdentKind, ty spec.Type) spec.Expr {
		return &spec.Ident{Name: name, Kind: kind, T: ty}
	}
	x := func() spec.Expr { return id("x", spec.VarIdent, spec.IntType) }
	forms := []func() spec.Expr{
		func() spec.Expr { return spec.Compare(spec.Le, x(), spec.IntConst(12)) },
		func() spec.Expr { return spec.Compare(spec.Le, x(), spec.IntConst(1)) },
		func() spec.Expr { return spec.Compare(spec.Lt, x(), spec.IntConst(12)) },
		func() spec.Expr { return spec.Compare(spec.Le, spec.IntConst(12), x()) },
		func() spec.Expr {
			return spec.Compare(spec.Le, id("x", spec.ParamIdent, spec.IntType), spec.IntConst(12))
		},
		func() spec.Expr {
			return spec.Compare(spec.Le, id("x", spec.VarIdent, spec.RealType), spec.IntConst(12))
		},
		func() spec.Expr { return spec.Compare(spec.Le, x(), spec.RatConst(big.NewRat(12, 1))) },
		func() spec.Expr { return spec.Compare(spec.Le, x(), spec.RatConst(big.NewRat(1, 2))) },
		func() spec.Expr { return spec.Compare(spec.Le, x(), spec.IntConst(-12)) },
		func() spec.Expr {
			return spec.Compare(spec.Eq, spec.Arith(spec.Add, id("ab", spec.VarIdent, spec.IntType), id("c", spec.VarIdent, spec.IntType)), spec.IntConst(0))
		},
		func() spec.Expr {
			return spec.Compare(spec.Eq, spec.Arith(spec.Add, id("a", spec.VarIdent, spec.IntType), id("bc", spec.VarIdent, spec.IntType)), spec.IntConst(0))
		},
		func() spec.Expr {
			return spec.Compare(spec.Eq, spec.Arith(spec.Sub, id("a", spec.VarIdent, spec.IntType), id("bc", spec.VarIdent, spec.IntType)), spec.IntConst(0))
		},
		func() spec.Expr { return spec.Compare(spec.Eq, &spec.Unary{Op: spec.Neg, X: x()}, spec.IntConst(0)) },
		func() spec.Expr { return spec.Compare(spec.Eq, x(), spec.IntConst(0)) },
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
	call := spec.Compare(spec.Le, &spec.Call{Func: "f", T: spec.IntType}, spec.IntConst(0))
	if _, ok := shapeKey(nil, call); ok {
		t.Errorf("a call has a shape key")
	}
}
