package expr

import (
	"go/ast"
	"math/big"
)

// builtin reads a call of a built-in function, in Go's spelling where Go
// has one: ite(c, a, b), min(a, b, ...), max(a, b, ...), abs(a) and the
// conversion real(x) of an int. min, max and abs are written with Cond:
// min(a, b) is ite(a <= b, a, b), abs(a) is ite(a >= 0, a, -a). ok is
// false when name is not a built-in.
func (c *checker) builtin(name string, n *ast.CallExpr) (e Expr, ok bool) {
	e, ok = c.builtinCall(name, n)
	if ok && e != bad {
		e = c.expanded(e, n.Pos(), name)
	}
	return e, ok
}

func (c *checker) builtinCall(name string, n *ast.CallExpr) (e Expr, ok bool) {
	switch name {
	case "ite", "min", "max", "abs", "real":
	default:
		return nil, false
	}
	args := make([]Expr, len(n.Args))
	for i, a := range n.Args {
		if args[i] = c.expr(a); args[i].Type().Kind == Invalid {
			return bad, true
		}
	}
	p := c.pos(n.Pos())
	arity := map[string]int{"ite": 3, "abs": 1, "real": 1}[name]
	if arity > 0 && len(args) != arity || arity == 0 && len(args) == 0 {
		want := "at least 1 argument"
		if arity > 0 {
			want = map[int]string{1: "1 argument", 3: "3 arguments"}[arity]
		}
		c.errorf(n.Pos(), "%s takes %s, got %d", name, want, len(args))
		return bad, true
	}
	switch name {
	case "ite":
		if args[0].Type() != BoolType {
			c.errorf(n.Args[0].Pos(), "condition %s of ite has type %s, want bool", Format(args[0]), args[0].Type())
			return bad, true
		}
		x, y, ok := c.unifyArgs(n, name, args[1], args[2])
		if !ok {
			return bad, true
		}
		return &Cond{If: args[0], Then: x, Else: y, At: p}, true
	case "real":
		switch args[0].Type() {
		case IntType:
			if r, ok := AsReal(args[0]); ok {
				return r, true
			}
			return &Unary{Op: ToReal, X: args[0], At: p}, true
		case RealType:
			c.errorf(n.Args[0].Pos(), "real(%s): %s is already a real", Format(args[0]), Format(args[0]))
		default:
			c.errorf(n.Args[0].Pos(), "real() converts an int, not %s (type %s)", Format(args[0]), args[0].Type())
		}
		return bad, true
	case "abs":
		x := args[0]
		if !x.Type().IsNumeric() {
			c.errorf(n.Args[0].Pos(), "abs is defined on numbers, not %s (type %s)", Format(x), x.Type())
			return bad, true
		}
		switch l := x.(type) {
		case *IntLit:
			return &IntLit{Val: new(big.Int).Abs(l.Val), At: p}, true
		case *RealLit:
			return &RealLit{Val: new(big.Rat).Abs(l.Val), At: p}, true
		}
		return &Cond{If: &Binary{Op: Ge, X: x, Y: zeroOf(x.Type()), At: p}, Then: x, Else: &Unary{Op: Neg, X: x, At: p}, At: p}, true
	}
	// min and max fold left: min(a, b, c) is min(min(a, b), c).
	op := Le
	if name == "max" {
		op = Ge
	}
	r := args[0]
	if !r.Type().IsNumeric() {
		c.errorf(n.Args[0].Pos(), "%s is defined on numbers, not %s (type %s)", name, Format(r), r.Type())
		return bad, true
	}
	for _, y := range args[1:] {
		x, y, ok := c.unifyArgs(n, name, r, y)
		if !ok {
			return bad, true
		}
		r = &Cond{If: &Binary{Op: op, X: x, Y: y, At: p}, Then: x, Else: y, At: p}
	}
	return r, true
}

// unifyArgs gives two arguments of a built-in the same type, as unify
// does for operands: only an integer constant next to a real becomes
// real; an int expression needs real().
func (c *checker) unifyArgs(n *ast.CallExpr, name string, x, y Expr) (Expr, Expr, bool) {
	tx, ty := x.Type(), y.Type()
	switch {
	case tx == ty:
		return x, y, true
	case tx == RealType && ty == IntType:
		if r, ok := AsReal(y); ok {
			return x, r, true
		}
	case tx == IntType && ty == RealType:
		if r, ok := AsReal(x); ok {
			return r, y, true
		}
	}
	hint := ""
	if tx.IsNumeric() && ty.IsNumeric() {
		hint = " (convert the int with real())"
	}
	c.errorf(n.Pos(), "mismatched types %s and %s in %s(..., %s, %s)%s", tx, ty, name, Format(x), Format(y), hint)
	return x, y, false
}

func zeroOf(t Type) Expr {
	if t == RealType {
		return &RealLit{Val: new(big.Rat)}
	}
	return &IntLit{Val: new(big.Int)}
}
