package expr

import (
	"math/big"
	"strconv"
	"strings"
)

// Format prints e in the model language (Go syntax), with the fewest
// parentheses that Go's precedence rules allow. Parsing the result gives
// an expression with the same meaning (and the same tree, except that a
// rational constant that is not a finite decimal prints as a quotient).
func Format(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
}

// String methods make expressions print themselves in %v.
func (e *IntLit) String() string  { return Format(e) }
func (e *RealLit) String() string { return Format(e) }
func (e *BoolLit) String() string { return Format(e) }
func (e *EnumLit) String() string { return Format(e) }
func (e *Ident) String() string   { return Format(e) }
func (e *Unary) String() string   { return Format(e) }
func (e *Binary) String() string  { return Format(e) }
func (e *Call) String() string    { return Format(e) }
func (e *Cond) String() string    { return Format(e) }

// precedence follows the Go specification.
func precedence(op Op) int {
	switch op {
	case Mul, Div, Mod:
		return 5
	case Add, Sub:
		return 4
	case Eq, Ne, Lt, Le, Gt, Ge:
		return 3
	case And:
		return 2
	case Or:
		return 1
	}
	return 6
}

const unaryPrec = 6

// writeExpr writes e; ctx is the precedence its position demands:
// e gets parentheses when it binds less tightly than ctx.
func writeExpr(b *strings.Builder, e Expr, ctx int) {
	switch e := e.(type) {
	case *IntLit:
		if e.Val.Sign() < 0 && ctx >= unaryPrec {
			b.WriteString("(" + e.Val.String() + ")")
			return
		}
		b.WriteString(e.Val.String())
	case *RealLit:
		s, quotient := RatText(e.Val)
		if (quotient && ctx >= precedence(Div)) || (e.Val.Sign() < 0 && ctx >= unaryPrec) {
			s = "(" + s + ")"
		}
		b.WriteString(s)
	case *BoolLit:
		if e.Val {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *EnumLit:
		b.WriteString(e.Name())
	case *StrLit:
		b.WriteString(strconv.Quote(e.Val))
	case *StrCall:
		writeStrCall(b, e, ctx)
	case *Ident:
		b.WriteString(e.Name)
	case *Unary:
		if e.Op == ToReal {
			b.WriteString("real(")
			writeExpr(b, e.X, 0)
			b.WriteByte(')')
			return
		}
		if ctx > unaryPrec {
			b.WriteByte('(')
		}
		b.WriteString(e.Op.String())
		// "- -x" and "--x" differ in Go only lexically; keep a space-free
		// form by parenthesising a nested unary minus.
		inner := unaryPrec
		if u, ok := e.X.(*Unary); ok && u.Op == e.Op {
			inner = unaryPrec + 1
		}
		if l, ok := e.X.(*IntLit); ok && l.Val.Sign() < 0 {
			inner = unaryPrec + 1
		}
		writeExpr(b, e.X, inner)
		if ctx > unaryPrec {
			b.WriteByte(')')
		}
	case *Binary:
		p := precedence(e.Op)
		paren := p < ctx
		if paren {
			b.WriteByte('(')
		}
		writeExpr(b, e.X, p)
		b.WriteString(" " + e.Op.String() + " ")
		// Right operands of equal precedence need parentheses: the
		// operators are left-associative (and x - (y - z) != x - y - z).
		writeExpr(b, e.Y, p+1)
		if paren {
			b.WriteByte(')')
		}
	case *Call:
		writeCall(b, e)
	case *Cond:
		if name, k, ok := indexChain(e); ok {
			b.WriteString(name + "[")
			writeExpr(b, k, 0)
			b.WriteByte(']')
			return
		}
		b.WriteString("ite(")
		writeExpr(b, e.If, 0)
		b.WriteString(", ")
		writeExpr(b, e.Then, 0)
		b.WriteString(", ")
		writeExpr(b, e.Else, 0)
		b.WriteByte(')')
	default:
		b.WriteString("<nil>")
	}
}

// RatText prints r as a decimal when its expansion is finite, and as
// "N.0 / D" otherwise; quotient reports the latter.
func RatText(r *big.Rat) (s string, quotient bool) {
	if r.IsInt() {
		return r.Num().String() + ".0", false
	}
	// A finite decimal needs a denominator 2^a 5^b, and then max(a, b)
	// digits. Beyond 4096 digits (a denominator above 10^4096, 13607
	// bits) the quotient is the shorter text; the bound also keeps the
	// cost of printing a constant like 1e-400000 low.
	d := r.Denom()
	if d.BitLen() <= 13607 {
		a := d.TrailingZeroBits()
		odd := new(big.Int).Rsh(d, a)
		five, q, m := big.NewInt(5), new(big.Int), new(big.Int)
		b := 0
		for {
			q.QuoRem(odd, five, m)
			if m.Sign() != 0 {
				break
			}
			odd.Set(q)
			b++
		}
		if odd.IsInt64() && odd.Int64() == 1 {
			n := max(int(a), b)
			if n <= 4096 {
				return r.FloatString(n), false
			}
		}
	}
	return r.Num().String() + ".0 / " + r.Denom().String(), true
}

// writeCall writes F(a, b), an array argument as the array's name when
// it is the cells of one array in order, and as [N]T{x, y} otherwise.
func writeCall(b *strings.Builder, e *Call) {
	b.WriteString(e.Func + "(")
	lens := e.Lens
	if !fitsLens(lens, len(e.Args)) {
		lens = make([]int, len(e.Args))
	}
	k := 0
	for i, size := range lens {
		if i > 0 {
			b.WriteString(", ")
		}
		if size == 0 {
			writeExpr(b, e.Args[k], 0)
			k++
			continue
		}
		group := e.Args[k : k+size]
		k += size
		if name, ok := wholeArray(group); ok {
			b.WriteString(name)
			continue
		}
		b.WriteString(ArrayTypeText(size, group[0].Type()) + "{")
		for j, a := range group {
			if j > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a, 0)
		}
		b.WriteByte('}')
	}
	b.WriteByte(')')
}

