package solver

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/spec/expr"
)

var color = &expr.Enum{Name: "Color", Values: []string{"Red", "Green", "Blue"}}

// scope declares the names the tests use: variables x, y, z (int),
// a, b (real), c (Color), f, g (bool); parameters p, q (int), r (real),
// k (Color), and a variable and a parameter both named n (int).
var scope = &expr.Scope{
	Vars: map[string]expr.Type{
		"x": expr.IntType, "y": expr.IntType, "z": expr.IntType,
		"a": expr.RealType, "b": expr.RealType,
		"c": expr.EnumType(color), "f": expr.BoolType, "g": expr.BoolType,
		"n": expr.IntType,
	},
	Params: map[string]expr.Type{
		"p": expr.IntType, "q": expr.IntType, "r": expr.RealType, "k": expr.EnumType(color),
	},
	Consts: map[string]*expr.Enum{"Red": color, "Green": color, "Blue": color},
	Funcs: map[string]*expr.Func{
		"h": {Name: "h", Params: []expr.Type{expr.IntType}, Result: expr.IntType},
	},
}

func parse(t testing.TB, src string) expr.Expr {
	t.Helper()
	e, err := expr.Parse(src, expr.Pos{}, scope)
	if err != nil {
		t.Fatalf("parse %q: %v", src, err)
	}
	return e
}

func param(name string, t expr.Type) *expr.Ident {
	return &expr.Ident{Name: name, Kind: expr.ParamIdent, T: t}
}

