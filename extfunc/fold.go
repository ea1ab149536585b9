package extfunc

import (
	"github.com/stg-tool/stg/spec/expr"
)

// Fold returns e with every call whose arguments are constants (after
// folding the calls inside them) replaced by its result from c, so that
// a predicate whose calls have become ground can be evaluated exactly.
// Calls over identifiers stay. An error of c is returned: the caller
// cannot decide e.
func Fold(e expr.Expr, c expr.Caller) (expr.Expr, error) {
	if c == nil || !HasCall(e) {
		return e, nil
	}
	return fold(e, c)
}

func fold(e expr.Expr, c expr.Caller) (expr.Expr, error) {
	switch e := e.(type) {
	case *expr.Unary:
		x, err := fold(e.X, c)
		if err != nil || x == e.X {
			return e, err
		}
		return &expr.Unary{Op: e.Op, X: x, At: e.At}, nil
	case *expr.Binary:
		x, err := fold(e.X, c)
		if err != nil {
			return e, err
		}
		// Short-circuit as Eval does: a call in Y is not made when X
		// decides (the guard "I > 200 && RISE(I) <= 1" never asks
		// RISE(150)).
		if e.Op == expr.And || e.Op == expr.Or {
			if v, ok := constant(x); ok && v.T == expr.BoolType {
				if v.Bool == (e.Op == expr.Or) {
					return expr.BoolConst(v.Bool), nil
				}
				return fold(e.Y, c)
			}
		}
		y, err := fold(e.Y, c)
		if err != nil {
			return e, err
		}
		if x == e.X && y == e.Y {
			return e, nil
		}
		return &expr.Binary{Op: e.Op, X: x, Y: y, At: e.At}, nil
	case *expr.Cond:
		cond, err := fold(e.If, c)
		if err != nil {
			return e, err
		}
		if v, ok := constant(cond); ok && v.T == expr.BoolType {
			if v.Bool {
				return fold(e.Then, c)
			}
			return fold(e.Else, c)
		}
		var parts [3]expr.Expr
		for i, x := range []expr.Expr{e.If, e.Then, e.Else} {
			y, err := fold(x, c)
			if err != nil {
				return e, err
			}
			parts[i] = y
		}
		if parts[0] == e.If && parts[1] == e.Then && parts[2] == e.Else {
			return e, nil
		}
		return &expr.Cond{If: parts[0], Then: parts[1], Else: parts[2], At: e.At}, nil
	case *expr.Call:
		return foldCall(e, c)
	}
	return e, nil
}

// foldCall folds the arguments of a call, then the call itself when they
// are all constants.
func foldCall(e *expr.Call, c expr.Caller) (expr.Expr, error) {
	args := make([]expr.Expr, len(e.Args))
	vals := make([]expr.Value, len(e.Args))
	changed, ground := false, true
	for i, a := range e.Args {
		x, err := fold(a, c)
		if err != nil {
			return e, err
		}
		args[i], changed = x, changed || x != a
		if v, ok := constant(x); ok {
			vals[i] = v
		} else {
			ground = false
		}
	}
	if !ground {
		if !changed {
			return e, nil
		}
		return &expr.Call{Func: e.Func, Args: args, T: e.T, At: e.At, Lens: e.Lens}, nil
	}
	v, err := c.Call(e.Func, vals)
	if err != nil {
		return e, err
	}
	if v.T != e.T {
		return e, &CallError{Call: expr.Format(e), Msg: "ill-typed result " + v.String() + " of type " + v.T.String() + ", want " + e.T.String()}
	}
	return v.Expr(), nil
}

// constant returns the value of a literal, or of a constant expression
// without identifiers and calls (a negative literal is -(5)).
func constant(e expr.Expr) (expr.Value, bool) {
	switch e.(type) {
	case *expr.IntLit, *expr.RealLit, *expr.BoolLit, *expr.EnumLit, *expr.Unary, *expr.Binary, *expr.Cond:
	default:
		return expr.Value{}, false
	}
	if HasCall(e) || hasIdent(e) {
		return expr.Value{}, false
	}
	v, err := expr.Eval(e, expr.Valuation{})
	return v, err == nil
}

// HasCall reports whether e calls an external function.
func HasCall(e expr.Expr) bool {
	switch e := e.(type) {
	case *expr.Call:
		return true
	case *expr.Unary:
		return HasCall(e.X)
	case *expr.Binary:
		return HasCall(e.X) || HasCall(e.Y)
	case *expr.Cond:
		return HasCall(e.If) || HasCall(e.Then) || HasCall(e.Else)
	}
	return false
}

func hasIdent(e expr.Expr) bool {
	found := false
	expr.Idents(e, func(*expr.Ident) { found = true })
	return found
}
