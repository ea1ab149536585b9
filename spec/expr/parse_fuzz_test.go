package expr

import (
	"math/big"
	"testing"
)

// FuzzParseExpr: any text either fails with positioned errors or parses
// to a typed expression that prints back to text with the same tree
// (rational constants aside, whose quotient form parses as a division),
// and evaluates without panicking.
func FuzzParseExpr(f *testing.F) {
	level := &Enum{Name: "Level", Values: []string{"low", "high"}}
	scope := &Scope{
		Vars: map[string]Type{"x": IntType, "y": IntType, "r": RealType, "b": BoolType, "l": EnumType(level),
			"a[0]": IntType, "a[1]": IntType, "a[2]": IntType},
		Params: map[string]Type{"p": IntType, "q": RealType},
		Consts: map[string]*Enum{"low": level, "high": level},
		Arrays: map[string]*ArrayVar{"a": {Name: "a", Len: 3, Elem: IntType}},
		Funcs: map[string]*Func{
			"F": {Name: "F", Params: []Type{IntType, IntType, IntType, RealType}, ParamLens: []int{3, 0}, Result: IntType},
			"G": {Name: "G", Params: []Type{RealType}, Result: BoolType},
		},
	}
	for _, s := range []string{
		"p == y - x && p >= 2", "!(p == 2 && x >= 3)", "r + 1 > q * 2.5", "l == high || b",
		"x / 2 == -7 % 3", "-(-x)", "x - (y - 1)", "q / 3 == 0.1", "1e3 > r", "x +", "x.y", `"s"`,
		"ite(b, x, y) + min(x, y, 3) > max(abs(p), 0)", "abs(q) * real(x) >= r", "real(1) + real(x - 2)",
		"a[x] + a[2] > a[p + 1]", "F(a, q) == F([3]int{x, a[1], 0}, 1)", "G(ite(b, r, 2.5)) || a[3] == 0",
		"ite(x == 0, a[0], ite(x == 1, a[1], a[2])) > 0", "a", "a[1.5]", "a[b]", "F(x, y, p, q) > 0", "ite(b, x, r)",
	} {
		f.Add(s)
	}
	env := Valuation{
		Vars: map[string]Value{"x": IntValue(big.NewInt(-7)), "y": IntValue(big.NewInt(2)), "r": RatValue(big.NewRat(7, 2)),
			"b": BoolValue(true), "l": EnumValue(level, 1)},
		Params: map[string]Value{"p": IntValue(big.NewInt(0)), "q": RatValue(big.NewRat(-1, 3))},
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2000 {
			return
		}
		e, err := Parse(src, Pos{File: "f", Line: 1, Col: 1}, scope)
		if err != nil {
			for _, le := range err.(ErrorList) {
				if !le.Pos.IsValid() {
					t.Fatalf("%q: error without a position: %v", src, le)
				}
			}
			return
		}
		text := Format(e)
		e2, err := Parse(text, Pos{}, scope)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", src, text, err)
		}
		if Format(e2) != text {
			t.Fatalf("%q printed as %q, then as %q", src, text, Format(e2))
		}
		if e2.Type() != e.Type() {
			t.Fatalf("%q: type %s, after printing %s", src, e.Type(), e2.Type())
		}
		_, _ = Eval(e, env) // must not panic (division by zero is an error)
	})
}
