package specfile

import (
	"bytes"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Tests of the model-language extensions: invariant, ranges, function
// tables, implementations and definitions, built-ins and arrays.

// firstError loads src (as m.yaml) and returns its first error.
func firstError(t *testing.T, src string) string {
	t.Helper()
	_, err := ParseModel("m.yaml", []byte(src), nil)
	if err == nil {
		return ""
	}
	return strings.SplitN(err.Error(), "\n", 2)[0]
}

// extSpec builds a spec with the given variables, functions and
// transitions (each a YAML flow line, indented by the caller's list).
func extSpec(extra string) string {
	return "kind: spec\nname: t\n" + extra
}

// fn is a spec declaring the functions in decl (one line, or several
// indented by two spaces), a variable x, an action a and location A.
func fn(decl string) string {
	return extSpec("types: {T: [u, v]}\nfunctions:\n  " + decl + "\nvariables: {x: int}\nactions: {a: {dir: input}}\ninitial: {location: A}\n")
}

// arr is a spec with an array v: [2]int, more variables (decl, indented
// lines), k: int and r: real, and one transition with the given guard or
// assign (a flow mapping entry); when trans is "", the caller may append
// more actions.
func arr(decl, trans string) string {
	if decl != "" {
		decl += "\n"
	}
	vars := "variables:\n  v: \"[2]int\"\n" + decl + "  k: int\n  r: real\n"
	src := extSpec(vars + "initial: {location: A}\nactions:\n  a: {dir: input}\n")
	if trans != "" {
		src += "transitions:\n  - {from: A, action: a, " + trans + ", to: A}\n"
	}
	return src
}

func TestExtLoadErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"range on real", extSpec("variables:\n  r: {type: real, range: [0, 1]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:26: range is for int variables, not r (type real)"},
		{"range lo > hi", extSpec("variables:\n  x: {type: int, range: [3, 1]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:25: empty range of x: 3 > 1"},
		{"range not integer", extSpec("variables:\n  x: {type: int, range: [0, 1.5]}\nactions: {}\ninitial: {location: A}\n"),
			`m.yaml:4:29: bound "1.5" of the range of x is not an integer`},
		{"range one bound", extSpec("variables:\n  x: {type: int, range: [0]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:25: range of x must be a list [lo, hi] of two integers"},
		{"variable without type", extSpec("variables:\n  x: {range: [0, 1]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:3: variable x needs a type"},
		{"variable unknown key", extSpec("variables:\n  x: {type: int, rng: [0, 1]}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:18: unknown key rng in variable x (allowed: type, range)"},
		{"invariant not bool", extSpec("variables: {x: int}\ninvariant: x + 1\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:12: invariant x + 1 has type int, want bool"},
		{"invariant undeclared", extSpec("variables: {x: int}\ninvariant: \"y > 0\"\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:13: undeclared name y"},
		// Functions: tables, implementations, definitions.
		{"row arity", fn("F: {params: [int, int], result: int, table: [[1, 2]]}"),
			"m.yaml:5:48: row of F has 2 values, want 3 (the arguments then the result)"},
		{"row arity array", fn("F: {params: [\"[2]int\"], result: int, table: [[[1, 2, 3], 4]]}"),
			"m.yaml:5:49: argument of F has 3 values, want 2"},
		{"row ill-typed argument", fn("F: {params: [int], result: int, table: [[1.5, 2]]}"),
			`m.yaml:5:44: argument 1 of F: "1.5" is not a value of type int`},
		{"row ill-typed result", fn("F: {params: [int], result: bool, table: [[1, 2]]}"),
			`m.yaml:5:48: result of F: "2" is not a value of type bool`},
		{"row not a list", fn("F: {params: [int], result: int, table: [3]}"),
			"m.yaml:5:43: a row of the table of F is a list [arguments..., result]"},
		{"row conflict", fn("F: {params: [int], result: real, table: [[1, 2], [3, 4], [1, \"5/2\"]]}"),
			"m.yaml:5:60: row F(1) = 2.5 conflicts with row at 5:44 (= 2)"},
		{"empty impl", fn("F: {params: [int], result: int, impl: \" \"}"),
			"m.yaml:5:41: impl of F is empty: write the command that computes it"},
		{"def without names", fn("F: {params: [int], result: int, def: \"1\"}"),
			"m.yaml:5:40: defined function F must name its parameters: params: {a: int, b: int}"},
		{"def with table", fn("F: {params: {a: int}, result: int, def: a, table: [[1, 1]]}"),
			"m.yaml:5:43: defined function F is its own implementation: it takes no table or impl"},
		{"def ill-typed", fn("F: {params: {a: int}, result: bool, def: a + 1}"),
			"m.yaml:5:44: body of F has type int, want bool"},
		{"def reads a variable", fn("F: {params: {a: int}, result: int, def: a + x}"),
			"m.yaml:5:47: undeclared name x"},
		{"def recursive", fn("F: {params: {a: int}, result: int, def: \"F(a - 1)\"}"),
			"m.yaml:5:44: recursive definition of F: F -> F"},
		{"def mutually recursive", fn("F: {params: {a: int}, result: int, def: \"G(a) + 1\"}\n  G: {params: {b: int}, result: int, def: \"H(b)\"}\n  H: {params: {c: int}, result: int, def: \"F(c)\"}"),
			"m.yaml:7:44: recursive definition of F: F -> G -> H -> F"},
		{"function named ite", fn("ite: {params: [int], result: int}"),
			`m.yaml:5:3: function "ite" is reserved`},
		{"variable named max", extSpec("variables: {max: int}\nactions: {}\ninitial: {location: A}\n"),
			`m.yaml:3:13: variable "max" is reserved`},
		{"array param length", fn("F: {params: [\"[0]int\"], result: int}"),
			`m.yaml:5:16: array length "0" in [0]int must be an integer constant from 1 to 1024`},
		{"array param element", fn("F: {params: [\"[2]float\"], result: int}"),
			"m.yaml:5:16: unknown element type float in [2]float (want int, real, bool or a type declared under types:)"},
		{"array argument type", fn("F: {params: [\"[2]int\"], result: int}") + "transitions:\n  - {from: A, action: a, guard: \"F([2]int{1}) > 0\", to: A}\n",
			"m.yaml:10:36: array literal of type [2]int has 1 elements, want 2"},
		{"array argument scalar", fn("F: {params: [\"[2]int\"], result: int}") + "transitions:\n  - {from: A, action: a, guard: \"F(x) > 0\", to: A}\n",
			"m.yaml:10:36: argument 1 of F must be an array of type [2]int (an array variable or [2]int{...})"},
		{"tables file missing", extSpec("functions: {F: {params: [int], result: int}}\ntables: nope.yaml\nvariables: {}\nactions: {}\ninitial: {location: A}\n"),
			"m.yaml:4:9: cannot read the tables file: open nope.yaml: no such file or directory"},
		// Arrays.
		{"array length zero", arr("  w: \"[0]int\"", ""), `m.yaml:5:6: array length "0" in [0]int must be an integer constant from 1 to 1024`},
		{"array length not constant", arr("  w: \"[n]int\"", ""), `m.yaml:5:6: array length "n" in [n]int must be an integer constant from 1 to 1024`},
		{"array range on bool", arr("  w: {type: \"[2]bool\", range: [0, 1]}", ""), "m.yaml:5:31: range is for int variables, not w (type bool)"},
		{"array action parameter", arr("", "") + "  b: {dir: input, params: {p: \"[2]int\"}}\n",
			"m.yaml:10:31: parameter p of action b: array types are allowed for variables and function parameters, not action parameters"},
		{"constant index out of range", arr("", `guard: "v[2] > 0"`), "m.yaml:11:36: index 2 out of range for v (length 2)"},
		{"negative index", arr("", `guard: "v[-1] > 0"`), "m.yaml:11:36: index -1 out of range for v (length 2)"},
		{"index not int", arr("", `guard: "v[r] > 0"`), "m.yaml:11:36: index r of v has type real, want int"},
		{"indexing a scalar", arr("", `guard: "k[0] > 0"`), "m.yaml:11:34: indexing is allowed on array variables and strings only"},
		{"bare array", arr("", `guard: "v > 0"`), "m.yaml:11:34: array v is read by cell (v[i]) or passed whole to a function"},
		{"assign cell out of range", arr("", `assign: {"v[5]": 1}`), "m.yaml:11:38: index 5 out of range for v (length 2)"},
		{"assign cell twice", arr("", `assign: {"v[k]": 1, "v[0]": 2}`), "m.yaml:11:46: v[0] is assigned twice (by v[k] and by v[0])"},
		{"assign cell ill-typed", arr("", `assign: {"v[k]": r}`), "m.yaml:11:43: cannot assign r (type real) to v[k] (type int)"},
		{"assign array from scalar", arr("", `assign: {v: k}`), "m.yaml:11:38: the value of v must be an array of type [2]int (an array variable or [2]int{...})"},
		{"assign array of other type", arr("  w: \"[3]int\"", `assign: {v: w}`), "m.yaml:12:38: the value of v has type [3]int, want [2]int"},
		{"assign undeclared cell", arr("", `assign: {"u[0]": 1}`), "m.yaml:11:35: assignment to undeclared variable u[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := firstError(t, tt.src); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// roundTrip loads path, writes it, loads the result and writes it again:
// both texts must be equal and the models the same.
func roundTrip(t *testing.T, path string) *spec.Model {
	t.Helper()
	m, err := LoadFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return writeRead(t, path, m, nil)
}

// writeRead checks that Marshal writes what ParseModel (with the spec
// sp, for a purpose) reads back as the same model, written the same; it
// returns the model read back.
func writeRead(t *testing.T, path string, m, sp *spec.Model) *spec.Model {
	t.Helper()
	out, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel(path, out, sp)
	if err != nil {
		t.Fatalf("reading the marshalled model: %v\n%s", err, out)
	}
	again, err := Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, again) {
		t.Errorf("Marshal(load(Marshal(m))) differs:\n%s\n---\n%s", out, again)
	}
	sameModel(t, m, back)
	return back
}

func TestExtRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/ext/*.yaml")
	for _, path := range files {
		data, _ := os.ReadFile(path)
		if k, err := PeekKind(path, data); err != nil || k != spec.SpecKind {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) { roundTrip(t, path) })
	}
}

func TestRangeAndInvariant(t *testing.T) {
	m := roundTrip(t, "testdata/ext/ranges.yaml")
	if got := expr.Format(m.RangeConstraint()); got != "0 <= TryCounter && TryCounter <= 2" {
		t.Errorf("RangeConstraint = %s", got)
	}
	if m.Invariant == nil || expr.Format(m.Invariant) != "TryCounter <= 2 && x >= 0" {
		t.Errorf("Invariant = %v", m.Invariant)
	}
}

func TestFunctions(t *testing.T) {
	m := roundTrip(t, "testdata/ext/functions.yaml")
	intgr := m.Func("INTGR")
	if intgr == nil || len(intgr.Params) != 2 || len(intgr.Table) != 2 || intgr.Impl != "python3 intgr.py" || !intgr.IsExternal() {
		t.Fatalf("INTGR = %+v", intgr)
	}
	if got := intgr.String(); got != "INTGR([2]int) int" {
		t.Errorf("signature %s", got)
	}
	if r := intgr.Table[1]; fmt.Sprint(r.Args) != "[148 141]" || r.Result.String() != "300" || r.Pos.Line != 11 {
		t.Errorf("row 2 = %v -> %v at %v", r.Args, r.Result, r.Pos)
	}
	if got := m.Func("RISE").Table[1].Result.String(); got != "2.42" {
		t.Errorf("RISE(300) = %s", got)
	}
	if got := m.Func("RISE").Table[2].Result.String(); got != "1/3" {
		t.Errorf("RISE(7) = %s", got)
	}
	tr := m.Transitions[0]
	if got := expr.Format(tr.Guard); got != "0 <= p && p <= 200 && !(1 <= x && x <= p)" {
		t.Errorf("inlined guard %s", got)
	}
	if got := expr.Format(tr.Assign[1].Value); got != "p + x" {
		t.Errorf("inlined sum2: %s", got)
	}
	if got := expr.Format(tr.Assign[0].Value); got != "INTGR([2]int{x + 1, 0})" {
		t.Errorf("flattened call: %s", got)
	}
	for _, f := range m.Funcs {
		if (f.Def != nil) == f.IsExternal() {
			t.Errorf("%s: Def %v, IsExternal %v", f.Name, f.Def, f.IsExternal())
		}
	}
}

func TestTablesFile(t *testing.T) {
	m := roundTrip(t, "testdata/ext/tables.yaml")
	if n := len(m.Func("INTGR").Table); n != 3 {
		t.Errorf("INTGR has %d rows, want 3 (one inline, two new from the file)", n)
	}
	if n := len(m.Func("RISE").Table); n != 2 {
		t.Errorf("RISE has %d rows", n)
	}
	out, err := MarshalTables(m)
	if err != nil {
		t.Fatal(err)
	}
	want := "kind: tables\nfunctions:\n  INTGR:\n    - [[0, 0], 0]\n    - [[123, 96], 228]\n    - [[148, 141], 300]\n  RISE:\n    - [202, 0.7]\n    - [300, 2.42]\n"
	if string(out) != want {
		t.Errorf("MarshalTables:\n%s\nwant\n%s", out, want)
	}
	// Reading the written tables again adds nothing.
	dir := t.TempDir()
	p := filepath.Join(dir, "t.yaml")
	os.WriteFile(p, out, 0o644)
	if err := LoadTables(p, m); err != nil || len(m.Func("INTGR").Table) != 3 {
		t.Errorf("LoadTables(written) = %v, %d rows", err, len(m.Func("INTGR").Table))
	}
	os.WriteFile(p, []byte("kind: tables\nfunctions:\n  RISE: [[202, 0.8]]\n  NOPE: []\n"), 0o644)
	err = LoadTables(p, m)
	want = p + ":3:10: row RISE(202) = 0.8 conflicts with row at testdata/ext/tables-file.yaml:5:7 (= 0.7)\n" + p + ":4:3: function NOPE is not declared by withtables"
	if err == nil || err.Error() != want {
		t.Errorf("LoadTables(conflict) =\n%v\nwant\n%s", err, want)
	}
}

func TestBuiltins(t *testing.T) {
	scope := &expr.Scope{Vars: map[string]expr.Type{"x": expr.IntType, "y": expr.IntType, "r": expr.RealType, "b": expr.BoolType}}
	tests := []struct{ src, want string }{
		{"ite(b, x, y)", "ite(b, x, y)"},
		{"ite(x > 0, r, 1)", "ite(x > 0, r, 1.0)"},
		{"min(x, y)", "ite(x <= y, x, y)"},
		{"max(x, y, 3)", "ite(ite(x >= y, x, y) >= 3, ite(x >= y, x, y), 3)"},
		{"abs(r)", "ite(r >= 0.0, r, -r)"},
		{"(1 + r) * real(x)", "(1.0 + r) * real(x)"},
		{"real(3) + r", "3.0 + r"},
		{"ite(b, x, y) + 1", "ite(b, x, y) + 1"},
	}
	for _, tt := range tests {
		e, err := expr.Parse(tt.src, expr.Pos{}, scope)
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if got := expr.Format(e); got != tt.want {
			t.Errorf("%s: got %s, want %s", tt.src, got, tt.want)
		}
		back, err := expr.Parse(expr.Format(e), expr.Pos{}, scope)
		if err != nil || !expr.Equal(back, e) {
			t.Errorf("%s: reparse %v %v", tt.src, expr.Format(back), err)
		}
	}
	bad := []struct{ src, want string }{
		{"ite(x, 1, 2)", "condition x of ite has type int, want bool"},
		{"ite(b, x, r)", "mismatched types int and real in ite(..., x, r) (convert the int with real())"},
		{"ite(b, x)", "ite takes 3 arguments, got 2"},
		{"real(r)", "real(r): r is already a real"},
		{"real(b)", "real() converts an int, not b (type bool)"},
		{"abs(b)", "abs is defined on numbers, not b (type bool)"},
		{"min()", "min takes at least 1 argument, got 0"},
		{"x + r", "mismatched types int and real in x + r"},
		{strings.Repeat("min(", 20) + "x" + strings.Repeat(", y)", 20), "expression too large once min is expanded (more than 65536 nodes)"},
	}
	for _, tt := range bad {
		_, err := expr.Parse(tt.src, expr.Pos{File: "f", Line: 1, Col: 1}, scope)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %s", tt.src, err, tt.want)
		}
	}
}

func TestEvalBuiltins(t *testing.T) {
	scope := &expr.Scope{Vars: map[string]expr.Type{"x": expr.IntType, "y": expr.IntType, "r": expr.RealType}}
	env := expr.Valuation{Vars: map[string]expr.Value{"x": expr.IntValue(big.NewInt(-7)), "y": expr.IntValue(big.NewInt(2)), "r": expr.RatValue(big.NewRat(1, 2))}}
	tests := []struct{ src, want string }{
		{"min(x, y)", "-7"}, {"max(x, y)", "2"}, {"abs(x)", "7"}, {"abs(r)", "0.5"},
		{"(1 + r) * real(x)", "-10.5"}, {"ite(y != 0, x / y, 0)", "-4"}, {"ite(y != 2, x / (y - 2), 1)", "1"},
	}
	for _, tt := range tests {
		e, err := expr.Parse(tt.src, expr.Pos{}, scope)
		if err != nil {
			t.Fatal(err)
		}
		v, err := expr.Eval(e, env)
		if err != nil || v.String() != tt.want {
			t.Errorf("%s = %v (%v), want %s", tt.src, v, err, tt.want)
		}
	}
}

func TestArrays(t *testing.T) {
	m := roundTrip(t, "testdata/ext/arrays.yaml")
	var names []string
	for _, v := range m.Variables {
		names = append(names, v.Name+":"+v.Type.String())
	}
	if got := strings.Join(names, " "); got != "a[0]:int a[1]:int a[2]:int b[0]:int b[1]:int b[2]:int flags[0]:bool flags[1]:bool k:int" {
		t.Errorf("variables %s", got)
	}
	if v := m.Variable("a[1]"); v.Range == nil || v.Range.Hi.Int64() != 9 {
		t.Errorf("a[1] range %v", v.Range)
	}
	set := m.Transitions[0]
	if got := expr.Format(set.Guard); got != "x >= 0 && x <= 9 && 0 <= i && i < 3 && 0 <= k && k < 3" {
		t.Errorf("set guard %s", got)
	}
	var as []string
	for _, a := range set.Assign {
		as = append(as, a.Var+" := "+expr.Format(a.Value))
	}
	want := "a[0] := ite(i == 0, x, a[0]); a[1] := ite(i == 1, x, a[1]); a[2] := ite(i == 2, x, a[2]); " +
		"flags[0] := a[i] > x; k := b[k]"
	if got := strings.Join(as, "; "); got != want {
		t.Errorf("set assigns\n%s\nwant\n%s", got, want)
	}
	// a[i] prints as such, but is the chain of cells.
	c, ok := set.Assign[3].Value.(*expr.Binary).X.(*expr.Cond)
	if !ok || expr.Format(c.If) != "i == 0" || expr.Format(c.Else) != "ite(i == 1, a[1], a[2])" {
		t.Errorf("a[i] = %#v", set.Assign[3].Value)
	}
	show := m.Transitions[2]
	if got := expr.Format(show.Guard); got != "y == a[0] + a[1] + a[2] && F(b, a[k]) && b[k + 1] != 0 && 0 <= k && k < 3 && 0 <= k + 1 && k + 1 < 3" {
		t.Errorf("show guard %s", got)
	}
	expr.Inspect(show.Guard, func(e expr.Expr) {
		if c, ok := e.(*expr.Call); ok && len(c.Args) != 4 {
			t.Errorf("F has %d flattened arguments, want 4", len(c.Args))
		}
	})
	env := expr.Valuation{Vars: map[string]expr.Value{}, Params: map[string]expr.Value{"i": expr.IntValue(big.NewInt(1)), "x": expr.IntValue(big.NewInt(5))}}
	for _, v := range m.Variables {
		env.Vars[v.Name] = expr.Zero(v.Type)
	}
	env.Vars["a[1]"] = expr.IntValue(big.NewInt(7))
	if v, err := expr.Eval(set.Assign[1].Value, env); err != nil || v.String() != "5" {
		t.Errorf("a[1] := %v, %v", v, err)
	}
	if v, err := expr.Eval(set.Assign[3].Value, env); err != nil || v.String() != "true" {
		t.Errorf("flags[0] := %v, %v", v, err)
	}
	env.Params["i"] = expr.IntValue(big.NewInt(3))
	if ok, err := expr.EvalBool(set.Guard, env); err != nil || ok {
		t.Errorf("index 3 out of range: guard %v, %v (want false)", ok, err)
	}
}

func TestMicrogrid(t *testing.T) {
	m := roundTrip(t, "testdata/ext/microgrid.yaml")
	out, _ := Marshal(m)
	for _, want := range []string{
		"Value: '[2]int'",
		"guard: cpt < 2 && 0 <= cpt, assign: {'Value[cpt]': v, cpt: cpt + 1}",
		"assign: {I: INTGR(Value)}",
		"price == (1.0 + r) * real(I)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("written model lacks %q:\n%s", want, out)
		}
	}
	if n := len(m.Transitions); n != 8 {
		t.Errorf("%d transitions", n)
	}
	t3 := m.Transitions[2]
	if c, ok := t3.Assign[0].Value.(*expr.Call); !ok || len(c.Args) != 2 || expr.Format(c.Args[1]) != "Value[1]" {
		t.Errorf("t3 assigns %s", expr.Format(t3.Assign[0].Value))
	}
}

// TestPurposeReadsArrays: a purpose reads its spec's array cells and
// functions, and round-trips.
func TestPurposeReadsArrays(t *testing.T) {
	sp, err := LoadFile("testdata/ext/microgrid.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	src := `kind: purpose
name: high
variables: {seen: "[2]bool"}
initial: {location: W, condition: "!seen[0] && !seen[1]"}
accept: [Acc]
transitions:
  - {from: W, action: getmeas, guard: "v > Value[cpt] && INTGR([2]int{v, v}) > 200", assign: {"seen[cpt]": true}, to: W}
  - {from: W, action: out, guard: "seen[1]", to: Acc}
  - {from: W, action: "*", to: W}
`
	p, err := ParseModel("p.yaml", []byte(src), sp)
	if err != nil {
		t.Fatal(err)
	}
	if got := expr.Format(p.Transitions[0].Guard); got != "v > Value[cpt] && INTGR([2]int{v, v}) > 200 && 0 <= cpt && cpt < 2" {
		t.Errorf("guard %s", got)
	}
	out, err := Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel("p.yaml", out, sp)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sameModel(t, p, back)
}

// TestArraysInferred: a model built by the tool (a product, a test case)
// has the cells among its variables without declaring the arrays; it is
// written with the arrays declared, and reads back.
func TestArraysInferred(t *testing.T) {
	m, err := LoadFile("testdata/ext/arrays.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Marshal(m)
	c := m.Clone()
	c.Arrays = nil
	var decls []string
	for _, a := range c.ArrayDecls() {
		decls = append(decls, a.Name+":"+expr.ArrayTypeText(a.Len, a.Elem))
	}
	if got := strings.Join(decls, " "); got != "a:[3]int b:[3]int flags:[2]bool" {
		t.Errorf("ArrayDecls %s", got)
	}
	got, err := Marshal(c)
	if err != nil || string(got) != string(want) {
		t.Errorf("Marshal without Arrays:\n%s\nwant\n%s (%v)", got, want, err)
	}
}
