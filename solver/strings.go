package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/stg-tool/stg/spec"
)

// Strings are sequences of bytes: byte b is Z3's character b (Z3 4.8.12
// has Unicode characters; the bytes are the first 256), so that len,
// indexing, slicing and the order of strings are Go's. A Regex maps
// onto Z3's regular expressions over these characters.

// stringSort returns Z3's String sort, made on first use.
func (c *Context) stringSort() (C.Z3_sort, error) {
	if c.strSort != nil {
		return c.strSort, nil
	}
	s := C.Z3_mk_string_sort(c.z)
	if _, err := c.keep(sortAST(c.z, s), "make string sort"); err != nil {
		return nil, err
	}
	c.strSort = s
	return s, nil
}

// z3StringText escapes s for Z3_mk_string: printable ASCII but the
// backslash as it is, every other byte as \u{XX}.
func z3StringText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= 0x20 && ch < 0x7f && ch != '\\' {
			b.WriteByte(ch)
		} else {
			fmt.Fprintf(&b, `\u{%x}`, ch)
		}
	}
	return b.String()
}

// str makes the string constant s.
func (c *Context) str(s string) (C.Z3_ast, error) {
	if _, err := c.stringSort(); err != nil {
		return nil, err
	}
	cs := C.CString(z3StringText(s))
	defer C.free(unsafe.Pointer(cs))
	return c.temp(C.Z3_mk_string(c.z, cs), "string constant")
}

// readString reads a string value: the bytes Z3_get_lstring gives, checked
// by making the constant again (a character beyond a byte would read
// differently).
func (c *Context) readString(a C.Z3_ast) (string, error) {
	var n C.uint
	p := C.Z3_get_lstring(c.z, a, &n)
	if err := c.failed("read string"); err != nil {
		return "", err
	}
	s := C.GoStringN(p, C.int(n))
	back, err := c.str(s)
	if err != nil {
		return "", err
	}
	if !bool(C.Z3_is_eq_ast(c.z, a, back)) {
		return "", fmt.Errorf("solver: string %s has characters beyond one byte", c.termString(a))
	}
	return s, nil
}

func (c *Context) encStrLit(e *spec.StrLit) (C.Z3_ast, spec.Type, error) {
	a, err := c.str(e.Val)
	return a, spec.StringType, err
}

// encStr encodes a string built-in.
func (c *Context) encStr(e *spec.StrCall) (C.Z3_ast, spec.Type, error) {
	want := map[spec.StrFunc][]spec.Type{
		spec.StrConcat: {spec.StringType, spec.StringType}, spec.StrLen: {spec.StringType},
		spec.StrHasPrefix: {spec.StringType, spec.StringType}, spec.StrHasSuffix: {spec.StringType, spec.StringType},
		spec.StrContains: {spec.StringType, spec.StringType}, spec.StrIndex: {spec.StringType, spec.StringType},
		spec.StrAt: {spec.StringType, spec.IntType}, spec.StrSlice: {spec.StringType, spec.IntType, spec.IntType},
		spec.StrMatch: {spec.StringType},
	}[e.Fn]
	if len(want) == 0 || len(e.Args) != len(want) {
		return nil, spec.Type{}, typeError(e, "string function %s with %d arguments", e.Fn, len(e.Args))
	}
	x := make([]C.Z3_ast, len(e.Args))
	for i, arg := range e.Args {
		a, t, err := c.enc(arg)
		if err != nil {
			return nil, t, err
		}
		if t != want[i] {
			return nil, t, typeError(e, "argument %d of %s has type %s", i+1, e.Fn, t)
		}
		x[i] = a
	}
	var r C.Z3_ast
	switch e.Fn {
	case spec.StrConcat:
		r = C.Z3_mk_seq_concat(c.z, 2, &x[0])
	case spec.StrLen:
		r = C.Z3_mk_seq_length(c.z, x[0])
	case spec.StrHasPrefix:
		r = C.Z3_mk_seq_prefix(c.z, x[1], x[0])
	case spec.StrHasSuffix:
		r = C.Z3_mk_seq_suffix(c.z, x[1], x[0])
	case spec.StrContains:
		r = C.Z3_mk_seq_contains(c.z, x[0], x[1])
	case spec.StrIndex:
		zero, err := c.numeral("0", c.intSort)
		if err != nil {
			return nil, spec.Type{}, err
		}
		r = C.Z3_mk_seq_index(c.z, x[0], x[1], zero)
	case spec.StrAt:
		r = C.Z3_mk_seq_at(c.z, x[0], x[1])
	case spec.StrSlice:
		args := [2]C.Z3_ast{x[2], x[1]}
		n, err := c.temp(C.Z3_mk_sub(c.z, 2, &args[0]), "slice length")
		if err != nil {
			return nil, spec.Type{}, err
		}
		r = C.Z3_mk_seq_extract(c.z, x[0], x[1], n)
	case spec.StrMatch:
		if e.Re == nil {
			return nil, spec.Type{}, typeError(e, "regular expression not compiled")
		}
		re, err := c.regex(e.Re)
		if err != nil {
			return nil, spec.Type{}, err
		}
		r = C.Z3_mk_seq_in_re(c.z, x[0], re)
	}
	a, err := c.temp(r, e.Fn.String())
	return a, e.Type(), err
}

