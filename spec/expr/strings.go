package expr

import (
	"go/ast"
	"go/token"
	"math/big"
	"strconv"
	"strings"
)

// StrFunc is a built-in operation on strings.
type StrFunc int

const (
	StrConcat    StrFunc = iota // a + b
	StrLen                      // len(s): the number of bytes, an int
	StrHasPrefix                // strings.HasPrefix(s, prefix)
	StrHasSuffix                // strings.HasSuffix(s, suffix)
	StrContains                 // strings.Contains(s, sub)
	StrIndex                    // strings.Index(s, sub): an int, -1 when absent
	StrAt                       // s[i]: a string of one byte
	StrSlice                    // s[i:j]
	StrMatch                    // regexp.MatchString(pattern, s)
)

var strFuncNames = map[string]StrFunc{
	"strings.HasPrefix": StrHasPrefix, "strings.HasSuffix": StrHasSuffix,
	"strings.Contains": StrContains, "strings.Index": StrIndex,
	"regexp.MatchString": StrMatch,
}

func (f StrFunc) String() string {
	for n, g := range strFuncNames {
		if g == f {
			return n
		}
	}
	return map[StrFunc]string{StrConcat: "+", StrLen: "len", StrAt: "[]", StrSlice: "[:]"}[f]
}

// StrLit is a string constant.
type StrLit struct {
	Val string
	At  Pos
}

// StrCall applies a string built-in to Args: (a, b) for +, (s) for len,
// (s, t) for the strings functions, (s, i) for s[i], (s, i, j) for
// s[i:j], and (s) for regexp.MatchString, whose constant pattern is
// Pattern and its translation Re.
type StrCall struct {
	Fn      StrFunc
	Args    []Expr
	Pattern string
	Re      *Regex
	At      Pos
}

func (*StrLit) exprNode()  {}
func (*StrCall) exprNode() {}

func (e *StrLit) Type() Type { return StringType }
func (e *StrCall) Type() Type {
	switch e.Fn {
	case StrLen, StrIndex:
		return IntType
	case StrHasPrefix, StrHasSuffix, StrContains, StrMatch:
		return BoolType
	}
	return StringType
}
func (e *StrLit) Pos() Pos        { return e.At }
func (e *StrCall) Pos() Pos       { return e.At }
func (e *StrLit) String() string  { return Format(e) }
func (e *StrCall) String() string { return Format(e) }

// StrConst returns the string constant s.
func StrConst(s string) Expr { return &StrLit{Val: s} }

// StringValue makes a string value.
func StringValue(s string) Value { return Value{T: StringType, Str: s} }

// with returns a copy of e with other arguments.
func (e *StrCall) with(args []Expr) *StrCall {
	return &StrCall{Fn: e.Fn, Args: args, Pattern: e.Pattern, Re: e.Re, At: e.At}
}

// strLit reads a Go string literal, interpreted or raw.
func (c *checker) strLit(n *ast.BasicLit) Expr {
	s, err := strconv.Unquote(n.Value)
	if err != nil {
		c.errorf(n.Pos(), "malformed string %s", n.Value)
		return bad
	}
	return &StrLit{Val: s, At: c.pos(n.Pos())}
}

// strLen reads len(s).
func (c *checker) strLen(n *ast.CallExpr) Expr {
	if len(n.Args) != 1 {
		c.errorf(n.Pos(), "len takes 1 argument, got %d", len(n.Args))
		return bad
	}
	s := c.expr(n.Args[0])
	if s.Type().Kind == Invalid {
		return bad
	}
	if s.Type() != StringType {
		c.errorf(n.Args[0].Pos(), "len is defined on strings, not %s (type %s)", Format(s), s.Type())
		return bad
	}
	return &StrCall{Fn: StrLen, Args: []Expr{s}, At: c.pos(n.Pos())}
}

