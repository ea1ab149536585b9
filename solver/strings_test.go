package solver

import (
	"math/big"
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
)

var strScope = &expr.Scope{Vars: map[string]expr.Type{
	"s": expr.StringType, "t": expr.StringType, "i": expr.IntType, "j": expr.IntType,
}}

// strGen writes random string, int and bool expressions over s, t
// (string) and i, j (int) with every string built-in.
type strGen struct{ r *rand.Rand }

func (g strGen) str(d int) string {
	if d == 0 {
		return []string{"s", "t", `"a"`, `""`, "`b\\x`", `"\x00é"`}[g.r.Intn(6)]
	}
	switch g.r.Intn(4) {
	case 0:
		return "(" + g.str(d-1) + " + " + g.str(d-1) + ")"
	case 1:
		return g.str(0) + "[" + g.num(d-1) + "]"
	case 2:
		return g.str(0) + "[" + g.num(d-1) + ":" + g.num(d-1) + "]"
	}
	return "ite(" + g.pred(d-1) + ", " + g.str(d-1) + ", " + g.str(d-1) + ")"
}

func (g strGen) num(d int) string {
	if d == 0 {
		return []string{"i", "j", "0", "1", "-1", "3"}[g.r.Intn(6)]
	}
	switch g.r.Intn(7) {
	case 0:
		return "len(" + g.str(d-1) + ")"
	case 1:
		return "strings.Index(" + g.str(d-1) + ", " + g.str(d-1) + ")"
	case 2:
		return "min(" + g.num(d-1) + ", " + g.num(d-1) + ")"
	case 3:
		return "max(" + g.num(d-1) + ", " + g.num(d-1) + ")"
	case 4:
		return "abs(" + g.num(d-1) + " - " + g.num(d-1) + ")"
	case 5:
		return "ite(" + g.pred(d-1) + ", " + g.num(d-1) + ", " + g.num(d-1) + ")"
	}
	return "(" + g.num(d-1) + " + " + g.num(d-1) + ")"
}

func (g strGen) pred(d int) string {
	x, y := g.str(max(d-1, 0)), g.str(max(d-1, 0))
	switch g.r.Intn(8) {
	case 0:
		return "strings.HasPrefix(" + x + ", " + y + ")"
	case 1:
		return "strings.HasSuffix(" + x + ", " + y + ")"
	case 2:
		return "strings.Contains(" + x + ", " + y + ")"
	case 3:
		return x + " < " + y
	case 4:
		return x + " >= " + y
	case 5:
		return x + " == " + y
	case 6:
		return `regexp.MatchString("^[a-b]+x?$|é", ` + x + ")"
	}
	return g.num(d) + " <= " + g.num(d)
}

func randString(r *rand.Rand) string {
	var b strings.Builder
	for n := r.Intn(5); n > 0; n-- {
		b.WriteByte("ab\x00x\xc3\xa9"[r.Intn(6)])
	}
	return b.String()
}

