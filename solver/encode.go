package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/stg-tool/stg/spec"
)

// encode translates e into a Z3 term. It type-checks as it goes rather
// than trusting e.Type(): an ill-formed tree must give an error, never a
// panic or an ill-sorted Z3 term. Every term made is referenced in the
// scratch list; the caller releases it.
func (c *Context) encode(e spec.Expr) (a C.Z3_ast, t spec.Type, err error) {
	defer func() {
		if r := recover(); r != nil {
			a, t, err = nil, spec.Type{}, fmt.Errorf("solver: malformed expression: %v", r)
		}
	}()
	return c.enc(e)
}

// encodeBool encodes a predicate.
func (c *Context) encodeBool(e spec.Expr) (C.Z3_ast, error) {
	a, t, err := c.encode(e)
	if err != nil {
		return nil, err
	}
	if t != spec.BoolType {
		return nil, fmt.Errorf("solver: %s has type %s, want bool", spec.Format(e), t)
	}
	return a, nil
}

func (c *Context) enc(e spec.Expr) (C.Z3_ast, spec.Type, error) {
	switch e := e.(type) {
	case *spec.IntLit:
		if e == nil || e.Val == nil {
			break
		}
		a, err := c.numeral(e.Val.String(), c.intSort)
		return a, spec.IntType, err
	case *spec.RealLit:
		if e == nil || e.Val == nil {
			break
		}
		a, err := c.numeral(e.Val.RatString(), c.realSort)
		return a, spec.RealType, err
	case *spec.BoolLit:
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
		return a, spec.BoolType, err
	case *spec.EnumLit:
		if e == nil {
			break
		}
		es, err := c.enum(e.Enum)
		if err != nil {
			return nil, spec.Type{}, err
		}
		if e.Index < 0 || e.Index >= len(es.consts) {
			return nil, spec.Type{}, fmt.Errorf("solver: enum constant index %d out of range for %s", e.Index, e.Enum.Name)
		}
		return es.consts[e.Index], spec.EnumType(e.Enum), nil
	case *spec.StrLit:
		if e == nil {
			break
		}
		return c.encStrLit(e)
	case *spec.StrCall:
		if e == nil {
			break
		}
		return c.encStr(e)
	case *spec.Ident:
		if e == nil {
			break
		}
		a, err := c.ident(e)
		return a, e.T, err
	case *spec.Unary:
		if e == nil {
			break
		}
		x, t, err := c.enc(e.X)
		if err != nil {
			return nil, t, err
		}
		switch e.Op {
		case spec.Not:
			if t != spec.BoolType {
				return nil, t, typeError(e, "operand of ! has type %s", t)
			}
			a, err := c.temp(C.Z3_mk_not(c.z, x), "not")
			return a, t, err
		case spec.Neg:
			if !t.IsNumeric() {
				return nil, t, typeError(e, "operand of unary - has type %s", t)
			}
			a, err := c.temp(C.Z3_mk_unary_minus(c.z, x), "unary minus")
			return a, t, err
		case spec.ToReal:
			if t != spec.IntType {
				return nil, t, typeError(e, "operand of real() has type %s", t)
			}
			a, err := c.temp(C.Z3_mk_int2real(c.z, x), "real()")
			return a, spec.RealType, err
		}
		return nil, spec.Type{}, typeError(e, "unknown unary operator %d", int(e.Op))
	case *spec.Binary:
		if e == nil {
			break
		}
		return c.encBinary(e)
	case *spec.Call:
		if e == nil {
			break
		}
		return c.encCall(e)
	case *spec.Cond:
		if e == nil {
			break
		}
		return c.encCond(e)
	}
	return nil, spec.Type{}, fmt.Errorf("solver: cannot translate expression %T", e)
}

func typeError(e spec.Expr, format string, args ...any) error {
	return fmt.Errorf("solver: ill-typed expression %s: %s", safeFormat(e), fmt.Sprintf(format, args...))
}

// safeFormat prints e, or a placeholder if printing a malformed tree panics.
func safeFormat(e spec.Expr) (s string) {
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("%T", e)
		}
	}()
	return spec.Format(e)
}

func (c *Context) numeral(text string, s C.Z3_sort) (C.Z3_ast, error) {
	cs := C.CString(text)
	defer C.free(unsafe.Pointer(cs))
	return c.temp(C.Z3_mk_numeral(c.z, cs, s), "numeral "+text)
}

