package abstraction

import (
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// A LinExpr is the affine expression sum_i c_i*x_i + k over exact
// rationals. The zero value is the constant 0. LinExpr values are
// immutable: every method returns a fresh expression and accessors
// return copies, so expressions may be shared freely.
type LinExpr struct {
	terms []term   // sorted by dim, no zero coefficient
	k     *big.Rat // nil means 0
}

type term struct {
	dim  int
	coef *big.Rat
}

// Const returns the constant expression c.
func Const(c *big.Rat) LinExpr {
	if c == nil || c.Sign() == 0 {
		return LinExpr{}
	}
	return LinExpr{k: new(big.Rat).Set(c)}
}

// Var returns the expression 1*x_dim.
func Var(dim int) LinExpr {
	if dim < 0 {
		panic("abstraction: negative dimension")
	}
	return LinExpr{terms: []term{{dim, big.NewRat(1, 1)}}}
}

// Add returns e + f.
func (e LinExpr) Add(f LinExpr) LinExpr { return e.combine(f, false) }

// Sub returns e - f.
func (e LinExpr) Sub(f LinExpr) LinExpr { return e.combine(f, true) }

func (e LinExpr) combine(f LinExpr, sub bool) LinExpr {
	var r LinExpr
	r.terms = make([]term, 0, len(e.terms)+len(f.terms))
	i, j := 0, 0
	for i < len(e.terms) || j < len(f.terms) {
		switch {
		case j == len(f.terms) || (i < len(e.terms) && e.terms[i].dim < f.terms[j].dim):
			r.terms = append(r.terms, e.terms[i])
			i++
		case i == len(e.terms) || f.terms[j].dim < e.terms[i].dim:
			c := f.terms[j].coef
			if sub {
				c = new(big.Rat).Neg(c)
			}
			r.terms = append(r.terms, term{f.terms[j].dim, c})
			j++
		default:
			c := new(big.Rat)
			if sub {
				c.Sub(e.terms[i].coef, f.terms[j].coef)
			} else {
				c.Add(e.terms[i].coef, f.terms[j].coef)
			}
			if c.Sign() != 0 {
				r.terms = append(r.terms, term{e.terms[i].dim, c})
			}
			i++
			j++
		}
	}
	k := new(big.Rat).Set(e.ConstTerm())
	if sub {
		k.Sub(k, f.ConstTerm())
	} else {
		k.Add(k, f.ConstTerm())
	}
	if k.Sign() != 0 {
		r.k = k
	}
	return r
}

// Scale returns c*e.
func (e LinExpr) Scale(c *big.Rat) LinExpr {
	if c.Sign() == 0 {
		return LinExpr{}
	}
	r := LinExpr{terms: make([]term, len(e.terms))}
	for i, t := range e.terms {
		r.terms[i] = term{t.dim, new(big.Rat).Mul(t.coef, c)}
	}
	if e.k != nil {
		r.k = new(big.Rat).Mul(e.k, c)
	}
	return r
}

// Coeff returns (a copy of) the coefficient of dimension dim.
func (e LinExpr) Coeff(dim int) *big.Rat {
	i := sort.Search(len(e.terms), func(i int) bool { return e.terms[i].dim >= dim })
	if i < len(e.terms) && e.terms[i].dim == dim {
		return new(big.Rat).Set(e.terms[i].coef)
	}
	return new(big.Rat)
}

// ConstTerm returns (a copy of) the constant term.
func (e LinExpr) ConstTerm() *big.Rat {
	if e.k == nil {
		return new(big.Rat)
	}
	return new(big.Rat).Set(e.k)
}

// IsConst reports whether e has no variable term.
func (e LinExpr) IsConst() bool { return len(e.terms) == 0 }

// Dims returns the dimensions with a nonzero coefficient, sorted.
func (e LinExpr) Dims() []int {
	d := make([]int, len(e.terms))
	for i, t := range e.terms {
		d[i] = t.dim
	}
	return d
}

// An Op is the relation of a Constraint's expression to zero.
type Op int

const (
	Le Op = iota // Expr <= 0
	Eq           // Expr == 0
	// Lt is Expr < 0. Domains over closed sets cannot represent it
	// exactly: when every dimension of Expr is an integer dimension it is
	// tightened to Expr+1 <= 0 (after scaling to integer coefficients),
	// otherwise it is closed to Expr <= 0, an over-approximation.
	Lt
)

// A Constraint is the linear constraint Expr Op 0.
type Constraint struct {
	Expr LinExpr
	Op   Op
}

// String formats c readably over the names of s, with integer
// coefficients, variables on the left and the constant on the right,
// e.g. "x - y >= 2". Constant constraints print as "true" or "false".
func (c Constraint) String(s *Space) string {
	k := c.Expr.ConstTerm()
	if len(c.Expr.terms) == 0 {
		var ok bool
		switch c.Op {
		case Le:
			ok = k.Sign() <= 0
		case Eq:
			ok = k.Sign() == 0
		default:
			ok = k.Sign() < 0
		}
		if ok {
			return "true"
		}
		return "false"
	}
	// Scale by a positive factor to integer coefficients and constant
	// with gcd 1, and negate if the leading coefficient is negative.
	den := new(big.Int).Set(k.Denom())
	for _, t := range c.Expr.terms {
		lcm(den, t.coef.Denom())
	}
	g := new(big.Int)
	for _, t := range c.Expr.terms {
		g.GCD(nil, nil, g, new(big.Int).Mul(t.coef.Num(), new(big.Int).Quo(den, t.coef.Denom())))
	}
	g.GCD(nil, nil, g, new(big.Int).Mul(k.Num(), new(big.Int).Quo(den, k.Denom())))
	f := new(big.Rat).SetFrac(den, g)
	neg := c.Expr.terms[0].coef.Sign() < 0
	if neg {
		f.Neg(f)
	}
	var b strings.Builder
	for i, t := range c.Expr.terms {
		a := new(big.Rat).Mul(t.coef, f)
		switch {
		case i == 0 && a.Sign() < 0:
			b.WriteString("-")
		case i > 0 && a.Sign() < 0:
			b.WriteString(" - ")
		case i > 0:
			b.WriteString(" + ")
		}
		a.Abs(a)
		if !a.IsInt() || a.Num().Cmp(big.NewInt(1)) != 0 {
			b.WriteString(a.RatString())
			b.WriteString("*")
		}
		b.WriteString(s.name(t.dim))
	}
	op := map[Op]string{Le: " <= ", Eq: " = ", Lt: " < "}[c.Op]
	if neg {
		op = map[Op]string{Le: " >= ", Eq: " = ", Lt: " > "}[c.Op]
	}
	b.WriteString(op)
	b.WriteString(new(big.Rat).Neg(new(big.Rat).Mul(k, f)).RatString())
	return b.String()
}

// lcm sets z to lcm(z, d) for positive d.
func lcm(z, d *big.Int) {
	if d.Cmp(big.NewInt(1)) == 0 {
		return
	}
	g := new(big.Int).GCD(nil, nil, z, d)
	z.Mul(z, new(big.Int).Quo(d, g))
}

// AppendKey appends to buf a key of c that equal constraints (same
// relation, same terms, same constant, as rationals) share and others
// do not, for a caller that converts many equal constraints.
func (c Constraint) AppendKey(buf []byte) []byte {
	buf = strconv.AppendInt(buf, int64(c.Op), 10)
	for _, t := range c.Expr.terms {
		buf = strconv.AppendInt(append(buf, ' '), int64(t.dim), 10)
		buf = appendRat(append(buf, ':'), t.coef)
	}
	if k := c.Expr.k; k != nil && k.Sign() != 0 {
		buf = appendRat(append(buf, ' ', 'k'), k)
	}
	return buf
}

func appendRat(buf []byte, r *big.Rat) []byte {
	buf = r.Num().Append(buf, 10)
	if !r.IsInt() {
		buf = r.Denom().Append(append(buf, '/'), 10)
	}
	return buf
}
