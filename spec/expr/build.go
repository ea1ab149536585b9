package expr

import "math/big"

// Constructors for expressions built by the pipeline rather than parsed.
// They fold the trivial cases (true && e, !!e, !(x < y)) so that generated
// guards stay readable; they never change an expression's meaning.

// True and False are the boolean constants.
var (
	trueLit  = &BoolLit{Val: true}
	falseLit = &BoolLit{Val: false}
)

// True returns the constant true.
func True() Expr { return trueLit }

// False returns the constant false.
func False() Expr { return falseLit }

// BoolConst returns true or false.
func BoolConst(b bool) Expr {
	if b {
		return trueLit
	}
	return falseLit
}

// IntConst returns the integer constant v.
func IntConst(v int64) Expr { return &IntLit{Val: big.NewInt(v)} }

// BigIntConst returns the integer constant v (copied).
func BigIntConst(v *big.Int) Expr { return &IntLit{Val: new(big.Int).Set(v)} }

// RatConst returns the real constant v (copied).
func RatConst(v *big.Rat) Expr { return &RealLit{Val: new(big.Rat).Set(v)} }

// VarRef returns a reference to the attribute variable name of type t.
func VarRef(name string, t Type) Expr { return &Ident{Name: name, Kind: VarIdent, T: t} }

// ParamRef returns a reference to the communication parameter name of type t.
func ParamRef(name string, t Type) Expr { return &Ident{Name: name, Kind: ParamIdent, T: t} }

// IsTrue reports whether e is the literal true.
func IsTrue(e Expr) bool { b, ok := e.(*BoolLit); return ok && b.Val }

// IsFalse reports whether e is the literal false.
func IsFalse(e Expr) bool { b, ok := e.(*BoolLit); return ok && !b.Val }

// NotOf returns the negation of e, pushing it into comparisons and
// removing double negations.
func NotOf(e Expr) Expr {
	switch e := e.(type) {
	case *BoolLit:
		return BoolConst(!e.Val)
	case *Unary:
		if e.Op == Not {
			return e.X
		}
	case *Binary:
		if e.Op.IsComparison() {
			// Negating a comparison of numbers is exact (total order);
			// for enums and bools only == and != occur.
			return &Binary{Op: e.Op.Negate(), X: e.X, Y: e.Y}
		}
	}
	return &Unary{Op: Not, X: e}
}

// AndOf returns the conjunction of es (true when empty).
func AndOf(es ...Expr) Expr { return junction(And, es) }

// OrOf returns the disjunction of es (false when empty).
func OrOf(es ...Expr) Expr { return junction(Or, es) }

func junction(op Op, es []Expr) Expr {
	unit, zero := true, false // for And
	if op == Or {
		unit, zero = false, true
	}
	var r Expr
	for _, e := range es {
		if b, ok := e.(*BoolLit); ok {
			if b.Val == zero {
				return BoolConst(zero)
			}
			continue // unit
		}
		if r == nil {
			r = e
		} else {
			r = &Binary{Op: op, X: r, Y: e}
		}
	}
	if r == nil {
		return BoolConst(unit)
	}
	return r
}

// ImpliesOf returns !a || b.
func ImpliesOf(a, b Expr) Expr { return OrOf(NotOf(a), b) }

// Compare returns x op y for a comparison op.
func Compare(op Op, x, y Expr) Expr { return &Binary{Op: op, X: x, Y: y} }

// Arith returns x op y for an arithmetic op (x and y of the same type).
func Arith(op Op, x, y Expr) Expr { return &Binary{Op: op, X: x, Y: y} }

// Conjuncts returns the operands of a (nested) conjunction.
func Conjuncts(e Expr) []Expr { return flatten(And, e, nil) }

// AppendConjuncts appends the operands of a (nested) conjunction to
// dst and returns the extended slice (Conjuncts without an allocation
// when dst has room).
func AppendConjuncts(dst []Expr, e Expr) []Expr { return flatten(And, e, dst) }

// Disjuncts returns the operands of a (nested) disjunction.
func Disjuncts(e Expr) []Expr { return flatten(Or, e, nil) }

func flatten(op Op, e Expr, acc []Expr) []Expr {
	if b, ok := e.(*Binary); ok && b.Op == op {
		acc = flatten(op, b.X, acc)
		return flatten(op, b.Y, acc)
	}
	return append(acc, e)
}

// NegationNormal pushes negations down to the comparisons (De Morgan),
// so that !(a == b && c >= 2) reads a != b || c < 2. Negations of
// boolean variables and calls stay as they are.
func NegationNormal(e Expr) Expr {
	switch e := e.(type) {
	case *Unary:
		if e.Op != Not {
			return e
		}
		switch x := e.X.(type) {
		case *Binary:
			switch x.Op {
			case And:
				return OrOf(NegationNormal(NotOf(x.X)), NegationNormal(NotOf(x.Y)))
			case Or:
				return AndOf(NegationNormal(NotOf(x.X)), NegationNormal(NotOf(x.Y)))
			}
			if x.Op.IsComparison() && x.X.Type().Kind != Bool {
				return NotOf(x)
			}
		case *Unary:
			if x.Op == Not {
				return NegationNormal(x.X)
			}
		case *BoolLit:
			return BoolConst(!x.Val)
		}
		return e
	case *Binary:
		if e.Op == And {
			return AndOf(NegationNormal(e.X), NegationNormal(e.Y))
		}
		if e.Op == Or {
			return OrOf(NegationNormal(e.X), NegationNormal(e.Y))
		}
	}
	return e
}