// fitsLens reports whether lens describes n flattened arguments.
func fitsLens(lens []int, n int) bool {
	if lens == nil {
		return false
	}
	total := 0
	for _, l := range lens {
		if l < 0 {
			return false
		}
		total += max(l, 1)
	}
	return total == n
}

// wholeArray reports whether es are the cells a[0], a[1], ... of one
// array a, and returns a.
func wholeArray(es []Expr) (string, bool) {
	var name string
	var kind IdentKind
	for i, e := range es {
		id, ok := e.(*Ident)
		if !ok {
			return "", false
		}
		suffix := "[" + strconv.Itoa(i) + "]"
		base, found := strings.CutSuffix(id.Name, suffix)
		if !found || base == "" || (i > 0 && (base != name || id.Kind != kind)) {
			return "", false
		}
		name, kind = base, id.Kind
	}
	return name, name != ""
}

// indexChain recognises the reading a[k] of an array at a computed
// index, ite(k == 0, a[0], ite(k == 1, a[1], ... a[N-1])), and returns
// a and k.
func indexChain(e *Cond) (name string, k Expr, ok bool) {
	var x Expr = e
	for i := 0; ; i++ {
		c, isCond := x.(*Cond)
		if !isCond {
			id, isId := x.(*Ident)
			return name, k, i >= 1 && isId && isCell(id, name, i) && !constOutside(k, i+1)
		}
		if !c.index {
			return "", nil, false
		}
		cmp, isCmp := c.If.(*Binary)
		if !isCmp || cmp.Op != Eq || !isIntLit(cmp.Y, i) {
			return "", nil, false
		}
		id, isId := c.Then.(*Ident)
		if !isId {
			return "", nil, false
		}
		if i == 0 {
			k = cmp.X
			base, found := strings.CutSuffix(id.Name, "[0]")
			if !found || base == "" {
				return "", nil, false
			}
			name = base
		} else if !Equal(cmp.X, k) || !isCell(id, name, i) {
			return "", nil, false
		}
		x = c.Else
	}
}

func isCell(id *Ident, name string, i int) bool {
	return id.Name == name+"["+strconv.Itoa(i)+"]"
}

func isIntLit(e Expr, i int) bool {
	l, ok := e.(*IntLit)
	return ok && l.Val.IsInt64() && l.Val.Int64() == int64(i)
}

// constOutside reports whether k is a constant outside [0, n): a[k]
// would not read back.
func constOutside(k Expr, n int) bool {
	v, ok := ConstValue(k)
	return ok && (!v.IsInt() || v.Sign() < 0 || v.Num().Cmp(big.NewInt(int64(n))) >= 0)
}