func (c *Context) encBinary(e *spec.Binary) (C.Z3_ast, spec.Type, error) {
	if e.Op == spec.And || e.Op == spec.Or {
		// Flatten chains (AndOf builds them left-deep) into one n-ary term.
		var ops []spec.Expr
		flattenOp(e.Op, e, &ops)
		var merged []C.Z3_ast
		if e.Op == spec.And {
			var err error
			if ops, merged, err = c.mergeMatches(ops); err != nil {
				return nil, spec.BoolType, err
			}
		}
		args := make([]C.Z3_ast, len(ops), len(ops)+len(merged)+1)
		for i, o := range ops {
			a, t, err := c.enc(o)
			if err != nil {
				return nil, t, err
			}
			if t != spec.BoolType {
				return nil, t, typeError(e, "operand %s of %s has type %s", safeFormat(o), e.Op, t)
			}
			args[i] = a
		}
		args = append(args, merged...)
		var r C.Z3_ast
		if e.Op == spec.And {
			r = C.Z3_mk_and(c.z, C.uint(len(args)), &args[0])
		} else {
			r = C.Z3_mk_or(c.z, C.uint(len(args)), &args[0])
		}
		a, err := c.temp(r, e.Op.String())
		return a, spec.BoolType, err
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
		return nil, spec.Type{}, typeError(e, "mismatched operand types %s and %s", tx, ty)
	}
	t := tx
	args := [2]C.Z3_ast{x, y}
	var r C.Z3_ast
	switch e.Op {
	case spec.Add, spec.Sub, spec.Mul, spec.Div:
		if !t.IsNumeric() {
			return nil, t, typeError(e, "operator %s on %s", e.Op, t)
		}
		switch e.Op {
		case spec.Add:
			r = C.Z3_mk_add(c.z, 2, &args[0])
		case spec.Sub:
			r = C.Z3_mk_sub(c.z, 2, &args[0])
		case spec.Mul:
			r = C.Z3_mk_mul(c.z, 2, &args[0])
		case spec.Div:
			// On Int sorts Z3_mk_div is SMT-LIB div: Euclidean, as ours.
			r = C.Z3_mk_div(c.z, x, y)
		}
	case spec.Mod:
		if t != spec.IntType {
			return nil, t, typeError(e, "operator %% on %s", t)
		}
		r = C.Z3_mk_mod(c.z, x, y)
	case spec.Eq, spec.Ne:
		if t.Kind == spec.Invalid {
			return nil, t, typeError(e, "invalid operand type")
		}
		r = C.Z3_mk_eq(c.z, x, y)
		if e.Op == spec.Ne {
			eq, err := c.temp(r, "==")
			if err != nil {
				return nil, t, err
			}
			r = C.Z3_mk_not(c.z, eq)
		}
		t = spec.BoolType
	case spec.Lt, spec.Le, spec.Gt, spec.Ge:
		if t == spec.StringType {
			r = c.strCompare(e.Op, x, y)
			t = spec.BoolType
			break
		}
		if !t.IsNumeric() {
			return nil, t, typeError(e, "operator %s on %s", e.Op, t)
		}
		switch e.Op {
		case spec.Lt:
			r = C.Z3_mk_lt(c.z, x, y)
		case spec.Le:
			r = C.Z3_mk_le(c.z, x, y)
		case spec.Gt:
			r = C.Z3_mk_gt(c.z, x, y)
		case spec.Ge:
			r = C.Z3_mk_ge(c.z, x, y)
		}
		t = spec.BoolType
	default:
		return nil, spec.Type{}, typeError(e, "unknown binary operator %d", int(e.Op))
	}
	a, err := c.temp(r, e.Op.String())
	return a, t, err
}

// flattenOp collects the operands of a chain of op (iteratively on the
// left spine, which is where AndOf and OrOf grow).
func flattenOp(op spec.Op, e spec.Expr, acc *[]spec.Expr) {
	var right []spec.Expr
	for {
		b, ok := e.(*spec.Binary)
		if !ok || b == nil || b.Op != op {
			break
		}
		right = append(right, b.Y)
		e = b.X
	}
	*acc = append(*acc, e)
	for i := len(right) - 1; i >= 0; i-- {
		if b, ok := right[i].(*spec.Binary); ok && b != nil && b.Op == op {
			flattenOp(op, b, acc)
		} else {
			*acc = append(*acc, right[i])
		}
	}
}

func (c *Context) encCall(e *spec.Call) (C.Z3_ast, spec.Type, error) {
	args := make([]C.Z3_ast, len(e.Args)+1) // +1: never empty
	types := make([]spec.Type, len(e.Args))
	for i, x := range e.Args {
		a, t, err := c.enc(x)
		if err != nil {
			return nil, t, err
		}
		args[i], types[i] = a, t
	}
	f, err := c.function(e.Func, types, e.T)
	if err != nil {
		return nil, spec.Type{}, err
	}
	a, err := c.temp(C.Z3_mk_app(c.z, f, C.uint(len(e.Args)), &args[0]), "call "+e.Func)
	return a, e.T, err
}

// encCond encodes ite(If, Then, Else) as Z3's ite.
func (c *Context) encCond(e *spec.Cond) (C.Z3_ast, spec.Type, error) {
	cond, tc, err := c.enc(e.If)
	if err != nil {
		return nil, tc, err
	}
	if tc != spec.BoolType {
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
		return nil, spec.Type{}, typeError(e, "mismatched branch types %s and %s", tx, ty)
	}
	a, err := c.temp(C.Z3_mk_ite(c.z, cond, x, y), "ite")
	return a, tx, err
}
