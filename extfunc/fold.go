package extfunc

import (
	"github.com/stg-tool/stg/spec"
)

// Fold returns e with every call whose arguments are constants (after
// folding the calls inside them) replaced by its result from c, so that
// a predicate whose calls have become ground can be evaluated exactly.
// Calls over identifiers stay. An error of c is returned: the caller
// cannot decide e.
func Fold(e spec.Expr, c spec.Caller) (spec.Expr, error) {
	if c == nil || !HasCall(e) {
		return e, nil
	}
	return fold(e, c)
}

func fold(e spec.Expr, c spec.Caller) (spec.Expr, error) {
	switch e := e.(type) {
	case *spec.Unary:
		x, err := fold(e.X, c)
		if err != nil || x == e.X {
			return e, err
		}
		return &spec.Unary{Op: e.Op, X: x, At: e.At}, nil
	case *spec.Binary:
		x, err := fold(e.X, c)
		if err != nil {
			return e, err
		}
		// Short-circuit as Eval does: a call in Y is not made when X
		// decides (the guard "I > 200 && RISE(I) <= 1" never asks
		// RISE(150)).
		if e.Op == spec.And || e.Op == spec.Or {
			if v, ok := constant(x); ok && v.T == spec.BoolType {
				if v.Bool == (e.Op == spec.Or) {
					return spec.BoolConst(v.Bool), nil
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
		return &spec.Binary{Op: e.Op, X: x, Y: y, At: e.At}, nil
	case *spec.Cond:
		cond, err := fold(e.If, c)
		if err != nil {
			return e, err
		}
		if v, ok := constant(cond); ok && v.T == spec.BoolType {
			if v.Bool {
				return fold(e.Then, c)
			}
			return fold(e.Else, c)
		}
		var parts [3]spec.Expr
		for i, x := range []spec.Expr{e.If, e.Then, e.Else} {
			y, err := fold(x, c)
			if err != nil {
				return e, err
			}
			parts[i] = y
		}
		if parts[0] == e.If && parts[1] == e.Then && parts[2] == e.Else {
			return e, nil
		}
		return &spec.Cond{If: parts[0], Then: parts[1], Else: parts[2], At: e.At}, nil
	case *spec.Call:
		return foldCall(e, c)
	}
	return e, nil
}

// foldCall folds the arguments of a call, then the call itself when they
// are all constants.
func foldCall(e *spec.Call, c spec.Caller) (spec.Expr, error) {
	args := make([]spec.Expr, len(e.Args))
	vals := make([]spec.Value, len(e.Args))
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
		return &spec.Call{Func: e.Func, Args: args, T: e.T, At: e.At, Lens: e.Lens}, nil
	}
	v, err := c.Call(e.Func, vals)
	if err != nil {
		return e, err
	}
	if v.T != e.T {
		return e, &CallError{Call: spec.Format(e), Msg: "ill-typed result " + v.String() + " of type " + v.T.String() + ", want " + e.T.String()}
	}
	return v.Expr(), nil
}

// constant returns the value of a literal, or of a constant expression
// without identifiers and calls (a negative literal is -(5)).
func constant(e spec.Expr) (spec.Value, bool) {
	switch e.(type) {
	case *spec.IntLit, *spec.RealLit, *spec.BoolLit, *spec.EnumLit, *spec.Unary, *spec.Binary, *spec.Cond:
	default:
		return spec.Value{}, false
	}
	if HasCall(e) || hasIdent(e) {
		return spec.Value{}, false
	}
	v, err := spec.Eval(e, spec.Valuation{})
	return v, err == nil
}

// HasCall reports whether e calls an external function.
func HasCall(e spec.Expr) bool {
	switch e := e.(type) {
	case *spec.Call:
		return true
	case *spec.Unary:
		return HasCall(e.X)
	case *spec.Binary:
		return HasCall(e.X) || HasCall(e.Y)
	case *spec.Cond:
		return HasCall(e.If) || HasCall(e.Then) || HasCall(e.Else)
	}
	return false
}

func hasIdent(e spec.Expr) bool {
	found := false
	spec.Idents(e, func(*spec.Ident) { found = true })
	return found
}
