package solver

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

// exprGen writes random expressions of the model language over the
// variables x, y (int), a (real) and f (bool) of scope, with the
// built-ins ite, min, max, abs and real.
type exprGen struct{ r *rand.Rand }

func (g exprGen) pick(n int) int { return g.r.Intn(n) }

func (g exprGen) intExpr(d int) string {
	if d == 0 {
		return []string{"x", "y", fmt.Sprint(g.r.Intn(9) - 4)}[g.pick(3)]
	}
	a, b := g.intExpr(d-1), g.intExpr(d-1)
	switch g.pick(9) {
	case 0:
		return "(" + a + " + " + b + ")"
	case 1:
		return "(" + a + " - " + b + ")"
	case 2:
		return "(" + a + " * " + fmt.Sprint(g.r.Intn(5)-2) + ")"
	case 3:
		return "min(" + a + ", " + b + ")"
	case 4:
		return "max(" + a + ", " + b + ", " + g.intExpr(0) + ")"
	case 5:
		return "abs(" + a + ")"
	case 6:
		return "ite(" + g.boolExpr(d-1) + ", " + a + ", " + b + ")"
	case 7:
		return "(" + a + " / " + []string{"3", "-2", b}[g.pick(3)] + ")"
	}
	return "(" + a + " % " + []string{"3", "-2", b}[g.pick(3)] + ")"
}

func (g exprGen) realExpr(d int) string {
	if d == 0 {
		return []string{"a", "real(x)", "0.5", "-2.25"}[g.pick(4)]
	}
	a, b := g.realExpr(d-1), g.realExpr(d-1)
	switch g.pick(7) {
	case 0:
		return "(" + a + " + " + b + ")"
	case 1:
		return "(" + a + " * " + b + ")"
	case 2:
		return "min(" + a + ", " + b + ")"
	case 3:
		return "abs(" + a + ")"
	case 4:
		return "ite(" + g.boolExpr(d-1) + ", " + a + ", " + b + ")"
	case 5:
		return "real(" + g.intExpr(d-1) + ")"
	}
	return "(" + a + " / " + b + ")"
}

func (g exprGen) boolExpr(d int) string {
	if d == 0 {
		return []string{"f", "x < y", "a >= 0.5"}[g.pick(3)]
	}
	switch g.pick(5) {
	case 0:
		return g.intExpr(d-1) + " <= " + g.intExpr(d-1)
	case 1:
		return g.realExpr(d-1) + " > " + g.realExpr(d-1)
	case 2:
		return "!(" + g.boolExpr(d-1) + ")"
	case 3:
		return "ite(" + g.boolExpr(d-1) + ", " + g.boolExpr(d-1) + ", " + g.boolExpr(d-1) + ")"
	}
	return "(" + g.boolExpr(d-1) + " && " + g.boolExpr(d-1) + ")"
}

// TestEvalAgreesWithZ3 checks, on random expressions with the built-ins
// and random values, that expr.Eval computes what Z3 entails: with the
// variables fixed, e == Eval(e) is valid. Expressions whose evaluation
// divides by zero are left out (Z3 leaves x / 0 unspecified).
func TestEvalAgreesWithZ3(t *testing.T) {
	c := newContext(t)
	g := exprGen{rand.New(rand.NewSource(1))}
	checked := 0
	for i := 0; i < 400; i++ {
		var src string
		switch i % 3 {
		case 0:
			src = g.intExpr(3)
		case 1:
			src = g.realExpr(3)
		default:
			src = g.boolExpr(3)
		}
		e := parse(t, src)
		vals := map[string]expr.Value{
			"x": expr.IntValue(big.NewInt(int64(g.r.Intn(21) - 10))),
			"y": expr.IntValue(big.NewInt(int64(g.r.Intn(21) - 10))),
			"a": expr.RatValue(big.NewRat(int64(g.r.Intn(41)-20), int64(g.r.Intn(4)+1))),
			"f": expr.BoolValue(g.r.Intn(2) == 0),
		}
		v, err := expr.Eval(e, expr.Valuation{Vars: vals})
		if err != nil {
			continue
		}
		var fix []expr.Expr
		for _, name := range []string{"x", "y", "a", "f"} {
			fix = append(fix, expr.Compare(expr.Eq, expr.VarRef(name, vals[name].T), vals[name].Expr()))
		}
		claim := expr.ImpliesOf(expr.AndOf(fix...), expr.Compare(expr.Eq, e, v.Expr()))
		ok, err := c.Valid(claim)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if !ok {
			t.Errorf("%s with %v: Eval gives %s, Z3 disagrees", src, vals, v)
		}
		checked++
	}
	if checked < 300 {
		t.Errorf("only %d of 400 expressions checked", checked)
	}
}

// TestBuiltinsRoundTrip checks that Z3's simplification of expressions
// with ite and real() reads back into equivalent expressions.
func TestBuiltinsRoundTrip(t *testing.T) {
	c := newContext(t)
	for _, src := range []string{
		"ite(f, x, y) + 1 > z",
		"real(x) * 2.5 + a >= b",
		"max(x, y) - min(x, y) == abs(x - y)",
		"ite(x > 0, a, real(y)) < 1.5",
	} {
		e := parse(t, src)
		s, err := c.Simplify(e)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if eq, err := c.Equivalent(e, s); err != nil || !eq {
			t.Errorf("%s simplifies to %s: equivalent %v, %v", src, expr.Format(s), eq, err)
		}
		if _, err := expr.Parse(expr.Format(s), expr.Pos{}, scope); err != nil {
			t.Errorf("%s simplifies to %s, which does not parse: %v", src, expr.Format(s), err)
		}
	}
}

// TestArrayCells: the cells of an array variable, named a[i], are
// ordinary constants for Z3, and come back by name in models.
func TestArrayCells(t *testing.T) {
	c := newContext(t)
	sc := &expr.Scope{
		Vars:   map[string]expr.Type{"a[0]": expr.IntType, "a[1]": expr.IntType, "k": expr.IntType},
		Arrays: map[string]*expr.ArrayVar{"a": {Name: "a", Len: 2, Elem: expr.IntType}},
	}
	e, err := expr.Parse("a[k] == 7 && a[0] != 7 && a[1 - k] == 3", expr.Pos{}, sc)
	if err != nil {
		t.Fatal(err)
	}
	val, ok, err := c.Model(e)
	if err != nil || !ok {
		t.Fatalf("Model(%s) = %v, %v", expr.Format(e), ok, err)
	}
	got := fmt.Sprintf("a[0]=%v a[1]=%v k=%v", val.Vars["a[0]"], val.Vars["a[1]"], val.Vars["k"])
	if got != "a[0]=3 a[1]=7 k=1" {
		t.Errorf("model %s", got)
	}
	if ok, _ := c.Possible(expr.AndOf(e, parseIn(t, sc, "k == 2"))); ok {
		t.Errorf("a[k] with k == 2 is out of range: must be impossible")
	}
}

func parseIn(t *testing.T, sc *expr.Scope, src string) expr.Expr {
	t.Helper()
	e, err := expr.Parse(src, expr.Pos{}, sc)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