// strCompare encodes x op y on strings: str.< and str.<=.
func (c *Context) strCompare(op spec.Op, x, y C.Z3_ast) C.Z3_ast {
	switch op {
	case spec.Lt:
		return C.Z3_mk_str_lt(c.z, x, y)
	case spec.Le:
		return C.Z3_mk_str_le(c.z, x, y)
	case spec.Gt:
		return C.Z3_mk_str_lt(c.z, y, x)
	}
	return C.Z3_mk_str_le(c.z, y, x)
}

// regex translates r into a Z3 regular expression over strings.
func (c *Context) regex(r *spec.Regex) (C.Z3_ast, error) {
	ss, err := c.stringSort()
	if err != nil {
		return nil, err
	}
	reSort := C.Z3_mk_re_sort(c.z, ss)
	if _, err := c.temp(sortAST(c.z, reSort), "regex sort"); err != nil {
		return nil, err
	}
	return c.re(r, reSort)
}

func (c *Context) re(r *spec.Regex, reSort C.Z3_sort) (C.Z3_ast, error) {
	subs := make([]C.Z3_ast, len(r.Subs)+1) // +1: never empty
	for i, s := range r.Subs {
		a, err := c.re(s, reSort)
		if err != nil {
			return nil, err
		}
		subs[i] = a
	}
	var a C.Z3_ast
	switch r.Op {
	case spec.ReNone:
		a = C.Z3_mk_re_empty(c.z, reSort)
	case spec.ReAll:
		a = C.Z3_mk_re_full(c.z, reSort)
	case spec.ReEpsilon, spec.ReLit:
		s, err := c.str(r.Lit)
		if err != nil {
			return nil, err
		}
		a = C.Z3_mk_seq_to_re(c.z, s)
	case spec.ReClass:
		return c.class(r.Ranges, reSort)
	case spec.ReConcat:
		a = C.Z3_mk_re_concat(c.z, C.uint(len(r.Subs)), &subs[0])
	case spec.ReUnion:
		a = C.Z3_mk_re_union(c.z, C.uint(len(r.Subs)), &subs[0])
	case spec.ReStar:
		a = C.Z3_mk_re_star(c.z, subs[0])
	case spec.ReLoop:
		switch {
		case r.Max < 0 && r.Min == 0:
			a = C.Z3_mk_re_star(c.z, subs[0])
		case r.Max < 0 && r.Min == 1:
			a = C.Z3_mk_re_plus(c.z, subs[0])
		case r.Max < 0:
			// re.loop with hi = 0 is "at least lo".
			a = C.Z3_mk_re_loop(c.z, subs[0], C.uint(r.Min), 0)
		case r.Max == 0:
			e, err := c.str("")
			if err != nil {
				return nil, err
			}
			a = C.Z3_mk_seq_to_re(c.z, e)
		default:
			a = C.Z3_mk_re_loop(c.z, subs[0], C.uint(r.Min), C.uint(r.Max))
		}
	default:
		return nil, fmt.Errorf("solver: unknown regular expression operator %d", int(r.Op))
	}
	return c.temp(a, "regular expression")
}

