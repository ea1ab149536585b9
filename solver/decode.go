package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"fmt"
	"math/big"

	"github.com/stg-tool/stg/spec/expr"
)

// decode translates a quantifier-free Z3 term back into our tree.
//
// The terms come from Z3's simplifier and tactics, which write x > 3 as
// (not (<= x 3)) and x - y as (+ x (* -1 y)); decode undoes these
// normal forms with the spec constructors so that results read like
// something a person wrote. Anything outside the fragment we produce
// (quantifiers, arrays, rem, to_int, ...) is an error.
// Non-Boolean ite terms become expr.Cond, to_real of an int term real().
func (c *Context) decode(a C.Z3_ast) (expr.Expr, error) {
	var n C.stg_node
	C.stg_node_info(c.z, a, &n)
	if err := c.failed("inspect term"); err != nil {
		return nil, err
	}
	switch n.kind {
	case C.Z3_NUMERAL_AST:
		return c.decodeNumeral(a, n.sortKind)
	case C.Z3_APP_AST:
		if C.Z3_is_string(c.z, a) {
			s, err := c.readString(a)
			if err != nil {
				return nil, err
			}
			return &expr.StrLit{Val: s}, nil
		}
	case C.Z3_QUANTIFIER_AST:
		return nil, fmt.Errorf("solver: a quantifier is left in %s", c.termString(a))
	default:
		return nil, fmt.Errorf("solver: cannot translate back %s", c.termString(a))
	}
	args := make([]expr.Expr, n.nargs)
	for i := range args {
		x, err := c.decode(C.stg_arg(c.z, a, C.uint(i)))
		if err != nil {
			return nil, err
		}
		args[i] = x
	}
	switch n.declKind {
	case C.Z3_OP_TRUE:
		return expr.True(), nil
	case C.Z3_OP_FALSE:
		return expr.False(), nil
	case C.Z3_OP_AND:
		return expr.AndOf(args...), nil
	case C.Z3_OP_OR:
		return expr.OrOf(args...), nil
	case C.Z3_OP_NOT:
		if len(args) == 1 {
			return expr.NotOf(args[0]), nil
		}
	case C.Z3_OP_IMPLIES:
		if len(args) == 2 {
			return expr.ImpliesOf(args[0], args[1]), nil
		}
	case C.Z3_OP_IFF, C.Z3_OP_EQ:
		if len(args) == 2 {
			return compare(expr.Eq, args[0], args[1]), nil
		}
	case C.Z3_OP_XOR:
		if len(args) == 2 {
			return compare(expr.Ne, args[0], args[1]), nil
		}
	case C.Z3_OP_DISTINCT:
		var ne []expr.Expr
		for i := range args {
			for j := i + 1; j < len(args); j++ {
				ne = append(ne, compare(expr.Ne, args[i], args[j]))
			}
		}
		return expr.AndOf(ne...), nil
	case C.Z3_OP_ITE:
		if len(args) == 3 && n.sortKind == C.Z3_BOOL_SORT {
			cond, x, y := args[0], args[1], args[2]
			return expr.OrOf(expr.AndOf(cond, x), expr.AndOf(expr.NotOf(cond), y)), nil
		}
		if len(args) == 3 {
			return &expr.Cond{If: args[0], Then: args[1], Else: args[2]}, nil
		}
	case C.Z3_OP_LE, C.Z3_OP_GE, C.Z3_OP_LT, C.Z3_OP_GT:
		if len(args) == 2 {
			op := map[C.Z3_decl_kind]expr.Op{C.Z3_OP_LE: expr.Le, C.Z3_OP_GE: expr.Ge, C.Z3_OP_LT: expr.Lt, C.Z3_OP_GT: expr.Gt}[n.declKind]
			return compare(op, args[0], args[1]), nil
		}
	case C.Z3_OP_ADD:
		if len(args) > 0 {
			return sum(args), nil
		}
	case C.Z3_OP_SUB:
		if len(args) == 1 { // unary and binary minus share a kind
			return negate(args[0]), nil
		}
		if len(args) > 1 {
			terms := []expr.Expr{args[0]}
			for _, x := range args[1:] {
				terms = append(terms, negate(x))
			}
			return sum(terms), nil
		}
	case C.Z3_OP_UMINUS:
		if len(args) == 1 {
			return negate(args[0]), nil
		}
	case C.Z3_OP_MUL:
		if len(args) > 0 {
			return product(args), nil
		}
	case C.Z3_OP_DIV, C.Z3_OP_IDIV:
		if len(args) == 2 {
			return expr.Arith(expr.Div, args[0], args[1]), nil
		}
	case C.Z3_OP_MOD:
		if len(args) == 2 {
			return expr.Arith(expr.Mod, args[0], args[1]), nil
		}
	case C.Z3_OP_TO_REAL:
		if len(args) == 1 {
			if l, ok := args[0].(*expr.IntLit); ok {
				return &expr.RealLit{Val: new(big.Rat).SetInt(l.Val)}, nil
			}
			if args[0].Type() == expr.IntType {
				return &expr.Unary{Op: expr.ToReal, X: args[0]}, nil
			}
		}
	case C.Z3_OP_DT_CONSTRUCTOR:
		if d, ok := c.decls[uint32(n.declID)]; ok && d.enum != nil {
			return &expr.EnumLit{Enum: d.enum, Index: d.index}, nil
		}
	case C.Z3_OP_DT_RECOGNISER, C.Z3_OP_DT_IS:
		// (is-Red x) is x == Red.
		if len(args) == 1 {
			id := C.stg_recognized_id(c.z, a)
			if d, ok := c.decls[uint32(id)]; ok && d.enum != nil && c.failed("recognizer") == nil {
				return compare(expr.Eq, args[0], &expr.EnumLit{Enum: d.enum, Index: d.index}), nil
			}
		}
	case C.Z3_OP_UNINTERPRETED:
		d, ok := c.decls[uint32(n.declID)]
		switch {
		case !ok:
		case d.ident != nil && len(args) == 0:
			return d.ident, nil
		case d.fn != "":
			return &expr.Call{Func: d.fn, Args: args, T: d.t}, nil
		}
	}
	if e, ok := decodeStr(n.declKind, args); ok {
		return e, nil
	}
	return nil, fmt.Errorf("solver: cannot translate back %s", c.termString(a))
}