// TestStringEvalAgreesWithZ3: on random string and conditional
// expressions (ite, min, max, abs) and random values, expr.Eval (the
// runner's evaluation) computes what Z3 entails (with the variables
// fixed, e == Eval(e) is valid), out-of-range indexes included (both
// follow SMT-LIB's str.at and str.substr). Generated Go tests embed the
// test case as stg writes it, read it with package spec and evaluate
// with expr.Eval: so the expression as printed is read back and
// evaluated too, and must give the same value.
func TestStringEvalAgreesWithZ3(t *testing.T) {
	c := newContext(t)
	g := strGen{rand.New(rand.NewSource(3))}
	for k := 0; k < 300; k++ {
		var src string
		switch k % 3 {
		case 0:
			src = g.str(3)
		case 1:
			src = g.num(3)
		default:
			src = g.pred(3)
		}
		e, _, err := expr.ParseGuarded(src, expr.Pos{}, strScope)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		vals := map[string]expr.Value{
			"s": expr.StringValue(randString(g.r)), "t": expr.StringValue(randString(g.r)),
			"i": expr.IntValue(big.NewInt(int64(g.r.Intn(7) - 2))), "j": expr.IntValue(big.NewInt(int64(g.r.Intn(7) - 2))),
		}
		v, err := expr.Eval(e, expr.Valuation{Vars: vals})
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		printed, _, err := expr.ParseGuarded(expr.Format(e), expr.Pos{}, strScope)
		if err != nil {
			t.Fatalf("%s printed as %s: %v", src, expr.Format(e), err)
		}
		if w, err := expr.Eval(printed, expr.Valuation{Vars: vals}); err != nil || !w.Equal(v) {
			t.Errorf("%s with %v: Eval gives %s, and %v (%v) once printed as %s and read back", src, vals, v, w, err, expr.Format(e))
		}
		var fix []expr.Expr
		for _, name := range []string{"s", "t", "i", "j"} {
			fix = append(fix, expr.Compare(expr.Eq, expr.VarRef(name, vals[name].T), vals[name].Expr()))
		}
		ok, err := c.Valid(expr.ImpliesOf(expr.AndOf(fix...), expr.Compare(expr.Eq, e, v.Expr())))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if !ok {
			t.Errorf("%s with %v: Eval gives %s, Z3 disagrees", src, vals, v)
		}
	}
}

// TestRegexZ3AgreesWithGo: regexp.MatchString translated to Z3 decides
// as Go's regexp does, on random ASCII strings.
func TestRegexZ3AgreesWithGo(t *testing.T) {
	c := newContext(t)
	r := rand.New(rand.NewSource(5))
	patterns := []string{`^[A-Z][a-z]*$`, `\d{2,3}`, `a|b*c`, `^(ab)+$`, `[^a-c]`, `x.y`, `^\w+\s?$`, `(?:ab|c){2}$`, `^$`, `^a?b{0,2}$`}
	for _, p := range patterns {
		goRE := regexp.MustCompile(p)
		for k := 0; k < 15; k++ {
			var b strings.Builder
			for n := r.Intn(6); n > 0; n-- {
				b.WriteByte("abcxyAZ19 _\n"[r.Intn(12)])
			}
			w := b.String()
			e := parseIn(t, strScope, "regexp.MatchString(`"+p+"`, s)")
			fixed := expr.Compare(expr.Eq, expr.VarRef("s", expr.StringType), expr.StrConst(w))
			want := goRE.MatchString(w)
			claim := e
			if !want {
				claim = expr.NotOf(e)
			}
			ok, err := c.Valid(expr.ImpliesOf(fixed, claim))
			if err != nil || !ok {
				t.Errorf("%q on %q: Go says %v, Z3 disagrees (%v)", p, w, want, err)
			}
		}
	}
}

// TestStringModel: models give string values (as bytes) that satisfy
// the constraint, and string terms read back from Z3.
func TestStringModel(t *testing.T) {
	c := newContext(t)
	e := parseIn(t, strScope, `len(s) == 4 && strings.HasPrefix(s, "Ab") && s[3] == "\n" && s > t && regexp.MatchString("^[A-Z]", t)`)
	val, ok, err := c.Model(e)
	if err != nil || !ok {
		t.Fatalf("Model: %v %v", ok, err)
	}
	if holds, err := expr.EvalBool(e, val); err != nil || !holds {
		t.Errorf("model %v does not satisfy %s: %v", val.Vars, expr.Format(e), err)
	}
	for _, src := range []string{`strings.Contains(s + t, "x") && len(s) > 2`, `s[1:3] == "ab" || strings.Index(s, t) == 2`} {
		e := parseIn(t, strScope, src)
		s, err := c.Simplify(e)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if eq, err := c.Equivalent(e, s); err != nil || !eq {
			t.Errorf("%s simplifies to %s: equivalent %v, %v", src, expr.Format(s), eq, err)
		}
	}
}
