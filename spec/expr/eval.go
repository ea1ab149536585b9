package expr

import (
	"fmt"
	"math/big"
	"strings"
)

// Env gives the values of the identifiers an expression reads.
type Env interface {
	// Lookup returns the value of the variable or parameter, and false
	// when it has none.
	Lookup(kind IdentKind, name string) (Value, bool)
}

// Valuation is the simple Env: variables and parameters by name.
type Valuation struct {
	Vars   map[string]Value
	Params map[string]Value
}

func (v Valuation) Lookup(kind IdentKind, name string) (Value, bool) {
	if kind == ParamIdent {
		x, ok := v.Params[name]
		return x, ok
	}
	x, ok := v.Vars[name]
	return x, ok
}

// EvalError is an error of evaluation (division by zero, an unbound name).
type EvalError struct {
	Expr Expr
	Msg  string
}

func (e *EvalError) Error() string { return fmt.Sprintf("evaluating %s: %s", Format(e.Expr), e.Msg) }

// Eval evaluates e exactly in env: big.Int arithmetic with Euclidean
// division and remainder on int, big.Rat on real.
func Eval(e Expr, env Env) (Value, error) {
	switch e := e.(type) {
	case *IntLit:
		return IntValue(e.Val), nil
	case *RealLit:
		return RatValue(e.Val), nil
	case *BoolLit:
		return BoolValue(e.Val), nil
	case *EnumLit:
		return EnumValue(e.Enum, e.Index), nil
	case *StrLit:
		return StringValue(e.Val), nil
	case *StrCall:
		return evalStr(e, env)
	case *Ident:
		v, ok := env.Lookup(e.Kind, e.Name)
		if !ok {
			return Value{}, &EvalError{e, "no value for " + e.Name}
		}
		if v.T != e.T {
			return Value{}, &EvalError{e, fmt.Sprintf("value %s of %s has type %s, want %s", v, e.Name, v.T, e.T)}
		}
		return v, nil
	case *Unary:
		x, err := Eval(e.X, env)
		if err != nil {
			return Value{}, err
		}
		switch e.Op {
		case Not:
			return BoolValue(!x.Bool), nil
		case Neg:
			if x.T.Kind == Int {
				return IntValue(new(big.Int).Neg(x.Int)), nil
			}
			return RatValue(new(big.Rat).Neg(x.Rat)), nil
		case ToReal:
			if x.T.Kind == Int {
				return RatValue(new(big.Rat).SetInt(x.Int)), nil
			}
			return Value{}, &EvalError{e, "real() of a " + x.T.String()}
		}
	case *Cond:
		// Only the chosen branch is evaluated, as && and || do.
		c, err := EvalBool(e.If, env)
		if err != nil {
			return Value{}, err
		}
		if c {
			return Eval(e.Then, env)
		}
		return Eval(e.Else, env)
	case *Binary:
		return evalBinary(e, env)
	case *Call:
		return evalCall(e, env)
	}
	return Value{}, &EvalError{e, "cannot evaluate"}
}

// A Caller evaluates calls of external functions (package extfunc). Eval
// evaluates a call when its Env is also a Caller; otherwise a call is an
// error.
type Caller interface {
	// Call returns f(args...), or an error naming f and the arguments.
	Call(f string, args []Value) (Value, error)
}

func evalCall(e *Call, env Env) (Value, error) {
	c, ok := env.(Caller)
	if !ok {
		return Value{}, &EvalError{e, "external function " + e.Func + " has no implementation here"}
	}
	args := make([]Value, len(e.Args))
	for i, a := range e.Args {
		v, err := Eval(a, env)
		if err != nil {
			return Value{}, err
		}
		args[i] = v
	}
	v, err := c.Call(e.Func, args)
	if err != nil {
		return Value{}, &EvalError{e, err.Error()}
	}
	if v.T != e.T {
		return Value{}, &EvalError{e, fmt.Sprintf("%s returned %s of type %s, want %s", e.Func, v, v.T, e.T)}
	}
	return v, nil
}

// EvalBool evaluates a predicate.
func EvalBool(e Expr, env Env) (bool, error) {
	v, err := Eval(e, env)
	if err != nil {
		return false, err
	}
	if v.T != BoolType {
		return false, &EvalError{e, "not a predicate"}
	}
	return v.Bool, nil
}

func evalBinary(e *Binary, env Env) (Value, error) {
	x, err := Eval(e.X, env)
	if err != nil {
		return Value{}, err
	}
	// Short-circuit the boolean operators: a guard like
	// "n != 0 && m / n > 1" must not fail on n == 0.
	switch e.Op {
	case And:
		if !x.Bool {
			return x, nil
		}
		return Eval(e.Y, env)
	case Or:
		if x.Bool {
			return x, nil
		}
		return Eval(e.Y, env)
	}
	y, err := Eval(e.Y, env)
	if err != nil {
		return Value{}, err
	}
	if e.Op.IsComparison() {
		c, err := compare(e, x, y)
		if err != nil {
			return Value{}, err
		}
		return BoolValue(c), nil
	}
	switch x.T.Kind {
	case Int:
		a, b := x.Int, y.Int
		r := new(big.Int)
		switch e.Op {
		case Add:
			r.Add(a, b)
		case Sub:
			r.Sub(a, b)
		case Mul:
			r.Mul(a, b)
		case Div, Mod:
			if b.Sign() == 0 {
				return Value{}, &EvalError{e, "division by zero"}
			}
			q, m := EuclidDivMod(a, b)
			if e.Op == Div {
				r = q
			} else {
				r = m
			}
		}
		return IntValue(r), nil
	case Real:
		a, b := x.Rat, y.Rat
		r := new(big.Rat)
		switch e.Op {
		case Add:
			r.Add(a, b)
		case Sub:
			r.Sub(a, b)
		case Mul:
			r.Mul(a, b)
		case Div:
			if b.Sign() == 0 {
				return Value{}, &EvalError{e, "division by zero"}
			}
			r.Quo(a, b)
		default:
			return Value{}, &EvalError{e, "operator not defined on real"}
		}
		return RatValue(r), nil
	}
	return Value{}, &EvalError{e, "ill-typed operands"}
}

func compare(e *Binary, x, y Value) (bool, error) {
	var c int
	switch x.T.Kind {
	case Int:
		c = x.Int.Cmp(y.Int)
	case Real:
		c = x.Rat.Cmp(y.Rat)
	case Str:
		c = strings.Compare(x.Str, y.Str)
	case Bool, EnumKind:
		eq := x.Equal(y)
		switch e.Op {
		case Eq:
			return eq, nil
		case Ne:
			return !eq, nil
		}
		return false, &EvalError{e, "ordered comparison of " + x.T.String()}
	default:
		return false, &EvalError{e, "ill-typed operands"}
	}
	switch e.Op {
	case Eq:
		return c == 0, nil
	case Ne:
		return c != 0, nil
	case Lt:
		return c < 0, nil
	case Le:
		return c <= 0, nil
	case Gt:
		return c > 0, nil
	case Ge:
		return c >= 0, nil
	}
	return false, &EvalError{e, "not a comparison"}
}

// EuclidDivMod returns q, r with a = b*q + r and 0 <= r < |b|
// (SMT-LIB div and mod). b must not be zero.
func EuclidDivMod(a, b *big.Int) (q, r *big.Int) {
	// big.Int's DivMod is exactly Euclidean division.
	q, r = new(big.Int), new(big.Int)
	q.DivMod(a, b, r)
	return q, r
}
