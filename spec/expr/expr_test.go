package expr

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// testScope declares variables and parameters of every type, and two
// enumerated types to compare.
func testScope() *Scope {
	status := &Enum{Name: "Status", Values: []string{"idle", "busy"}}
	color := &Enum{Name: "Color", Values: []string{"red", "green"}}
	return &Scope{
		Vars: map[string]Type{
			"x": IntType, "y": IntType, "r": RealType, "b": BoolType, "s": EnumType(status), "c": EnumType(color),
		},
		Params: map[string]Type{"p": IntType, "q": RealType},
		Consts: map[string]*Enum{"idle": status, "busy": status, "red": color, "green": color},
		Funcs: map[string]*Func{
			"f": {Name: "f", Params: []Type{IntType, RealType}, Result: RealType},
		},
	}
}

// base is where the expressions of the tests start in their "file".
var base = Pos{File: "m.yaml", Line: 3, Col: 10}

func TestParse(t *testing.T) {
	tests := []struct {
		src  string
		typ  string // type of the result
		want string // Format of the result
	}{
		{"x + 1", "int", "x + 1"},
		{"x - y - 1", "int", "x - y - 1"},
		{"x - (y - 1)", "int", "x - (y - 1)"},
		{"(x + 1) * 2", "int", "(x + 1) * 2"},
		{"x / 2 + x % 3", "int", "x / 2 + x % 3"},
		{"-5", "int", "-5"},
		{"-x", "int", "-x"},
		{"+x", "int", "x"},
		{"- -x", "int", "-(-x)"},
		{"123456789012345678901234567890 > x", "bool", "123456789012345678901234567890 > x"},
		{"1_000 == x", "bool", "1000 == x"},
		{"0x10 == x", "bool", "16 == x"},
		// An integer constant next to a real is a real constant.
		{"r + 1", "real", "r + 1.0"},
		{"1 + r", "real", "1.0 + r"},
		{"r * 2.5", "real", "r * 2.5"},
		{"r > -2", "bool", "r > -2.0"},
		{"r == (1 + 2) * 3", "bool", "r == (1.0 + 2.0) * 3.0"},
		{"q / 4 <= r", "bool", "q / 4.0 <= r"},
		{"0.1 + r", "real", "0.1 + r"},
		{"x == 0 && y == 0", "bool", "x == 0 && y == 0"},
		{"!(x < y) || b", "bool", "!(x < y) || b"},
		{"b == true", "bool", "b == true"},
		{"b != (x > 1)", "bool", "b != (x > 1)"},
		{"(x == 1 || y == 1) && b", "bool", "(x == 1 || y == 1) && b"},
		{"s == idle", "bool", "s == idle"},
		{"s != busy", "bool", "s != busy"},
		{"c == green", "bool", "c == green"},
		{"p >= 2 && p == y - x", "bool", "p >= 2 && p == y - x"},
		{"f(x, 1) > r", "bool", "f(x, 1.0) > r"},
	}
	for _, tt := range tests {
		e, err := Parse(tt.src, base, testScope())
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := e.Type().String(); got != tt.typ {
			t.Errorf("Parse(%q) has type %s, want %s", tt.src, got, tt.typ)
		}
		if got := Format(e); got != tt.want {
			t.Errorf("Format(Parse(%q)) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src string
		col int    // offset in src of the reported position
		msg string // a substring of the message
	}{
		{"x + r", 2, "mismatched types int and real"},
		{"r + x > 0", 2, "mismatched types real and int"},
		{"x + true", 2, "mismatched types int and bool"},
		{"r % 2", 2, "% is defined on int only"},
		{"x % 2.5", 2, "mismatched types int and real"},
		{"s < busy", 2, "operator < not defined"},
		{"s == red", 2, "mismatched types Status and Color"},
		{"s == 1", 2, "mismatched types Status and int"},
		{"b + 1", 2, "mismatched types bool and int"},
		{"b + b", 2, "operator + not defined"},
		{"x == 0 && z > 1", 10, "undeclared name z"},
		{"y+zz", 2, "undeclared name zz"},
		{"!x", 0, "operator ! not defined"},
		{"-b", 0, "operator - not defined"},
		{"b && x", 2, "operator && not defined on x"},
		{"x / 0", 4, "division by zero"},
		{"x % 0", 4, "division by zero"},
		{"r / 0.0", 4, "division by zero"},
		{"x.y", 0, "selector"},
		{"a[1]", 0, "indexing"},
		{`"a" < 1`, 4, "mismatched types string and int"},
		{"'a'", 0, "not allowed"},
		{"x & 1", 2, "operator & is not allowed"},
		{"x << 1", 2, "operator << is not allowed"},
		{"x +", 3, "syntax error"},
		{"x = 1", 2, "syntax error"},
		{"(x", 2, "syntax error"},
		{"g(x)", 0, "undeclared function g"},
		{"f(x)", 0, "takes 2 arguments"},
		{"f(r, r) > 0", 2, "argument 1 of f has type real, want int"},
		{"0x1p4 > r", 0, "malformed decimal"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src, base, testScope())
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want error %q", tt.src, tt.msg)
			continue
		}
		list, ok := err.(ErrorList)
		if !ok || len(list) == 0 {
			t.Errorf("Parse(%q) error %T %v, want an ErrorList", tt.src, err, err)
			continue
		}
		want := fmt.Sprintf("m.yaml:3:%d: ", base.Col+tt.col)
		if got := list[0].Error(); !strings.HasPrefix(got, want) || !strings.Contains(got, tt.msg) {
			t.Errorf("Parse(%q) = %q, want %q...%q", tt.src, got, want, tt.msg)
		}
	}
}

func TestParseMultiLinePosition(t *testing.T) {
	// The second line of an expression is reported on the next line.
	_, err := Parse("x == 0 &&\nzz > 1", base, testScope())
	if err == nil || !strings.HasPrefix(err.Error(), "m.yaml:4:1: undeclared name zz") {
		t.Errorf("got %v, want m.yaml:4:1: undeclared name zz", err)
	}
}

func TestParseBool(t *testing.T) {
	if _, err := ParseBool("x + 1", base, testScope()); err == nil || !strings.Contains(err.Error(), "want bool") {
		t.Errorf("ParseBool(x + 1) = %v, want a type error", err)
	}
	if _, err := ParseBool("x > 1", base, testScope()); err != nil {
		t.Errorf("ParseBool(x > 1): %v", err)
	}
}

// TestFormatRoundTrip checks that Format prints what Parse reads back as
// the same expression, including the trees that need parentheses and
// the constants that need a particular spelling.
func TestFormatRoundTrip(t *testing.T) {
	sc := testScope()
	x, y, r := VarRef("x", IntType), VarRef("y", IntType), VarRef("r", RealType)
	rat := func(a, b int64) Expr { return RatConst(big.NewRat(a, b)) }
	huge, _ := new(big.Int).SetString("-98765432109876543210987654321", 10)
	env := Valuation{Vars: map[string]Value{
		"x": IntValue(big.NewInt(-7)), "y": IntValue(big.NewInt(3)), "r": RatValue(big.NewRat(-2, 3)),
		"b": BoolValue(true), "s": EnumValue(sc.Consts["idle"], 0),
	}}
	tests := []struct {
		e Expr
		// exact: Parse gives the very tree back. Otherwise it gives an
		// expression of the same value: a rational
		// that is not a finite decimal prints as a quotient, and -(-4)
		// is read as the constant 4.
		exact bool
	}{
		{Arith(Sub, x, Arith(Sub, y, IntConst(1))), true},
		{Arith(Mul, Arith(Add, x, y), IntConst(-3)), true},
		{Arith(Div, Arith(Mod, x, IntConst(2)), Arith(Div, y, IntConst(-2))), true},
		{&Unary{Op: Neg, X: &Unary{Op: Neg, X: x}}, true},
		{&Unary{Op: Neg, X: Arith(Add, x, y)}, true},
		{Compare(Lt, BigIntConst(huge), x), true},
		{Compare(Le, r, rat(7, 2)), true},
		{Compare(Gt, r, rat(-1, 8)), true},
		{NotOf(AndOf(Compare(Lt, x, y), Compare(Eq, x, IntConst(0)))), true},
		{OrOf(AndOf(Compare(Lt, x, y), OrOf(Compare(Eq, x, IntConst(0)), Compare(Ne, y, IntConst(1)))), False()), true},
		{AndOf(Compare(Eq, VarRef("b", BoolType), Compare(Lt, x, y)), True()), true},
		{Compare(Eq, VarRef("s", EnumType(sc.Consts["idle"])), &EnumLit{Enum: sc.Consts["busy"], Index: 1}), true},
		{&Unary{Op: Neg, X: IntConst(-4)}, false},
		{Compare(Ge, r, rat(1, 3)), false},
		{Compare(Eq, Arith(Mul, r, rat(-1, 3)), rat(-5, 7)), false},
		{Compare(Eq, Arith(Div, r, rat(2, 3)), rat(-1, 1)), false},
		{Compare(Lt, Arith(Sub, r, rat(-1, 3)), rat(0, 1)), false},
	}
	for _, tt := range tests {
		src := Format(tt.e)
		back, err := Parse(src, base, sc)
		if err != nil {
			t.Errorf("Parse(Format(e)) = Parse(%q): %v", src, err)
			continue
		}
		if tt.exact && !Equal(tt.e, back) {
			t.Errorf("Parse(%q) = %s, not equal to the original", src, Format(back))
		}
		// After one round trip the text is a fixpoint (the first may
		// spell constants differently: 1.0 / 3 becomes 1.0 / 3.0).
		again, err := Parse(Format(back), base, sc)
		if err != nil || !Equal(back, again) {
			t.Errorf("Parse(Format(Parse(%q))) = %v, %v; not a fixpoint", src, again, err)
		}
		v1, err1 := Eval(tt.e, env)
		v2, err2 := Eval(back, env)
		if err1 != nil || err2 != nil || !v1.Equal(v2) {
			t.Errorf("%s: value %v (%v) before, %v (%v) after the round trip", src, v1, err1, v2, err2)
		}
	}
	// Parsed expressions come back as the same tree.
	for _, src := range []string{"r >= 1.0 / 3", "-(x - -y) * 2 % 5 == -x / -3", "!(b == (x < 1)) || r * (1 / 3.0) != 0.125"} {
		e, err := Parse(src, base, sc)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		back, err := Parse(Format(e), base, sc)
		if err != nil || !Equal(e, back) {
			t.Errorf("Parse(Format(Parse(%q))) = %v, %v; not equal", src, back, err)
		}
	}
}

func TestEval(t *testing.T) {
	sc := testScope()
	env := Valuation{
		Vars: map[string]Value{
			"x": IntValue(big.NewInt(-7)), "y": IntValue(big.NewInt(2)),
			"r": RatValue(big.NewRat(7, 2)), "b": BoolValue(true),
			"s": EnumValue(sc.Consts["busy"], 1),
		},
		Params: map[string]Value{"p": IntValue(big.NewInt(0)), "q": RatValue(big.NewRat(-1, 3))},
	}
	tests := []struct{ src, want string }{
		{"-7 / 2", "-4"},
		{"-7 % 2", "1"},
		{"7 / -2", "-3"},
		{"7 % -2", "1"},
		{"-7 / -2", "4"},
		{"-7 % -2", "1"},
		{"x / y", "-4"},
		{"x % y", "1"},
		{"x / y * y + x % y == x", "true"},
		{"100000000000000000000 * 100000000000000000000", "10000000000000000000000000000000000000000"},
		{"-100000000000000000001 / 10", "-10000000000000000001"},
		{"-100000000000000000001 % 10", "9"},
		{"18446744073709551616 - 1", "18446744073709551615"},
		{"r + q", "19/6"},
		{"r / 2", "1.75"},
		{"r * q", "-7/6"},
		{"r - 3.5", "0"},
		{"q < 0 && r > 3", "true"},
		{"r == 3.5", "true"},
		{"1 / 3 == 0", "true"},
		{"s == busy", "true"},
		{"s != busy || !b", "false"},
		// Short-circuit: the right operand would divide by zero.
		{"p != 0 && x / p > 1", "false"},
		{"p == 0 || x % p > 1", "true"},
	}
	for _, tt := range tests {
		e, err := Parse(tt.src, base, sc)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		v, err := Eval(e, env)
		if err != nil {
			t.Errorf("Eval(%q): %v", tt.src, err)
			continue
		}
		if got := v.String(); got != tt.want {
			t.Errorf("Eval(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	sc := testScope()
	env := Valuation{Vars: map[string]Value{"x": IntValue(big.NewInt(1))}, Params: map[string]Value{"p": IntValue(big.NewInt(0))}}
	for _, src := range []string{"x / p", "x % p", "y + 1 > 0", "f(x, 1.0) > 0.0"} {
		e, err := Parse(src, base, sc)
		if err != nil {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		if _, err := Eval(e, env); err == nil {
			t.Errorf("Eval(%q) succeeded, want an error", src)
		}
	}
}

func TestEuclidDivMod(t *testing.T) {
	for _, a := range []int64{-9, -7, -1, 0, 1, 7, 9} {
		for _, b := range []int64{-3, -2, 2, 3} {
			q, r := EuclidDivMod(big.NewInt(a), big.NewInt(b))
			if r.Sign() < 0 || r.CmpAbs(big.NewInt(b)) >= 0 {
				t.Errorf("%d mod %d = %v, want 0 <= r < |b|", a, b, r)
			}
			if got := q.Int64()*b + r.Int64(); got != a {
				t.Errorf("%d div %d = %v, %v: b*q + r = %d", a, b, q, r, got)
			}
		}
	}
}

func TestFormatRealConstants(t *testing.T) {
	tests := []struct {
		r    *big.Rat
		want string
	}{
		{big.NewRat(1, 8), "0.125"},
		{big.NewRat(-5, 2), "-2.5"},
		{big.NewRat(3, 1), "3.0"},
		{big.NewRat(1, 3), "1.0 / 3"},
		{big.NewRat(7, 20), "0.35"},
		{big.NewRat(1, 1<<40), "0.0000000000009094947017729282379150390625"},
	}
	for _, tt := range tests {
		if got := Format(RatConst(tt.r)); got != tt.want {
			t.Errorf("Format(%v) = %q, want %q", tt.r, got, tt.want)
		}
	}
	// A tiny constant prints fast (as a quotient) and reads back equal.
	e, err := Parse("r > 0.1e-400000", base, testScope())
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(Format(e), base, testScope())
	if err != nil {
		t.Fatal(err)
	}
	v1, _ := Eval(e.(*Binary).Y, Valuation{})
	v2, _ := Eval(back.(*Binary).Y, Valuation{})
	if !v1.Equal(v2) {
		t.Error("0.1e-400000 changed in a round trip")
	}
}
