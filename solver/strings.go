package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"unsafe"

	"github.com/stg-tool/stg/spec/expr"
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

func (c *Context) encStrLit(e *expr.StrLit) (C.Z3_ast, expr.Type, error) {
	a, err := c.str(e.Val)
	return a, expr.StringType, err
}

// encStr encodes a string built-in.
func (c *Context) encStr(e *expr.StrCall) (C.Z3_ast, expr.Type, error) {
	want := map[expr.StrFunc][]expr.Type{
		expr.StrConcat: {expr.StringType, expr.StringType}, expr.StrLen: {expr.StringType},
		expr.StrHasPrefix: {expr.StringType, expr.StringType}, expr.StrHasSuffix: {expr.StringType, expr.StringType},
		expr.StrContains: {expr.StringType, expr.StringType}, expr.StrIndex: {expr.StringType, expr.StringType},
		expr.StrAt: {expr.StringType, expr.IntType}, expr.StrSlice: {expr.StringType, expr.IntType, expr.IntType},
		expr.StrMatch: {expr.StringType},
	}[e.Fn]
	if len(want) == 0 || len(e.Args) != len(want) {
		return nil, expr.Type{}, typeError(e, "string function %s with %d arguments", e.Fn, len(e.Args))
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
	case expr.StrConcat:
		r = C.Z3_mk_seq_concat(c.z, 2, &x[0])
	case expr.StrLen:
		r = C.Z3_mk_seq_length(c.z, x[0])
	case expr.StrHasPrefix:
		r = C.Z3_mk_seq_prefix(c.z, x[1], x[0])
	case expr.StrHasSuffix:
		r = C.Z3_mk_seq_suffix(c.z, x[1], x[0])
	case expr.StrContains:
		r = C.Z3_mk_seq_contains(c.z, x[0], x[1])
	case expr.StrIndex:
		zero, err := c.numeral("0", c.intSort)
		if err != nil {
			return nil, expr.Type{}, err
		}
		r = C.Z3_mk_seq_index(c.z, x[0], x[1], zero)
	case expr.StrAt:
		r = C.Z3_mk_seq_at(c.z, x[0], x[1])
	case expr.StrSlice:
		n, err := c.sliceLength(e.Args[1], e.Args[2], x[1], x[2])
		if err != nil {
			return nil, expr.Type{}, err
		}
		if n == nil { // s[i:i+1] is str.at(s, i), which Z3 4.8.12 decides several times faster
			r = C.Z3_mk_seq_at(c.z, x[0], x[1])
			break
		}
		r = C.Z3_mk_seq_extract(c.z, x[0], x[1], n)
	case expr.StrMatch:
		if e.Re == nil {
			return nil, expr.Type{}, typeError(e, "regular expression not compiled")
		}
		re, err := c.regex(e.Re)
		if err != nil {
			return nil, expr.Type{}, err
		}
		r = C.Z3_mk_seq_in_re(c.z, x[0], re)
	}
	a, err := c.temp(r, e.Fn.String())
	return a, e.Type(), err
}

// sliceLength returns the length j - i of s[i:j] (i, j encoded as
// zi, zj): a numeral when both are constants, nil when it is the
// constant 1 (the slice is then str.at).
func (c *Context) sliceLength(i, j expr.Expr, zi, zj C.Z3_ast) (C.Z3_ast, error) {
	li, ok1 := i.(*expr.IntLit)
	lj, ok2 := j.(*expr.IntLit)
	if ok1 && ok2 && li != nil && lj != nil {
		d := new(big.Int).Sub(lj.Val, li.Val)
		if d.Cmp(big.NewInt(1)) == 0 {
			return nil, nil
		}
		return c.numeral(d.String(), c.intSort)
	}
	args := [2]C.Z3_ast{zj, zi}
	return c.temp(C.Z3_mk_sub(c.z, 2, &args[0]), "slice length")
}

// strCompare encodes x op y on strings: str.< and str.<=.
func (c *Context) strCompare(op expr.Op, x, y C.Z3_ast) C.Z3_ast {
	switch op {
	case expr.Lt:
		return C.Z3_mk_str_lt(c.z, x, y)
	case expr.Le:
		return C.Z3_mk_str_le(c.z, x, y)
	case expr.Gt:
		return C.Z3_mk_str_lt(c.z, y, x)
	}
	return C.Z3_mk_str_le(c.z, y, x)
}

