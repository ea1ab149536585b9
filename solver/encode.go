package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/stg-tool/stg/spec/expr"
)

// encode translates e into a Z3 term. It type-checks as it goes rather
// than trusting e.Type(): an ill-formed tree must give an error, never a
// panic or an ill-sorted Z3 term. Every term made is referenced in the
// scratch list; the caller releases it.
func (c *Context) encode(e expr.Expr) (a C.Z3_ast, t expr.Type, err error) {
	defer func() {
		if r := recover(); r != nil {
			a, t, err = nil, expr.Type{}, fmt.Errorf("solver: malformed expression: %v", r)
		}
	}()
	return c.enc(e)
}

// encodeBool encodes a predicate.
func (c *Context) encodeBool(e expr.Expr) (C.Z3_ast, error) {
	a, t, err := c.encode(e)
	if err != nil {
		return nil, err
	}
	if t != expr.BoolType {
		return nil, fmt.Errorf("solver: %s has type %s, want bool", expr.Format(e), t)
	}
	return a, nil
}

func (c *Context) enc(e expr.Expr) (C.Z3_ast, expr.Type, error) {
	switch e := e.(type) {
	case *expr.IntLit:
		if e == nil || e.Val == nil {
			break
		}
		a, err := c.numeral(e.Val.String(), c.intSort)
		return a, expr.IntType, err
	case *expr.RealLit:
		if e == nil || e.Val == nil {
			break
		}
		a, err := c.numeral(e.Val.RatString(), c.realSort)
		return a, expr.RealType, err
	case *expr.BoolLit:
		if e == nil {
			break
		}
		var a C.Z3_ast
		if e.Val {
			a = C.Z3_mk_true(c.z)
		} else {
			a = C.Z3_mk_false(c.z)
		}
		a, err := c.temp(a, "make bool")
		return a, expr.BoolType, err
	case *expr.EnumLit:
		if e == nil {
			break
		}
		es, err := c.enum(e.Enum)
		if err != nil {
			return nil, expr.Type{}, err
		}
		if e.Index < 0 || e.Index >= len(es.consts) {
			return nil, expr.Type{}, fmt.Errorf("solver: enum constant index %d out of range for %s", e.Index, e.Enum.Name)
		}
		return es.consts[e.Index], expr.EnumType(e.Enum), nil
	case *expr.StrLit:
		if e == nil {
			break
		}
		return c.encStrLit(e)
	case *expr.StrCall:
		if e == nil {
			break
		}
		return c.encStr(e)
	case *expr.Ident:
		if e == nil {
			break
		}
		a, err := c.ident(e)
		return a, e.T, err
	case *expr.Unary:
		if e == nil {
			break
		}
		x, t, err := c.enc(e.X)
		if err != nil {
			return nil, t, err
		}
		switch e.Op {
		case expr.Not:
			if t != expr.BoolType {
				return nil, t, typeError(e, "operand of ! has type %s", t)
			}
			a, err := c.temp(C.Z3_mk_not(c.z, x), "not")
			return a, t, err
		case expr.Neg:
			if !t.IsNumeric() {
				return nil, t, typeError(e, "operand of unary - has type %s", t)
			}
			a, err := c.temp(C.Z3_mk_unary_minus(c.z, x), "unary minus")
			return a, t, err
		case expr.ToReal:
			if t != expr.IntType {
				return nil, t, typeError(e, "operand of real() has type %s", t)
			}
			a, err := c.temp(C.Z3_mk_int2real(c.z, x), "real()")
			return a, expr.RealType, err
		}
		return nil, expr.Type{}, typeError(e, "unknown unary operator %d", int(e.Op))
	case *expr.Binary:
		if e == nil {
			break
		}
		return c.encBinary(e)
	case *expr.Call:
		if e == nil {
			break
		}
		return c.encCall(e)
	case *expr.Cond:
		if e == nil {
			break
		}
		return c.encCond(e)
	}
	return nil, expr.Type{}, fmt.Errorf("solver: cannot translate expression %T", e)
}

func typeError(e expr.Expr, format string, args ...any) error {
	return fmt.Errorf("solver: ill-typed expression %s: %s", safeFormat(e), fmt.Sprintf(format, args...))
}

// safeFormat prints e, or a placeholder if printing a malformed tree panics.
func safeFormat(e expr.Expr) (s string) {
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("%T", e)
		}
	}()
	return expr.Format(e)
}

func (c *Context) numeral(text string, s C.Z3_sort) (C.Z3_ast, error) {
	cs := C.CString(text)
	defer C.free(unsafe.Pointer(cs))
	return c.temp(C.Z3_mk_numeral(c.z, cs, s), "numeral "+text)
}