// strPackageCall reads strings.F(...) and regexp.MatchString(...).
func (c *checker) strPackageCall(sel *ast.SelectorExpr, n *ast.CallExpr) Expr {
	pkg, _ := sel.X.(*ast.Ident)
	name := pkg.Name + "." + sel.Sel.Name
	fn, ok := strFuncNames[name]
	if !ok {
		c.errorf(n.Pos(), "%s is not a built-in (want strings.HasPrefix, strings.HasSuffix, strings.Contains, strings.Index or regexp.MatchString)", name)
		return bad
	}
	if len(n.Args) != 2 {
		c.errorf(n.Pos(), "%s takes 2 arguments, got %d", name, len(n.Args))
		return bad
	}
	p := c.pos(n.Pos())
	if fn == StrMatch {
		return c.match(n, p)
	}
	args := make([]Expr, 2)
	for i, a := range n.Args {
		if args[i] = c.expr(a); args[i].Type().Kind == Invalid {
			return bad
		}
		if args[i].Type() != StringType {
			c.errorf(a.Pos(), "argument %d of %s has type %s, want string", i+1, name, args[i].Type())
			return bad
		}
	}
	return &StrCall{Fn: fn, Args: args, At: p}
}

// match reads regexp.MatchString(pattern, s): the pattern must be a
// string literal, translated at once (errors at its position).
func (c *checker) match(n *ast.CallExpr, p Pos) Expr {
	lit, ok := n.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		c.errorf(n.Args[0].Pos(), "the pattern of regexp.MatchString must be a string literal")
		return bad
	}
	pattern, err := strconv.Unquote(lit.Value)
	if err != nil {
		c.errorf(lit.Pos(), "malformed string %s", lit.Value)
		return bad
	}
	re, err := CompileRegex(pattern)
	if err != nil {
		re := err.(*RegexError)
		// The offset is in the pattern; in a raw or escape-free literal
		// it is also the column offset after the opening quote.
		c.errorf(lit.Pos()+token.Pos(1+re.Offset), "%s in pattern %s", re.Msg, lit.Value)
		return bad
	}
	s := c.expr(n.Args[1])
	if s.Type().Kind == Invalid {
		return bad
	}
	if s.Type() != StringType {
		c.errorf(n.Args[1].Pos(), "argument 2 of regexp.MatchString has type %s, want string", s.Type())
		return bad
	}
	return &StrCall{Fn: StrMatch, Args: []Expr{s}, Pattern: pattern, Re: re, At: p}
}

// strIndex reads s[i], defined when 0 <= i < len(s) (recorded in
// c.bounds, as an array read at a computed index).
func (c *checker) strIndex(s Expr, n *ast.IndexExpr) Expr {
	if s.Type().Kind == Invalid {
		return bad
	}
	if s.Type() != StringType {
		c.errorf(n.Pos(), "indexing is allowed on array variables and strings only, not %s (type %s)", Format(s), s.Type())
		return bad
	}
	i := c.expr(n.Index)
	if i.Type().Kind == Invalid {
		return bad
	}
	if i.Type() != IntType {
		c.errorf(n.Index.Pos(), "index %s of a string has type %s, want int", Format(i), i.Type())
		return bad
	}
	p := c.pos(n.Pos())
	l := &StrCall{Fn: StrLen, Args: []Expr{s}, At: p}
	c.addBounds(Compare(Le, IntConst(0), i), Compare(Lt, i, l))
	return &StrCall{Fn: StrAt, Args: []Expr{s, i}, At: p}
}

// strSlice reads s[i:j] (i defaults to 0, j to len(s)), defined when
// 0 <= i <= j <= len(s).
func (c *checker) strSlice(n *ast.SliceExpr) Expr {
	if n.Slice3 {
		c.errorf(n.Pos(), "a 3-index slice is not allowed on strings")
		return bad
	}
	s := c.expr(n.X)
	if s.Type().Kind == Invalid {
		return bad
	}
	if s.Type() != StringType {
		c.errorf(n.Pos(), "slicing is allowed on strings only, not %s (type %s)", Format(s), s.Type())
		return bad
	}
	p := c.pos(n.Pos())
	l := &StrCall{Fn: StrLen, Args: []Expr{s}, At: p}
	bounds := []Expr{IntConst(0), l}
	for k, b := range []ast.Expr{n.Low, n.High} {
		if b == nil {
			continue
		}
		x := c.expr(b)
		if x.Type().Kind == Invalid {
			return bad
		}
		if x.Type() != IntType {
			c.errorf(b.Pos(), "slice index %s has type %s, want int", Format(x), x.Type())
			return bad
		}
		bounds[k] = x
	}
	i, j := bounds[0], bounds[1]
	c.addBounds(Compare(Le, IntConst(0), i), Compare(Le, i, j), Compare(Le, j, l))
	return &StrCall{Fn: StrSlice, Args: []Expr{s, i, j}, At: p}
}