// class is the union of the byte ranges.
func (c *Context) class(rs []spec.ByteRange, reSort C.Z3_sort) (C.Z3_ast, error) {
	parts := make([]C.Z3_ast, len(rs)+1)
	for i, rg := range rs {
		lo, err := c.str(string([]byte{rg.Lo}))
		if err != nil {
			return nil, err
		}
		hi, err := c.str(string([]byte{rg.Hi}))
		if err != nil {
			return nil, err
		}
		if parts[i], err = c.temp(C.Z3_mk_re_range(c.z, lo, hi), "re.range"); err != nil {
			return nil, err
		}
	}
	if len(rs) == 0 {
		return c.temp(C.Z3_mk_re_empty(c.z, reSort), "re.empty")
	}
	if len(rs) == 1 {
		return parts[0], nil
	}
	return c.temp(C.Z3_mk_re_union(c.z, C.uint(len(rs)), &parts[0]), "re.union")
}

// decodeStr translates back the string operations of Z3 terms; ok is
// false when declKind is none of them.
func decodeStr(kind C.Z3_decl_kind, args []spec.Expr) (e spec.Expr, ok bool) {
	call := func(fn spec.StrFunc, n int) (spec.Expr, bool) {
		if len(args) != n {
			return nil, false
		}
		return &spec.StrCall{Fn: fn, Args: args}, true
	}
	switch kind {
	case C.Z3_OP_SEQ_CONCAT:
		if len(args) < 2 {
			return nil, false
		}
		r := args[0]
		for _, y := range args[1:] {
			r = &spec.StrCall{Fn: spec.StrConcat, Args: []spec.Expr{r, y}}
		}
		return r, true
	case C.Z3_OP_SEQ_LENGTH:
		return call(spec.StrLen, 1)
	case C.Z3_OP_SEQ_PREFIX, C.Z3_OP_SEQ_SUFFIX:
		if len(args) != 2 {
			return nil, false
		}
		fn := spec.StrHasPrefix
		if kind == C.Z3_OP_SEQ_SUFFIX {
			fn = spec.StrHasSuffix
		}
		return &spec.StrCall{Fn: fn, Args: []spec.Expr{args[1], args[0]}}, true
	case C.Z3_OP_SEQ_CONTAINS:
		return call(spec.StrContains, 2)
	case C.Z3_OP_SEQ_AT:
		return call(spec.StrAt, 2)
	case C.Z3_OP_SEQ_EXTRACT:
		if len(args) != 3 {
			return nil, false
		}
		end := spec.Arith(spec.Add, args[1], args[2])
		return &spec.StrCall{Fn: spec.StrSlice, Args: []spec.Expr{args[0], args[1], end}}, true
	case C.Z3_OP_SEQ_INDEX:
		if len(args) == 3 {
			if z, isInt := args[2].(*spec.IntLit); isInt && z.Val.Sign() == 0 {
				return &spec.StrCall{Fn: spec.StrIndex, Args: args[:2]}, true
			}
		}
	case C.Z3_OP_STRING_LT:
		if len(args) == 2 {
			return spec.Compare(spec.Lt, args[0], args[1]), true
		}
	case C.Z3_OP_STRING_LE:
		if len(args) == 2 {
			return spec.Compare(spec.Le, args[0], args[1]), true
		}
	}
	return nil, false
}
