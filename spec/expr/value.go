package expr

import (
	"fmt"
	"math/big"
	"strconv"
)

// Value is a concrete value of a datum: an int (big.Int), a real
// (big.Rat), a bool, an enum constant or a string. Values are immutable; the
// zero Value is invalid.
type Value struct {
	T    Type
	Int  *big.Int // Kind Int
	Rat  *big.Rat // Kind Real
	Bool bool     // Kind Bool
	Enum int      // Kind EnumKind: index into T.Enum.Values
	Str  string   // Kind Str
}

// IntValue, RatValue, BoolValue and EnumValue make values.
func IntValue(v *big.Int) Value      { return Value{T: IntType, Int: v} }
func RatValue(v *big.Rat) Value      { return Value{T: RealType, Rat: v} }
func BoolValue(b bool) Value         { return Value{T: BoolType, Bool: b} }
func EnumValue(e *Enum, i int) Value { return Value{T: EnumType(e), Enum: i} }

// IsValid reports whether v holds a value.
func (v Value) IsValid() bool { return v.T.Kind != Invalid }

// Equal reports whether v and w are the same value of the same type.
func (v Value) Equal(w Value) bool {
	if v.T != w.T {
		return false
	}
	switch v.T.Kind {
	case Int:
		return v.Int.Cmp(w.Int) == 0
	case Real:
		return v.Rat.Cmp(w.Rat) == 0
	case Bool:
		return v.Bool == w.Bool
	case EnumKind:
		return v.Enum == w.Enum
	case Str:
		return v.Str == w.Str
	}
	return true
}

// Expr returns v as a constant expression.
func (v Value) Expr() Expr {
	switch v.T.Kind {
	case Int:
		return BigIntConst(v.Int)
	case Real:
		return RatConst(v.Rat)
	case Bool:
		return BoolConst(v.Bool)
	case EnumKind:
		return &EnumLit{Enum: v.T.Enum, Index: v.Enum}
	case Str:
		return &StrLit{Val: v.Str}
	}
	return bad
}

// String prints v as a constant of the model language
// (a real prints as a decimal or as "7/2").
func (v Value) String() string {
	switch v.T.Kind {
	case Int:
		return v.Int.String()
	case Real:
		if v.Rat.IsInt() {
			return v.Rat.Num().String()
		}
		s, quotient := RatText(v.Rat)
		if quotient {
			return v.Rat.String()
		}
		return s
	case Bool:
		return fmt.Sprint(v.Bool)
	case EnumKind:
		return v.T.Enum.Values[v.Enum]
	case Str:
		return strconv.Quote(v.Str)
	}
	return "<invalid>"
}

// Zero returns the zero value of t (0, 0.0, false, the first constant).
func Zero(t Type) Value {
	switch t.Kind {
	case Int:
		return IntValue(new(big.Int))
	case Real:
		return RatValue(new(big.Rat))
	case Bool:
		return BoolValue(false)
	case EnumKind:
		return EnumValue(t.Enum, 0)
	case Str:
		return StringValue("")
	}
	return Value{}
}
