package expr

import (
	"math/big"
)

// Kind is the kind of a Type.
type Kind int

const (
	Invalid Kind = iota
	Int          // mathematical integers
	Real         // rationals
	Bool
	EnumKind // an enumerated type; Type.Enum says which
	Str      // strings of bytes (strings.go)
)

// Enum is an enumerated type declared under `types:`.
type Enum struct {
	Name   string
	Values []string
	Pos    Pos
}

// Index returns the position of the constant name in e, or -1.
func (e *Enum) Index(name string) int {
	for i, v := range e.Values {
		if v == name {
			return i
		}
	}
	return -1
}

// Type is the type of a datum or expression. Types are comparable with ==.
type Type struct {
	Kind Kind
	Enum *Enum // set iff Kind == EnumKind
}

var (
	IntType  = Type{Kind: Int}
	RealType = Type{Kind: Real}
	BoolType = Type{Kind: Bool}
	// StringType is the type string.
	StringType = Type{Kind: Str}
)

// EnumType returns the type of the constants of e.
func EnumType(e *Enum) Type { return Type{Kind: EnumKind, Enum: e} }

// IsNumeric reports whether t is int or real.
func (t Type) IsNumeric() bool { return t.Kind == Int || t.Kind == Real }

func (t Type) String() string {
	switch t.Kind {
	case Int:
		return "int"
	case Real:
		return "real"
	case Bool:
		return "bool"
	case EnumKind:
		return t.Enum.Name
	case Str:
		return "string"
	}
	return "invalid"
}

// Op is an operator of a Unary or Binary expression.
type Op int

const (
	OpInvalid Op = iota
	// arithmetic
	Add
	Sub
	Mul
	Div // Euclidean on int, exact on real
	Mod // Euclidean remainder, int only
	Neg // unary minus
	// comparison
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	// boolean
	And
	Or
	Not
	// conversion
	ToReal // real(x): the int x as a real
)

var opText = [...]string{
	OpInvalid: "?", Add: "+", Sub: "-", Mul: "*", Div: "/", Mod: "%", Neg: "-",
	Eq: "==", Ne: "!=", Lt: "<", Le: "<=", Gt: ">", Ge: ">=", And: "&&", Or: "||", Not: "!",
	ToReal: "real",
}

func (op Op) String() string { return opText[op] }

// IsComparison reports whether op is one of == != < <= > >=.
func (op Op) IsComparison() bool { return op >= Eq && op <= Ge }

// Negate returns the comparison equivalent to !(x op y).
func (op Op) Negate() Op {
	switch op {
	case Eq:
		return Ne
	case Ne:
		return Eq
	case Lt:
		return Ge
	case Le:
		return Gt
	case Gt:
		return Le
	case Ge:
		return Lt
	}
	return OpInvalid
}

// Swap returns the comparison equivalent to y op x: x < y is y > x.
func (op Op) Swap() Op {
	switch op {
	case Lt:
		return Gt
	case Le:
		return Ge
	case Gt:
		return Lt
	case Ge:
		return Le
	}
	return op
}

// Expr is a typed expression of the model language (docs/reference.md#expressions).
// Expressions are immutable trees; build them with the constructors of
// this package (IntConst, Var, BinaryOp, AndOf, ...) or with Parse.
type Expr interface {
	Type() Type
	Pos() Pos // the position in a model file, or the zero Pos for built expressions
	exprNode()
}

// Scope of an identifier.
type IdentKind int

const (
	VarIdent   IdentKind = iota // an attribute variable (of a spec, purpose or testcase)
	ParamIdent                  // a communication parameter of the transition's action
)

type (
	// IntLit is an integer constant of any size.
	IntLit struct {
		Val *big.Int
		At  Pos
	}
	// RealLit is a rational constant.
	RealLit struct {
		Val *big.Rat
		At  Pos
	}
	// BoolLit is true or false.
	BoolLit struct {
		Val bool
		At  Pos
	}
	// EnumLit is a constant of an enumerated type.
	EnumLit struct {
		Enum  *Enum
		Index int
		At    Pos
	}
	// Ident names a variable or a parameter.
	Ident struct {
		Name string
		Kind IdentKind
		T    Type
		At   Pos
	}
	// Unary is -X, !X or real(X).
	Unary struct {
		Op Op
		X  Expr
		At Pos
	}
	// Binary is X op Y. Comparisons and boolean operators have type bool;
	// arithmetic has the type of its (equal-typed) operands.
	Binary struct {
		Op   Op
		X, Y Expr
		At   Pos
	}
	// Cond is ite(If, Then, Else): Then when If holds, Else otherwise.
	// Then and Else have the same type, the type of the Cond. The
	// built-ins min, max and abs and the reading of an array cell at a
	// computed index are written with it.
	Cond struct {
		If, Then, Else Expr
		At             Pos

		// index marks the Conds the loader writes for a[k] (a read at a
		// computed index, or a cell's update), which print back as such.
		index bool
	}
	// Call applies an external function declared by a model. Args are
	// flattened: an array argument contributes its cells. Lens, when
	// not nil, is the function's ParamLens, used to print the array
	// arguments back as arrays.
	Call struct {
		Func string
		Args []Expr
		T    Type
		At   Pos
		Lens []int
	}
)

func (*IntLit) exprNode()  {}
func (*RealLit) exprNode() {}
func (*BoolLit) exprNode() {}
func (*EnumLit) exprNode() {}
func (*Ident) exprNode()   {}
func (*Unary) exprNode()   {}
func (*Binary) exprNode()  {}
func (*Call) exprNode()    {}
func (*Cond) exprNode()    {}

func (e *IntLit) Type() Type  { return IntType }
func (e *RealLit) Type() Type { return RealType }
func (e *BoolLit) Type() Type { return BoolType }
func (e *EnumLit) Type() Type { return EnumType(e.Enum) }
func (e *Ident) Type() Type   { return e.T }
func (e *Unary) Type() Type {
	switch e.Op {
	case Not:
		return BoolType
	case ToReal:
		return RealType
	}
	return e.X.Type()
}
func (e *Binary) Type() Type {
	if e.Op.IsComparison() || e.Op == And || e.Op == Or {
		return BoolType
	}
	return e.X.Type()
}
func (e *Call) Type() Type { return e.T }
func (e *Cond) Type() Type { return e.Then.Type() }

func (e *IntLit) Pos() Pos  { return e.At }
func (e *RealLit) Pos() Pos { return e.At }
func (e *BoolLit) Pos() Pos { return e.At }
func (e *EnumLit) Pos() Pos { return e.At }
func (e *Ident) Pos() Pos   { return e.At }
func (e *Unary) Pos() Pos   { return e.At }
func (e *Binary) Pos() Pos  { return e.At }
func (e *Call) Pos() Pos    { return e.At }
func (e *Cond) Pos() Pos    { return e.At }

// Name returns the constant's name.
func (e *EnumLit) Name() string { return e.Enum.Values[e.Index] }