func (c *Context) termString(a C.Z3_ast) string {
	return C.GoString(C.Z3_ast_to_string(c.z, a))
}

func (c *Context) decodeNumeral(a C.Z3_ast, sk C.Z3_sort_kind) (expr.Expr, error) {
	s := C.GoString(C.Z3_get_numeral_string(c.z, a))
	if err := c.failed("read numeral"); err != nil {
		return nil, err
	}
	switch sk {
	case C.Z3_INT_SORT:
		if v, ok := new(big.Int).SetString(s, 10); ok {
			return &expr.IntLit{Val: v}, nil
		}
	case C.Z3_REAL_SORT:
		if v, ok := new(big.Rat).SetString(s); ok {
			return &expr.RealLit{Val: v}, nil
		}
	}
	return nil, fmt.Errorf("solver: cannot read numeral %q", s)
}

// Readable arithmetic.

// splitNeg writes e as -m when e is visibly negative (a negative
// constant, -x, or a product with a negative constant factor).
func splitNeg(e expr.Expr) (m expr.Expr, neg bool) {
	switch e := e.(type) {
	case *expr.IntLit:
		if e.Val.Sign() < 0 {
			return &expr.IntLit{Val: new(big.Int).Neg(e.Val)}, true
		}
	case *expr.RealLit:
		if e.Val.Sign() < 0 {
			return &expr.RealLit{Val: new(big.Rat).Neg(e.Val)}, true
		}
	case *expr.Unary:
		if e.Op == expr.Neg {
			return e.X, true
		}
	case *expr.Binary:
		if e.Op == expr.Mul {
			if k, neg := splitNeg(e.X); neg && isLit(e.X) {
				if isOne(k) {
					return e.Y, true
				}
				return expr.Arith(expr.Mul, k, e.Y), true
			}
		}
	}
	return e, false
}