// regex translates r into a Z3 regular expression over strings.
func (c *Context) regex(r *expr.Regex) (C.Z3_ast, error) {
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

func (c *Context) re(r *expr.Regex, reSort C.Z3_sort) (C.Z3_ast, error) {
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
	case expr.ReNone:
		a = C.Z3_mk_re_empty(c.z, reSort)
	case expr.ReAll:
		a = C.Z3_mk_re_full(c.z, reSort)
	case expr.ReEpsilon, expr.ReLit:
		s, err := c.str(r.Lit)
		if err != nil {
			return nil, err
		}
		a = C.Z3_mk_seq_to_re(c.z, s)
	case expr.ReClass:
		return c.class(r.Ranges, reSort)
	case expr.ReConcat:
		a = C.Z3_mk_re_concat(c.z, C.uint(len(r.Subs)), &subs[0])
	case expr.ReUnion:
		a = C.Z3_mk_re_union(c.z, C.uint(len(r.Subs)), &subs[0])
	case expr.ReStar:
		a = C.Z3_mk_re_star(c.z, subs[0])
	case expr.ReLoop:
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
func (c *Context) class(rs []expr.ByteRange, reSort C.Z3_sort) (C.Z3_ast, error) {
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
func decodeStr(kind C.Z3_decl_kind, args []expr.Expr) (e expr.Expr, ok bool) {
	call := func(fn expr.StrFunc, n int) (expr.Expr, bool) {
		if len(args) != n {
			return nil, false
		}
		return &expr.StrCall{Fn: fn, Args: args}, true
	}
	switch kind {
	case C.Z3_OP_SEQ_CONCAT:
		if len(args) < 2 {
			return nil, false
		}
		r := args[0]
		for _, y := range args[1:] {
			r = &expr.StrCall{Fn: expr.StrConcat, Args: []expr.Expr{r, y}}
		}
		return r, true
	case C.Z3_OP_SEQ_LENGTH:
		return call(expr.StrLen, 1)
	case C.Z3_OP_SEQ_PREFIX, C.Z3_OP_SEQ_SUFFIX:
		if len(args) != 2 {
			return nil, false
		}
		fn := expr.StrHasPrefix
		if kind == C.Z3_OP_SEQ_SUFFIX {
			fn = expr.StrHasSuffix
		}
		return &expr.StrCall{Fn: fn, Args: []expr.Expr{args[1], args[0]}}, true
	case C.Z3_OP_SEQ_CONTAINS:
		return call(expr.StrContains, 2)
	case C.Z3_OP_SEQ_AT:
		return call(expr.StrAt, 2)
	case C.Z3_OP_SEQ_EXTRACT:
		if len(args) != 3 {
			return nil, false
		}
		end := expr.Arith(expr.Add, args[1], args[2])
		return &expr.StrCall{Fn: expr.StrSlice, Args: []expr.Expr{args[0], args[1], end}}, true
	case C.Z3_OP_SEQ_INDEX:
		if len(args) == 3 {
			if z, isInt := args[2].(*expr.IntLit); isInt && z.Val.Sign() == 0 {
				return &expr.StrCall{Fn: expr.StrIndex, Args: args[:2]}, true
			}
		}
	case C.Z3_OP_STRING_LT:
		if len(args) == 2 {
			return expr.Compare(expr.Lt, args[0], args[1]), true
		}
	case C.Z3_OP_STRING_LE:
		if len(args) == 2 {
			return expr.Compare(expr.Le, args[0], args[1]), true
		}
	}
	return nil, false
}

// mergeMatches replaces, in the conjuncts ops, the regular expression
// memberships of one string term (regexp.MatchString(p, s) and its
// negation) by a single membership in the intersection of the patterns
// (complemented where negated): Z3 4.8.12 decides an intersection at
// once but can search forever on two separate memberships. It returns
// the other conjuncts and the merged terms.
func (c *Context) mergeMatches(ops []expr.Expr) ([]expr.Expr, []C.Z3_ast, error) {
	type group struct {
		s   expr.Expr
		res []*expr.Regex
		neg []bool
	}
	if !hasMatch(ops...) {
		return ops, nil, nil
	}
	ops = expandConjuncts(ops)
	var groups []*group
	var rest []expr.Expr
	for _, o := range ops {
		m, neg := matchOf(o)
		if m == nil {
			rest = append(rest, o)
			continue
		}
		var g *group
		for _, h := range groups {
			if expr.Equal(h.s, m.Args[0]) {
				g = h
			}
		}
		if g == nil {
			g = &group{s: m.Args[0]}
			groups = append(groups, g)
		}
		g.res, g.neg = append(g.res, m.Re), append(g.neg, neg)
	}
	var merged []C.Z3_ast
	for _, g := range groups {
		if len(g.res) == 1 {
			rest = append(rest, c.matchExpr(g.s, g.res[0], g.neg[0]))
			continue
		}
		x, t, err := c.enc(g.s)
		if err != nil {
			return nil, nil, err
		}
		if t != expr.StringType {
			return nil, nil, typeError(g.s, "regexp.MatchString of a %s", t)
		}
		parts := make([]C.Z3_ast, len(g.res))
		for i, r := range g.res {
			a, err := c.regex(r)
			if err == nil && g.neg[i] {
				a, err = c.temp(C.Z3_mk_re_complement(c.z, a), "re.comp")
			}
			if err != nil {
				return nil, nil, err
			}
			parts[i] = a
		}
		in, err := c.temp(C.Z3_mk_re_intersect(c.z, C.uint(len(parts)), &parts[0]), "re.inter")
		if err != nil {
			return nil, nil, err
		}
		a, err := c.temp(C.Z3_mk_seq_in_re(c.z, x, in), "str.in_re")
		if err != nil {
			return nil, nil, err
		}
		merged = append(merged, a)
	}
	return rest, merged, nil
}

// matchOf returns the regexp.MatchString that e is, or negates.
func matchOf(e expr.Expr) (m *expr.StrCall, neg bool) {
	if u, ok := e.(*expr.Unary); ok && u != nil && u.Op == expr.Not {
		e, neg = u.X, true
	}
	if m, ok := e.(*expr.StrCall); ok && m != nil && m.Fn == expr.StrMatch && len(m.Args) == 1 && m.Re != nil {
		return m, neg
	}
	return nil, false
}

func (c *Context) matchExpr(s expr.Expr, r *expr.Regex, neg bool) expr.Expr {
	var m expr.Expr = &expr.StrCall{Fn: expr.StrMatch, Args: []expr.Expr{s}, Re: r}
	if neg {
		m = &expr.Unary{Op: expr.Not, X: m}
	}
	return m
}

// HasMatch reports whether regexp.MatchString occurs in one of es.
func hasMatch(es ...expr.Expr) (found bool) {
	defer func() {
		if recover() != nil { // a malformed tree: encoding reports it
			found = false
		}
	}()
	for _, e := range es {
		expr.Inspect(e, func(x expr.Expr) {
			if m, ok := x.(*expr.StrCall); ok && m.Fn == expr.StrMatch {
				found = true
			}
		})
	}
	return found
}

// negation returns ¬e with the negation pushed through && and || (De
// Morgan), so that the regular expression memberships it holds meet in
// conjunctions that mergeMatches sees.
func negation(e expr.Expr) expr.Expr {
	if b, ok := e.(*expr.Binary); ok && (b.Op == expr.And || b.Op == expr.Or) {
		var ops []expr.Expr
		flattenOp(b.Op, b, &ops)
		for i, o := range ops {
			ops[i] = negation(o)
		}
		if b.Op == expr.And {
			return expr.OrOf(ops...)
		}
		return expr.AndOf(ops...)
	}
	return expr.NotOf(e)
}

// expandConjuncts flattens nested conjunctions in ops and pushes
// negations of disjunctions through (¬(a ∨ b) is ¬a ∧ ¬b).
func expandConjuncts(ops []expr.Expr) []expr.Expr {
	var out []expr.Expr
	for _, o := range ops {
		switch x := o.(type) {
		case *expr.Binary:
			if x != nil && x.Op == expr.And {
				var sub []expr.Expr
				flattenOp(expr.And, x, &sub)
				out = append(out, expandConjuncts(sub)...)
				continue
			}
		case *expr.Unary:
			if x != nil && x.Op == expr.Not {
				if y, ok := x.X.(*expr.Binary); ok && y != nil && y.Op == expr.Or {
					out = append(out, expandConjuncts([]expr.Expr{negation(y)})...)
					continue
				}
			}
		}
		out = append(out, o)
	}
	return out
}

// Queries on formulas with regular expressions are posed as one
// predicate, negations pushed inwards, so that the memberships of a
// string meet in one conjunction (see mergeMatches).

func (c *Context) validMatch(e expr.Expr) (bool, error) {
	r, err := c.Sat(negation(e))
	return r == Unsat, err
}

func (c *Context) entailsMatch(a, b expr.Expr) (bool, error) {
	r, err := c.Sat(expr.AndOf(a, negation(b)))
	return r == Unsat, err
}

func (c *Context) equivalentMatch(a, b expr.Expr) (bool, error) {
	r, err := c.Sat(expr.OrOf(expr.AndOf(a, negation(b)), expr.AndOf(negation(a), b)))
	return r == Unsat, err
}

// errNoStringQE: Z3 has no quantifier elimination for strings; callers
// over-approximate as on any failed elimination.
var errNoStringQE = errors.New("solver: no quantifier elimination on formulas with strings")

// hasString reports whether a string-typed term occurs in e.
func hasString(e expr.Expr) (found bool) {
	defer func() {
		if recover() != nil { // a malformed tree: encoding reports it
			found = false
		}
	}()
	expr.Inspect(e, func(x expr.Expr) {
		if x != nil && x.Type() == expr.StringType {
			found = true
		}
		if b, ok := x.(*expr.Binary); ok && b.X.Type() == expr.StringType {
			found = true
		}
	})
	return found
}

// encodeFact encodes a predicate to be asserted or modelled (not the
// one-shot satisfiability checks: the extra memberships slow Z3 down):
// e ∧ every string identifier of e is a string of bytes (its characters
// below 256), so that models hold strings of our domain and classes like
// [^a] mean what they do in evaluation. The fact is left out for the
// identifiers in had (asserted before in the same solver, with their
// fact) and for those e already confines to bytes by a membership in a
// pattern without ReAll: Z3 4.8.12 is several times slower on two
// memberships of one string than on one.
func (c *Context) encodeFact(e expr.Expr, had map[identKey]bool) (C.Z3_ast, error) {
	a, err := c.encodeBool(e)
	if err != nil || !hasString(e) {
		return a, err
	}
	facts := []C.Z3_ast{a}
	seen := bytesConfined(e)
	var failure error
	expr.Idents(e, func(id *expr.Ident) {
		k := identKey{id.Kind, id.Name, id.T}
		if failure != nil || id.T != expr.StringType || seen[k] || had[k] {
			return
		}
		seen[k] = true
		var in C.Z3_ast
		x, err := c.ident(id)
		if err == nil {
			in, err = c.regex(byteStrings)
		}
		if err == nil {
			x, err = c.temp(C.Z3_mk_seq_in_re(c.z, x, in), "str.in_re")
		}
		facts = append(facts, x)
		failure = err
	})
	if failure != nil {
		return nil, failure
	}
	if len(facts) == 1 {
		return a, nil
	}
	return c.temp(C.Z3_mk_and(c.z, C.uint(len(facts)), &facts[0]), "and")
}

// bytesConfined returns the identifiers that a conjunct of e matches
// against a pattern whose every string is a string of bytes.
func bytesConfined(e expr.Expr) map[identKey]bool {
	r := map[identKey]bool{}
	if !hasMatch(e) {
		return r
	}
	for _, o := range expandConjuncts([]expr.Expr{e}) {
		m, neg := matchOf(o)
		if m == nil || neg || !byteRegex(m.Re) {
			continue
		}
		if id, ok := m.Args[0].(*expr.Ident); ok && id != nil {
			r[identKey{id.Kind, id.Name, id.T}] = true
		}
	}
	return r
}

// byteRegex reports whether r matches strings of bytes only: it has no
// ReAll (the translated classes are byte ranges).
func byteRegex(r *expr.Regex) bool {
	if r == nil || r.Op == expr.ReAll {
		return false
	}
	for _, s := range r.Subs {
		if !byteRegex(s) {
			return false
		}
	}
	return true
}

// byteStrings is the language of the strings of bytes.
var byteStrings = &expr.Regex{Op: expr.ReStar, Subs: []*expr.Regex{{Op: expr.ReClass, Ranges: []expr.ByteRange{{Lo: 0, Hi: 255}}}}}
