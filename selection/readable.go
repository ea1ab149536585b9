package selection

import (
	"math/big"

	"github.com/stg-tool/stg/spec"
)

// isolateParameters rewrites each linear comparison that mentions one
// parameter, with coefficient ±1, into the form "p op rest": a send
// guard x == p - 2 reads p == x + 2, which says what to send. The
// rewriting is exact algebra over the integers or rationals.
func isolateParameters(e spec.Expr) spec.Expr {
	switch e := e.(type) {
	case *spec.Unary:
		if e.Op == spec.Not {
			return spec.NotOf(isolateParameters(e.X))
		}
	case *spec.Binary:
		switch e.Op {
		case spec.And:
			return spec.AndOf(isolateParameters(e.X), isolateParameters(e.Y))
		case spec.Or:
			return spec.OrOf(isolateParameters(e.X), isolateParameters(e.Y))
		}
		if e.Op.IsComparison() && e.X.Type().IsNumeric() {
			if r := isolate(e); r != nil {
				return r
			}
		}
	}
	return e
}

// term is c·id in a linear form.
type term struct {
	id *spec.Ident
	c  *big.Rat
}

// linearForm is Σ terms + k, terms in order of first appearance.
type linearForm struct {
	terms []term
	k     *big.Rat
}

func (f *linearForm) add(id *spec.Ident, c *big.Rat) {
	for i := range f.terms {
		t := &f.terms[i]
		if t.id.Name == id.Name && t.id.Kind == id.Kind {
			t.c = new(big.Rat).Add(t.c, c)
			return
		}
	}
	f.terms = append(f.terms, term{id, new(big.Rat).Set(c)})
}

// collect adds s·e to f, reporting false when e is not linear.
func (f *linearForm) collect(e spec.Expr, s *big.Rat) bool {
	switch e := e.(type) {
	case *spec.IntLit:
		f.k.Add(f.k, new(big.Rat).Mul(s, new(big.Rat).SetInt(e.Val)))
		return true
	case *spec.RealLit:
		f.k.Add(f.k, new(big.Rat).Mul(s, e.Val))
		return true
	case *spec.Ident:
		f.add(e, s)
		return true
	case *spec.Unary:
		return e.Op == spec.Neg && f.collect(e.X, new(big.Rat).Neg(s))
	case *spec.Binary:
		switch e.Op {
		case spec.Add:
			return f.collect(e.X, s) && f.collect(e.Y, s)
		case spec.Sub:
			return f.collect(e.X, s) && f.collect(e.Y, new(big.Rat).Neg(s))
		case spec.Mul:
			if c, ok := constant(e.X); ok {
				return f.collect(e.Y, new(big.Rat).Mul(s, c))
			}
			if c, ok := constant(e.Y); ok {
				return f.collect(e.X, new(big.Rat).Mul(s, c))
			}
		}
	}
	return false
}

func constant(e spec.Expr) (*big.Rat, bool) {
	switch e := e.(type) {
	case *spec.IntLit:
		return new(big.Rat).SetInt(e.Val), true
	case *spec.RealLit:
		return e.Val, true
	}
	return nil, false
}

func isolate(e *spec.Binary) spec.Expr {
	f := &linearForm{k: new(big.Rat)}
	one := big.NewRat(1, 1)
	if !f.collect(e.X, one) || !f.collect(e.Y, new(big.Rat).Neg(one)) {
		return nil
	}
	// X - Y op 0; find the parameter.
	p := -1
	for i, t := range f.terms {
		if t.c.Sign() == 0 || t.id.Kind != spec.ParamIdent {
			continue
		}
		if p >= 0 {
			return nil // two parameters: leave it
		}
		p = i
	}
	if p < 0 {
		return nil
	}
	c := f.terms[p].c
	op := e.Op
	if c.Cmp(one) != 0 {
		if c.Cmp(new(big.Rat).Neg(one)) != 0 {
			return nil
		}
		op = mirror(op)
	} else {
		// p + rest op 0  ⟺  p op -rest: negate the other terms.
		for i := range f.terms {
			f.terms[i].c = new(big.Rat).Neg(f.terms[i].c)
		}
		f.k.Neg(f.k)
	}
	// Now p op Σ_{i≠p} c_i x_i + k (the terms were moved to the right).
	t := e.X.Type()
	var rest spec.Expr
	var subtract []spec.Expr
	for i, tm := range f.terms {
		if i == p || tm.c.Sign() == 0 {
			continue
		}
		v := scaledTerm(new(big.Rat).Abs(tm.c), tm.id, t)
		if v == nil {
			return nil
		}
		if tm.c.Sign() > 0 {
			rest = sum(rest, v)
		} else {
			subtract = append(subtract, v)
		}
	}
	if rest == nil && len(subtract) > 0 && f.k.Sign() > 0 {
		// "100 - level" rather than "-level + 100".
		if rest = constantOf(f.k, t); rest == nil {
			return nil
		}
		f.k.SetInt64(0)
	}
	for _, v := range subtract {
		if rest == nil {
			rest = &spec.Unary{Op: spec.Neg, X: v}
		} else {
			rest = spec.Arith(spec.Sub, rest, v)
		}
	}
	if f.k.Sign() != 0 || rest == nil {
		k := constantOf(new(big.Rat).Abs(f.k), t)
		if k == nil {
			return nil
		}
		switch {
		case rest == nil:
			rest = constantOf(f.k, t)
			if rest == nil {
				return nil
			}
		case f.k.Sign() > 0:
			rest = spec.Arith(spec.Add, rest, k)
		case f.k.Sign() < 0:
			rest = spec.Arith(spec.Sub, rest, k)
		}
	}
	return spec.Compare(op, f.terms[p].id, rest)
}

// mirror turns "-p op r" into "p op' -r".
func mirror(op spec.Op) spec.Op {
	switch op {
	case spec.Lt:
		return spec.Gt
	case spec.Le:
		return spec.Ge
	case spec.Gt:
		return spec.Lt
	case spec.Ge:
		return spec.Le
	}
	return op
}

func sum(acc, v spec.Expr) spec.Expr {
	if acc == nil {
		return v
	}
	return spec.Arith(spec.Add, acc, v)
}

func scaledTerm(c *big.Rat, id *spec.Ident, t spec.Type) spec.Expr {
	if c.Cmp(big.NewRat(1, 1)) == 0 {
		return id
	}
	k := constantOf(c, t)
	if k == nil {
		return nil
	}
	return spec.Arith(spec.Mul, k, id)
}

func constantOf(r *big.Rat, t spec.Type) spec.Expr {
	if t.Kind == spec.Int {
		if !r.IsInt() {
			return nil
		}
		return spec.BigIntConst(r.Num())
	}
	return spec.RatConst(r)
}