func (c *Context) encBinary(e *expr.Binary) (C.Z3_ast, expr.Type, error) {
	if e.Op == expr.And || e.Op == expr.Or {
		// Flatten chains (AndOf builds them left-deep) into one n-ary term.
		var ops []expr.Expr
		flattenOp(e.Op, e, &ops)
		var merged []C.Z3_ast
		if e.Op == expr.And {
			var err error
			if ops, merged, err = c.mergeMatches(ops); err != nil {
				return nil, expr.BoolType, err
			}
		}
		args := make([]C.Z3_ast, len(ops), len(ops)+len(merged)+1)
		for i, o := range ops {
			a, t, err := c.enc(o)
			if err != nil {
				return nil, t, err
			}
			if t != expr.BoolType {
				return nil, t, typeError(e, "operand %s of %s has type %s", safeFormat(o), e.Op, t)
			}
			args[i] = a
		}
		args = append(args, merged...)
		var r C.Z3_ast
		if e.Op == expr.And {
			r = C.Z3_mk_and(c.z, C.uint(len(args)), &args[0])
		} else {
			r = C.Z3_mk_or(c.z, C.uint(len(args)), &args[0])
		}
		a, err := c.temp(r, e.Op.String())
		return a, expr.BoolType, err
	}
	x, tx, err := c.enc(e.X)
	if err != nil {
		return nil, tx, err
	}
	y, ty, err := c.enc(e.Y)
	if err != nil {
		return nil, ty, err
	}
	if tx != ty {
		return nil, expr.Type{}, typeError(e, "mismatched operand types %s and %s", tx, ty)
	}
	t := tx
	args := [2]C.Z3_ast{x, y}
	var r C.Z3_ast
	switch e.Op {
	case expr.Add, expr.Sub, expr.Mul, expr.Div:
		if !t.IsNumeric() {
			return nil, t, typeError(e, "operator %s on %s", e.Op, t)
		}
		switch e.Op {
		case expr.Add:
			r = C.Z3_mk_add(c.z, 2, &args[0])
		case expr.Sub:
			r = C.Z3_mk_sub(c.z, 2, &args[0])
		case expr.Mul:
			r = C.Z3_mk_mul(c.z, 2, &args[0])
		case expr.Div:
			// On Int sorts Z3_mk_div is SMT-LIB div: Euclidean, as ours.
			r = C.Z3_mk_div(c.z, x, y)
		}
	case expr.Mod:
		if t != expr.IntType {
			return nil, t, typeError(e, "operator %% on %s", t)
		}
		r = C.Z3_mk_mod(c.z, x, y)
	case expr.Eq, expr.Ne:
		if t.Kind == expr.Invalid {
			return nil, t, typeError(e, "invalid operand type")
		}
		r = C.Z3_mk_eq(c.z, x, y)
		if e.Op == expr.Ne {
			eq, err := c.temp(r, "==")
			if err != nil {
				return nil, t, err
			}
			r = C.Z3_mk_not(c.z, eq)
		}
		t = expr.BoolType
	case expr.Lt, expr.Le, expr.Gt, expr.Ge:
		if t == expr.StringType {
			r = c.strCompare(e.Op, x, y)
			t = expr.BoolType
			break
		}
		if !t.IsNumeric() {
			return nil, t, typeError(e, "operator %s on %s", e.Op, t)
		}
		switch e.Op {
		case expr.Lt:
			r = C.Z3_mk_lt(c.z, x, y)
		case expr.Le:
			r = C.Z3_mk_le(c.z, x, y)
		case expr.Gt:
			r = C.Z3_mk_gt(c.z, x, y)
		case expr.Ge:
			r = C.Z3_mk_ge(c.z, x, y)
		}
		t = expr.BoolType
	default:
		return nil, expr.Type{}, typeError(e, "unknown binary operator %d", int(e.Op))
	}
	a, err := c.temp(r, e.Op.String())
	return a, t, err
}

// flattenOp collects the operands of a chain of op (iteratively on the
// left spine, which is where AndOf and OrOf grow).
func flattenOp(op expr.Op, e expr.Expr, acc *[]expr.Expr) {
	var right []expr.Expr
	for {
		b, ok := e.(*expr.Binary)
		if !ok || b == nil || b.Op != op {
			break
		}
		right = append(right, b.Y)
		e = b.X
	}
	*acc = append(*acc, e)
	for i := len(right) - 1; i >= 0; i-- {
		if b, ok := right[i].(*expr.Binary); ok && b != nil && b.Op == op {
			flattenOp(op, b, acc)
		} else {
			*acc = append(*acc, right[i])
		}
	}
}

func (c *Context) encCall(e *expr.Call) (C.Z3_ast, expr.Type, error) {
	args := make([]C.Z3_ast, len(e.Args)+1) // +1: never empty
	types := make([]expr.Type, len(e.Args))
	for i, x := range e.Args {
		a, t, err := c.enc(x)
		if err != nil {
			return nil, t, err
		}
		args[i], types[i] = a, t
	}
	f, err := c.function(e.Func, types, e.T)
	if err != nil {
		return nil, expr.Type{}, err
	}
	a, err := c.temp(C.Z3_mk_app(c.z, f, C.uint(len(e.Args)), &args[0]), "call "+e.Func)
	return a, e.T, err
}

// encCond encodes ite(If, Then, Else) as Z3's ite.
func (c *Context) encCond(e *expr.Cond) (C.Z3_ast, expr.Type, error) {
	cond, tc, err := c.enc(e.If)
	if err != nil {
		return nil, tc, err
	}
	if tc != expr.BoolType {
		return nil, tc, typeError(e, "condition of ite has type %s", tc)
	}
	x, tx, err := c.enc(e.Then)
	if err != nil {
		return nil, tx, err
	}
	y, ty, err := c.enc(e.Else)
	if err != nil {
		return nil, ty, err
	}
	if tx != ty {
		return nil, expr.Type{}, typeError(e, "mismatched branch types %s and %s", tx, ty)
	}
	a, err := c.temp(C.Z3_mk_ite(c.z, cond, x, y), "ite")
	return a, tx, err
}