func newContext(t testing.TB) *Context {
	t.Helper()
	c, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func TestSat(t *testing.T) {
	c := newContext(t)
	for _, tc := range []struct {
		src  string
		want Result
	}{
		{"x > 3 && x < 5", Sat},
		{"x > 3 && x < 4", Unsat},
		{"a > 3 && a < 4", Sat},
		{"2*x == 7", Unsat},
		{"2*a == 7", Sat},
		{"f && !f", Unsat},
		{"f != g && f", Sat},
		{"c != Red && c != Green && c != Blue", Unsat},
		{"c != Red && c != Green", Sat},
		{"k == c && c == Blue && k != Blue", Unsat},
		{"x / 2 == 3 && x % 2 == 1", Sat},
		{"x % 3 == 3", Unsat},
		{"h(x) != h(y) && x == y", Unsat},
		{"h(x) == 1 && h(y) == 2", Sat},
		{"p == y - x && p >= 2 && y < x", Unsat},
		{"x > 1267650600228229401496703205376 && x < 1267650600228229401496703205378", Sat},
		{"n > 0", Sat},
	} {
		got, err := c.Sat(parse(t, tc.src))
		if err != nil || got != tc.want {
			t.Errorf("Sat(%s) = %v, %v; want %v", tc.src, got, err, tc.want)
		}
	}
}

// TestKindsApart checks that a variable and a parameter with one name
// are different unknowns.
func TestKindsApart(t *testing.T) {
	c := newContext(t)
	v := expr.VarRef("n", expr.IntType)
	p := expr.ParamRef("n", expr.IntType)
	e := expr.AndOf(expr.Compare(expr.Eq, v, expr.IntConst(1)), expr.Compare(expr.Eq, p, expr.IntConst(2)))
	m, ok, err := c.Model(e)
	if err != nil || !ok {
		t.Fatalf("Model = %v, %v", ok, err)
	}
	if m.Vars["n"].String() != "1" || m.Params["n"].String() != "2" {
		t.Errorf("model %v: want var n = 1, param n = 2", m)
	}
	// Names may contain any characters, including our internal prefixes.
	odd := expr.VarRef("p:n", expr.IntType)
	if r, err := c.Sat(expr.AndOf(expr.Compare(expr.Eq, odd, expr.IntConst(5)), expr.Compare(expr.Eq, p, expr.IntConst(2)))); r != Sat || err != nil {
		t.Errorf("var p:n vs param n: %v %v", r, err)
	}
}

func TestValidEntailsEquivalent(t *testing.T) {
	c := newContext(t)
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"x > 3 || x <= 3", true},
		{"x > 3 || x < 3", false},
		{"x * x >= 0", true},
		{"a / 2 * 2 == a", true},
		{"x / 2 * 2 == x", false},
		{"x / 2 * 2 + x % 2 == x", true},
		{"x % 2 == 0 || x % 2 == 1", true},
		{"c == Red || c == Green || c == Blue", true},
		{"c == Red || c == Green", false},
		{"!(f && g) == (!f || !g)", true},
	} {
		got, err := c.Valid(parse(t, tc.src))
		if err != nil || got != tc.want {
			t.Errorf("Valid(%s) = %v, %v; want %v", tc.src, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		a, b       string
		entails    bool
		equivalent bool
	}{
		{"x > 5", "x > 3", true, false},
		{"x > 3", "x > 5", false, false},
		{"x > 3", "x >= 4", true, true},
		{"a > 3", "a >= 4", false, false},
		{"x == 2*p", "x % 2 == 0", true, false},
		{"c != Red && c != Green", "c == Blue", true, true},
		{"!(f || g)", "!f && !g", true, true},
		{"y - x >= 2", "!(x - y > -2)", true, true},
	} {
		a, b := parse(t, tc.a), parse(t, tc.b)
		if got, err := c.Entails(a, b); err != nil || got != tc.entails {
			t.Errorf("Entails(%s, %s) = %v, %v; want %v", tc.a, tc.b, got, err, tc.entails)
		}
		if got, err := c.Equivalent(a, b); err != nil || got != tc.equivalent {
			t.Errorf("Equivalent(%s, %s) = %v, %v; want %v", tc.a, tc.b, got, err, tc.equivalent)
		}
	}
}

func TestModel(t *testing.T) {
	c := newContext(t)
	for _, src := range []string{
		"x > 1267650600228229401496703205376 && y < -1267650600228229401496703205376",
		"3*a == 1",
		"3*a == -1 && b * 7 == a",
		"c != Red && c != Green && k != c",
		"f != g && (f || x > 2)",
		"x % 7 == 3 && x / 7 == -5 && p == x - y && y > 100",
		"r > a && r < a + 0.001 && a > 1000000000000000000000.5",
		"h(x) == 3 && x == 2",
	} {
		e := parse(t, src)
		m, ok, err := c.Model(e)
		if err != nil || !ok {
			t.Errorf("Model(%s) = %v, %v", src, ok, err)
			continue
		}
		if strings.Contains(src, "h(") {
			continue // expr.Eval has no implementation of external functions
		}
		if holds, err := expr.EvalBool(e, m); err != nil || !holds {
			t.Errorf("Model(%s) = %v: evaluates to %v, %v", src, m, holds, err)
		}
	}
	m, _, _ := c.Model(parse(t, "3*a == 1"))
	if got := m.Vars["a"]; got.T != expr.RealType || got.Rat.Cmp(big.NewRat(1, 3)) != 0 {
		t.Errorf("3*a == 1: a = %v", got)
	}
	if _, ok, err := c.Model(parse(t, "x > 1 && x < 1")); ok || err != nil {
		t.Errorf("Model of unsat = %v, %v", ok, err)
	}
}

// TestEuclid checks that Z3's int / and % agree with expr.Eval, which is
// Euclidean, on every sign combination.
func TestEuclid(t *testing.T) {
	c := newContext(t)
	for _, ab := range [][2]int64{{7, 2}, {-7, 2}, {7, -2}, {-7, -2}, {0, 3}, {-1, 5}, {-6, 3}, {5, -7}} {
		a, b := big.NewInt(ab[0]), big.NewInt(ab[1])
		q, r := expr.EuclidDivMod(a, b)
		src := fmt.Sprintf("(%d) / (%d) == %d && (%d) %% (%d) == %d", ab[0], ab[1], q, ab[0], ab[1], r)
		e := parse(t, src)
		if ok, err := c.Valid(e); err != nil || !ok {
			t.Errorf("Valid(%s) = %v, %v", src, ok, err)
		}
		if ok, err := expr.EvalBool(e, expr.Valuation{}); err != nil || !ok {
			t.Errorf("EvalBool(%s) = %v, %v", src, ok, err)
		}
		// and with a variable in place of the constant
		e = parse(t, fmt.Sprintf("x == %d && y == %d && (x / y != %d || x %% y != %d)", ab[0], ab[1], q, r))
		if r, err := c.Sat(e); err != nil || r != Unsat {
			t.Errorf("Sat(%s) = %v, %v", expr.Format(e), r, err)
		}
	}
}

func TestEliminateExists(t *testing.T) {
	c := newContext(t)
	p, q, r, k := param("p", expr.IntType), param("q", expr.IntType), param("r", expr.RealType), param("k", expr.EnumType(color))
	for _, tc := range []struct {
		ids  []*expr.Ident
		src  string
		want string // an equivalent quantifier-free predicate
		text string // the exact printed result, when we care
	}{
		{[]*expr.Ident{p}, "p == y - x && p >= 2", "y - x >= 2", "y - x >= 2"},
		{[]*expr.Ident{p}, "x == 2*p", "x % 2 == 0", "x % 2 == 0"},
		{[]*expr.Ident{p}, "x == 3*p + 1 && p > y", "x % 3 == 1 && x > 3*y + 1", ""},
		{[]*expr.Ident{p, q}, "p >= x && q <= y && p < q && p + q == 10", "y >= 6 && x <= 4", ""},
		{[]*expr.Ident{p}, "!(p == 2 && x >= 3) && p == y - x && p >= 2", "y - x >= 2 && !(y - x == 2 && x >= 3)", ""},
		{[]*expr.Ident{p}, "p % 3 == x && p < y && p > z", "x >= 0 && x < 3 && (z + 1 < y && (z + 1) % 3 == x || z + 2 < y && (z + 2) % 3 == x || z + 3 < y && (z + 3) % 3 == x)", ""},
		{[]*expr.Ident{r}, "r == b - a && r >= 2.5", "b - a >= 2.5", "b - a >= 2.5"},
		{[]*expr.Ident{r}, "a == 2*r && r > b", "a > 2*b", ""},
		{[]*expr.Ident{r}, "r > a && r < b", "a < b", ""},
		{[]*expr.Ident{k}, "k != c && k != Red", "true", "true"},
		{[]*expr.Ident{k}, "k == c && k != Red", "c != Red", ""},
		{nil, "x > 3 && x > 5", "x > 5", ""},
	} {
		got, err := c.EliminateExists(tc.ids, parse(t, tc.src))
		if err != nil {
			t.Errorf("EliminateExists(%s): %v", tc.src, err)
			continue
		}
		if tc.text != "" && expr.Format(got) != tc.text {
			t.Errorf("EliminateExists(%s) = %s, want %s", tc.src, expr.Format(got), tc.text)
		}
		for _, id := range tc.ids {
			if expr.Mentions(got, id.Kind, id.Name) {
				t.Errorf("EliminateExists(%s) = %s still mentions %s", tc.src, got, id.Name)
			}
		}
		if eq, err := c.Equivalent(got, parse(t, tc.want)); err != nil || !eq {
			t.Errorf("EliminateExists(%s) = %s, not equivalent to %s (%v)", tc.src, got, tc.want, err)
		}
		// The result must print as something the parser takes back.
		if back, err := expr.Parse(expr.Format(got), expr.Pos{}, scope); err != nil {
			t.Errorf("result %s does not parse: %v", got, err)
		} else if eq, err := c.Equivalent(got, back); err != nil || !eq {
			t.Errorf("result %s does not survive printing", got)
		}
	}
	// A nonlinear formula that no tactic eliminates is an error, not a hang.
	if e, err := c.EliminateExists([]*expr.Ident{p}, parse(t, "p * p == x && p > 1")); err == nil {
		t.Errorf("EliminateExists of a nonlinear formula = %s, want an error", e)
	}
}

func TestSimplify(t *testing.T) {
	c := newContext(t)
	for _, tc := range []struct{ src, text string }{
		{"!(p == 2 && x >= 3) && p == y - x && p >= 2", ""},
		{"x > 3 && x > 5", "x > 5"},
		{"-x <= 3", "x >= -3"},
		{"x + -3 * y >= 7", "x - 3 * y >= 7"},
		{"!(x <= 3)", "x > 3"},
		{"x - y >= 2 || y - x < 1", ""},
		{"a*2 > b && !(b < a*2)", "false"},
		{"a > 0.5 || a <= 0.5", "true"},
		{"c == Red || c == Green", ""},
		{"c != Red && c != Green", ""},
		{"!f || x > 1 && f", ""},
		{"(f && g) || (f && !g)", ""},
		{"x % 2 == 0 && x / 2 > 3", ""},
		{"h(x) > 2 && h(x) > 3", "h(x) > 3"},
		{"r * 3 == a / 2", ""},
		{"x == 1 && y == x + 1 && z == y + 1", ""},
	} {
		e := parse(t, tc.src)
		got, err := c.Simplify(e)
		if err != nil {
			t.Errorf("Simplify(%s): %v", tc.src, err)
			continue
		}
		if tc.text != "" && expr.Format(got) != tc.text {
			t.Errorf("Simplify(%s) = %s, want %s", tc.src, got, tc.text)
		}
		if eq, err := c.Equivalent(got, e); err != nil || !eq {
			t.Errorf("Simplify(%s) = %s, not equivalent (%v)", tc.src, got, err)
		}
		if _, err := expr.Parse(expr.Format(got), expr.Pos{}, scope); err != nil {
			t.Errorf("Simplify(%s) = %s does not parse: %v", tc.src, got, err)
		}
	}
}

// pigeons returns "n+1 ints in [0, n), pairwise distinct": unsat, and
// exponentially hard for Z3's arithmetic; n = 9 takes well over 5 s.
func pigeons(t testing.TB, n int) expr.Expr {
	vars := map[string]expr.Type{}
	var parts []string
	for i := 0; i <= n; i++ {
		v := fmt.Sprintf("h%d", i)
		vars[v] = expr.IntType
		parts = append(parts, fmt.Sprintf("%s >= 0 && %s < %d", v, v, n))
		for j := 0; j < i; j++ {
			parts = append(parts, fmt.Sprintf("h%d != %s", j, v))
		}
	}
	e, err := expr.Parse(strings.Join(parts, " && "), expr.Pos{}, &expr.Scope{Vars: vars})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestTimeout(t *testing.T) {
	c := newContext(t)
	hard := pigeons(t, 9)
	c.SetTimeout(100 * time.Millisecond)
	start := time.Now()
	r, err := c.Sat(hard)
	if r != Unknown || err == nil {
		t.Errorf("Sat(hard) with timeout = %v, %v; want unknown and an error", r, err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("timeout of 100ms took %v", d)
	}
	if _, err := c.Valid(expr.NotOf(hard)); err == nil {
		t.Errorf("Valid(hard) with timeout: no error")
	}
	if _, err := c.Simplify(hard); err == nil {
		t.Errorf("Simplify(hard) with timeout: no error")
	}
	s := c.NewSolver()
	defer s.Close()
	if err := s.Assert(hard); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); r != Unknown || err != nil {
		t.Errorf("Solver.Check(hard) with timeout = %v, %v; want unknown", r, err)
	}
	// The context stays usable.
	c.SetTimeout(0)
	if r, err := c.Sat(parse(t, "x > 1")); r != Sat || err != nil {
		t.Errorf("Sat after timeout = %v, %v", r, err)
	}
}

func TestInterrupt(t *testing.T) {
	c := newContext(t)
	// An interrupt while idle must not poison later calls.
	c.Interrupt()
	if r, err := c.Sat(parse(t, "x > 1")); r != Sat || err != nil {
		t.Fatalf("Sat after idle Interrupt = %v, %v", r, err)
	}
	hard := pigeons(t, 9)
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(100 * time.Millisecond)
		c.Interrupt()
	}()
	start := time.Now()
	r, err := c.Sat(hard)
	<-done
	if r != Unknown || err == nil {
		t.Errorf("interrupted Sat = %v, %v; want unknown and an error", r, err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("interrupt took effect after %v", d)
	}
	if r, err := c.Sat(parse(t, "x > 1")); r != Sat || err != nil {
		t.Errorf("Sat after Interrupt = %v, %v", r, err)
	}
	c.Close()
	c.Interrupt() // harmless after Close
	if _, err := c.Sat(parse(t, "x > 1")); err == nil {
		t.Errorf("Sat on a closed context: no error")
	}
}

func TestErrors(t *testing.T) {
	c := newContext(t)
	x := expr.VarRef("x", expr.IntType)
	a := expr.VarRef("a", expr.RealType)
	bad := []expr.Expr{
		nil,
		expr.Compare(expr.Gt, expr.Arith(expr.Add, x, a), expr.IntConst(0)), // int + real
		expr.Compare(expr.Gt, expr.VarRef("w", expr.Type{}), expr.IntConst(0)),
		expr.Compare(expr.Eq, &expr.Ident{Name: "e", T: expr.Type{Kind: expr.EnumKind}}, x),
		&expr.EnumLit{Enum: color, Index: 7},
		expr.Compare(expr.Eq, &expr.EnumLit{Enum: &expr.Enum{Name: "Empty"}}, &expr.EnumLit{Enum: &expr.Enum{Name: "Empty"}}),
		x, // not a predicate
		expr.Compare(expr.Lt, expr.VarRef("f", expr.BoolType), expr.True()),
		expr.Compare(expr.Eq, expr.Arith(expr.Mod, a, a), a),
		&expr.Binary{Op: expr.And, X: expr.True()},
		&expr.Unary{Op: expr.Not},
		(*expr.Binary)(nil),
		&expr.Binary{Op: expr.Op(99), X: x, Y: x},
		expr.Compare(expr.Eq, &expr.Call{Func: "h", Args: []expr.Expr{a}, T: expr.Type{}}, x),
	}
	for _, e := range bad {
		if r, err := c.Sat(e); err == nil {
			t.Errorf("Sat(%s) = %v, want an error", safeFormat(e), r)
		}
		if got, err := c.Simplify(e); err == nil || got != e {
			t.Errorf("Simplify(%s): want e unchanged and an error, got %v, %v", safeFormat(e), got, err)
		}
		if _, err := c.EliminateExists(nil, e); err == nil {
			t.Errorf("EliminateExists(%s): want an error", safeFormat(e))
		}
	}
	if _, err := c.EliminateExists([]*expr.Ident{nil}, expr.True()); err == nil {
		t.Errorf("EliminateExists with a nil identifier: want an error")
	}
	if _, err := c.Sat(expr.Compare(expr.Gt, x, expr.IntConst(0))); err != nil {
		t.Errorf("context unusable after errors: %v", err)
	}
	if len(c.scratch) != 0 {
		t.Errorf("%d references left in scratch", len(c.scratch))
	}
}

func TestSolver(t *testing.T) {
	c := newContext(t)
	s := c.NewSolver()
	defer s.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check := func(want Result) {
		t.Helper()
		if r, err := s.Check(); r != want || err != nil {
			t.Fatalf("Check = %v, %v; want %v", r, err, want)
		}
	}
	must(s.Assert(parse(t, "x > 0 && x < 10")))
	check(Sat)
	s.Push()
	must(s.Assert(parse(t, "p == x + 1 && c == Green")))
	check(Sat)
	m, err := s.Model()
	must(err)
	if len(m.Vars) != 2 || len(m.Params) != 1 {
		t.Errorf("model %v: want x, c and p", m)
	}
	if ok, err := expr.EvalBool(parse(t, "x > 0 && x < 10 && p == x + 1 && c == Green"), m); !ok || err != nil {
		t.Errorf("model %v does not satisfy the assertions: %v", m, err)
	}
	s.Push()
	must(s.Assert(parse(t, "p > 10")))
	check(Unsat)
	s.Pop(1)
	check(Sat)
	s.Pop(5) // more than open: pops what there is
	check(Sat)
	m, err = s.Model()
	must(err)
	if len(m.Vars) != 1 || len(m.Params) != 0 {
		t.Errorf("model after Pop %v: want only x", m)
	}
	if err := s.Assert(expr.VarRef("x", expr.IntType)); err == nil {
		t.Errorf("Assert of an int: want an error")
	}
	check(Sat)
	s.Close()
	if _, err := s.Check(); err == nil {
		t.Errorf("Check after Close: want an error")
	}
}

// TestReferences checks that every operation gives back the references
// it takes: only the context's caches may hold more afterwards.
func TestReferences(t *testing.T) {
	c := newContext(t)
	p := param("p", expr.IntType)
	run := func() {
		c.Sat(parse(t, "x > 3 && c == Red && h(p) == 2"))
		c.Valid(parse(t, "x > 3 || x <= 3"))
		c.Model(parse(t, "x > 3 && a * 3 == 1 && c != Red && f"))
		c.Entails(parse(t, "x > 3"), parse(t, "x > 2"))
		c.EliminateExists([]*expr.Ident{p}, parse(t, "p == y - x && p >= 2"))
		c.EliminateExists([]*expr.Ident{p}, parse(t, "p * p == x"))
		c.Simplify(parse(t, "x > 3 && x > 5 || f"))
		c.Sat(expr.Compare(expr.Gt, expr.Arith(expr.Add, expr.VarRef("x", expr.IntType), expr.VarRef("a", expr.RealType)), expr.IntConst(0)))
		s := c.NewSolver()
		s.Push()
		s.Assert(parse(t, "x > 3"))
		s.Check()
		s.Model()
		s.Pop(1)
		s.Close()
	}
	run() // fill the caches
	before := c.refs
	for range 20 {
		run()
	}
	if c.refs != before || len(c.scratch) != 0 {
		t.Errorf("references: %d before, %d after (%d in scratch)", before, c.refs, len(c.scratch))
	}
}