// addBounds records definedness conditions, leaving out constant truths.
func (c *checker) addBounds(bs ...Expr) {
	for _, b := range bs {
		if x, ok := b.(*Binary); ok && x.Op == Le && Equal(x.X, x.Y) {
			continue
		}
		if v, err := Eval(b, Valuation{}); err == nil && v.T == BoolType && v.Bool {
			continue
		}
		if !containsExpr(c.bounds, b) {
			c.bounds = append(c.bounds, b)
		}
	}
}

// evalStr evaluates a string built-in. Out of its bounds s[i] and
// s[i:j] take the values Z3 gives them (str.at and str.substr: the
// empty string, or the part of s in range), so that evaluation and the
// solver agree on every input.
func evalStr(e *StrCall, env Env) (Value, error) {
	args := make([]Value, len(e.Args))
	for i, a := range e.Args {
		v, err := Eval(a, env)
		if err != nil {
			return Value{}, err
		}
		args[i] = v
	}
	s := args[0].Str
	switch e.Fn {
	case StrConcat:
		return StringValue(s + args[1].Str), nil
	case StrLen:
		return IntValue(big.NewInt(int64(len(s)))), nil
	case StrHasPrefix:
		return BoolValue(strings.HasPrefix(s, args[1].Str)), nil
	case StrHasSuffix:
		return BoolValue(strings.HasSuffix(s, args[1].Str)), nil
	case StrContains:
		return BoolValue(strings.Contains(s, args[1].Str)), nil
	case StrIndex:
		return IntValue(big.NewInt(int64(strings.Index(s, args[1].Str)))), nil
	case StrAt:
		return StringValue(Substr(s, args[1].Int, big.NewInt(1))), nil
	case StrSlice:
		return StringValue(Substr(s, args[1].Int, new(big.Int).Sub(args[2].Int, args[1].Int))), nil
	case StrMatch:
		if e.Re == nil {
			return Value{}, &EvalError{e, "regular expression not compiled"}
		}
		return BoolValue(e.Re.MatchString(s)), nil
	}
	return Value{}, &EvalError{e, "unknown string function"}
}

// Substr is SMT-LIB's str.substr(s, off, n): the bytes of s from off,
// at most n of them; empty when off is outside s or n <= 0.
func Substr(s string, off, n *big.Int) string {
	if off.Sign() < 0 || !off.IsInt64() || off.Int64() >= int64(len(s)) || n.Sign() <= 0 {
		return ""
	}
	i := int(off.Int64())
	end := int64(len(s))
	if n.IsInt64() && int64(i)+n.Int64() < end {
		end = int64(i) + n.Int64()
	}
	return s[i:end]
}

// writeStrCall prints a string built-in as it is written.
func writeStrCall(b *strings.Builder, e *StrCall, ctx int) {
	switch e.Fn {
	case StrConcat:
		p := precedence(Add)
		if p < ctx {
			b.WriteByte('(')
		}
		writeExpr(b, e.Args[0], p)
		b.WriteString(" + ")
		writeExpr(b, e.Args[1], p+1)
		if p < ctx {
			b.WriteByte(')')
		}
		return
	case StrAt, StrSlice:
		writeExpr(b, e.Args[0], unaryPrec+1)
		b.WriteByte('[')
		writeExpr(b, e.Args[1], 0)
		if e.Fn == StrSlice {
			b.WriteByte(':')
			writeExpr(b, e.Args[2], 0)
		}
		b.WriteByte(']')
		return
	case StrMatch:
		b.WriteString("regexp.MatchString(" + quotePattern(e.Pattern) + ", ")
		writeExpr(b, e.Args[0], 0)
		b.WriteByte(')')
		return
	}
	b.WriteString(e.Fn.String() + "(")
	for i, a := range e.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, a, 0)
	}
	b.WriteByte(')')
}

// quotePattern writes a pattern as a raw literal when it can, so that
// its backslashes read as in the model file.
func quotePattern(p string) string {
	if strconv.CanBackquote(p) {
		return "`" + p + "`"
	}
	return strconv.Quote(p)
}