// negate returns -e, folding constants and double negation.
func negate(e expr.Expr) expr.Expr {
	if m, neg := splitNeg(e); neg {
		return m
	}
	switch e := e.(type) {
	case *expr.IntLit:
		return &expr.IntLit{Val: new(big.Int).Neg(e.Val)}
	case *expr.RealLit:
		return &expr.RealLit{Val: new(big.Rat).Neg(e.Val)}
	case *expr.Binary:
		if e.Op == expr.Mul && isLit(e.X) {
			k, _ := splitNeg(negate(e.X))
			return expr.Arith(expr.Mul, negLit(k), e.Y)
		}
	}
	return &expr.Unary{Op: expr.Neg, X: e}
}

func negLit(e expr.Expr) expr.Expr {
	switch e := e.(type) {
	case *expr.IntLit:
		return &expr.IntLit{Val: new(big.Int).Neg(e.Val)}
	case *expr.RealLit:
		return &expr.RealLit{Val: new(big.Rat).Neg(e.Val)}
	}
	return e
}

func isLit(e expr.Expr) bool {
	switch e.(type) {
	case *expr.IntLit, *expr.RealLit:
		return true
	}
	return false
}

func isOne(e expr.Expr) bool {
	switch e := e.(type) {
	case *expr.IntLit:
		return e.Val.IsInt64() && e.Val.Int64() == 1
	case *expr.RealLit:
		return e.Val.IsInt() && e.Val.Num().IsInt64() && e.Val.Num().Int64() == 1
	}
	return false
}

func isZero(e expr.Expr) bool {
	switch e := e.(type) {
	case *expr.IntLit:
		return e.Val.Sign() == 0
	case *expr.RealLit:
		return e.Val.Sign() == 0
	}
	return false
}

// sum writes t1 + t2 + ... with subtraction for negative terms, led by a
// positive term when there is one: (+ y (* -1 x)) is y - x.
func sum(terms []expr.Expr) expr.Expr {
	for i, t := range terms {
		if _, neg := splitNeg(t); !neg {
			if i > 0 {
				terms = append([]expr.Expr{t}, append(append([]expr.Expr{}, terms[:i]...), terms[i+1:]...)...)
			}
			break
		}
	}
	r := terms[0]
	for _, t := range terms[1:] {
		if m, neg := splitNeg(t); neg {
			r = expr.Arith(expr.Sub, r, m)
		} else {
			r = expr.Arith(expr.Add, r, t)
		}
	}
	return r
}

// product writes a product with its constant factor first:
// (* -1 x) is -x, (* 1 x) is x.
func product(fs []expr.Expr) expr.Expr {
	if len(fs) == 2 && isLit(fs[0]) {
		if isOne(fs[0]) {
			return fs[1]
		}
		if m, neg := splitNeg(fs[0]); neg && isOne(m) {
			return negate(fs[1])
		}
	}
	r := fs[0]
	for _, f := range fs[1:] {
		r = expr.Arith(expr.Mul, r, f)
	}
	return r
}

// compare builds x op y in a readable orientation:
// a - b op 0 becomes a op b, -x op k becomes x op' -k, and a constant
// on the left moves to the right.
func compare(op expr.Op, x, y expr.Expr) expr.Expr {
	if isLit(x) && !isLit(y) {
		x, y, op = y, x, op.Swap()
	}
	if op != expr.Eq && op != expr.Ne || x.Type().IsNumeric() {
		if isZero(y) {
			if b, ok := x.(*expr.Binary); ok && b.Op == expr.Sub {
				return expr.Compare(op, b.X, b.Y)
			}
		}
		if isLit(y) {
			if m, neg := splitNeg(x); neg {
				return expr.Compare(op.Swap(), m, negLit(y))
			}
			// y - x >= -2 reads better as x - y <= 2.
			if _, neg := splitNeg(y); neg {
				if b, ok := x.(*expr.Binary); ok && b.Op == expr.Sub {
					return expr.Compare(op.Swap(), expr.Arith(expr.Sub, b.Y, b.X), negLit(y))
				}
			}
		}
	}
	return expr.Compare(op, x, y)
}
