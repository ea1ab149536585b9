package summary

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// The functions of the microgrid (§5 of the paper), flattened: INTGR
// takes the two cells of Value.
var (
	intgr = &expr.Func{Name: "INTGR", Params: []expr.Type{expr.IntType, expr.IntType}, ParamLens: []int{2}, Result: expr.IntType}
	rise  = &expr.Func{Name: "RISE", Params: []expr.Type{expr.IntType}, Result: expr.RealType}
)

func ival(n int64) expr.Value { return expr.IntValue(big.NewInt(n)) }

func rval(s string) expr.Value {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return expr.RatValue(r)
}

func row(res expr.Value, args ...expr.Value) expr.TableRow {
	return expr.TableRow{Args: args, Result: res}
}

// table1 is Table 1 of the paper.
func table1() Tab {
	return Tab{
		"INTGR": {row(ival(228), ival(123), ival(96)), row(ival(300), ival(148), ival(141))},
		"RISE":  {row(rval("0.7"), ival(202)), row(rval("2.42"), ival(300))},
	}
}

// table3 is Table 3 of the paper.
func table3() Tab {
	t := table1()
	t["INTGR"] = append([]expr.TableRow{row(ival(0), ival(0), ival(0)), row(ival(30), ival(12), ival(18))}, t["INTGR"]...)
	t["RISE"] = append(t["RISE"], row(rval("0.97"), ival(228)))
	return t
}

// reference is a test-local implementation consistent with Tables 1 and
// 3: Table 3's rows, else INTGR(a, b) = a + b + (a*b mod 7) and RISE(I)
// = I/1000. (examples/microgrid's reference INTGR is another formula,
// 195 + ((31a + 17b) mod 97); these tests need only some Exec that
// agrees with the tables.)
func reference(f *expr.Func, args []expr.Value) (expr.Value, error) {
	if v, ok := table3().Lookup(f.Name, args); ok {
		return v, nil
	}
	switch f.Name {
	case "INTGR":
		a, b := args[0].Int, args[1].Int
		ab := new(big.Int).Mul(a, b)
		_, mod := expr.EuclidDivMod(ab, big.NewInt(7))
		return expr.IntValue(new(big.Int).Add(new(big.Int).Add(a, b), mod)), nil
	case "RISE":
		return expr.RatValue(new(big.Rat).SetFrac(args[0].Int, big.NewInt(1000))), nil
	}
	return expr.Value{}, errors.New("unknown function")
}

var scope = &expr.Scope{Vars: map[string]expr.Type{
	"m1": expr.IntType, "m2": expr.IntType, "I": expr.IntType, "r": expr.RealType, "x": expr.IntType,
}}

func v(name string) *expr.Ident {
	return &expr.Ident{Name: name, Kind: expr.VarIdent, T: scope.Vars[name]}
}

func parse(t *testing.T, src string) expr.Expr {
	t.Helper()
	e, err := expr.ParseBool(src, expr.Pos{}, scope)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return e
}

func newContext(t testing.TB) *solver.Context {
	t.Helper()
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(z.Close)
	return z
}

// The call records of Example 2: cl1 = (INTGR, (m1, m2), I) and
// cl2 = (RISE, (I), r).
func calls() (cl1, cl2 *Call) {
	return &Call{Func: intgr, Args: []expr.Expr{v("m1"), v("m2")}, X: v("I")},
		&Call{Func: rise, Args: []expr.Expr{v("I")}, X: v("r")}
}

func equivalent(t *testing.T, z *solver.Context, what string, got expr.Expr, want string) {
	t.Helper()
	ok, err := z.Equivalent(got, parse(t, want))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !ok {
		t.Errorf("%s = %s, not equivalent to the paper's %s", what, expr.Format(got), want)
	}
}

// TestExamples checks Examples 2, 4 and 5 of the paper: the formulas
// are equivalent under Z3 to the paper's.
func TestExamples(t *testing.T) {
	z := newContext(t)
	cl1, cl2 := calls()
	tab := table1()
	kappa := []*Call{cl1, cl2}
	sum1 := "(m1 == 123 && m2 == 96 && I == 228) || (m1 == 148 && m2 == 141 && I == 300)"
	sum2 := "(I == 202 && r == 0.7) || (I == 300 && r == 2.42)"
	no1 := "(m1 != 123 || m2 != 96) && (m1 != 148 || m2 != 141)"
	no2 := "I != 202 && I != 300"
	for _, c := range []struct {
		what string
		got  expr.Expr
		want string
	}{
		{"Sum(cl1)", Sum(cl1, tab["INTGR"]), sum1},
		{"Sum(cl2)", Sum(cl2, tab["RISE"]), sum2},
		{"Sums", Sums(kappa, tab), "(" + sum1 + ") && (" + sum2 + ")"},
		{"Sum(cl, ∅)", Sum(cl1, nil), "false"},
		{"NoCorres1(cl1)", NoCorres1(cl1, tab["INTGR"]), no1},
		{"NoCorres1(cl2)", NoCorres1(cl2, tab["RISE"]), no2},
		{"NoCorres", NoCorres(kappa, tab), "(" + no1 + ") || (" + no2 + ")"},
		{"NoCorres1(cl, ∅)", NoCorres1(cl1, nil), "true"},
		{"CorresRes(cl1)", CorresRes(cl1, tab["INTGR"]), "I == 228 || I == 300"},
		{"Dep", Dep(kappa, tab), "I == 228 || I == 300"},
	} {
		equivalent(t, z, c.what, c.got, c.want)
	}
	if d := DepOf(cl2, kappa); len(d) != 1 || d[0] != cl1 {
		t.Errorf("Dep_cl2 = %v, want {cl1}", d)
	}
	if d := DepOf(cl1, kappa); len(d) != 0 {
		t.Errorf("Dep_cl1 = %v, want ∅", d)
	}
}

// TestFlattenExample3 is Example 3: χ(RISE(INTGR([x+1, 0])) > 1) is
// r > 1 with κ = {(RISE, (I), r), (INTGR, ([x+1, 0]), I)}, innermost
// first, one fresh variable per occurrence.
func TestFlattenExample3(t *testing.T) {
	z := newContext(t)
	x1 := expr.Arith(expr.Add, v("x"), expr.IntConst(1))
	inner := &expr.Call{Func: "INTGR", Args: []expr.Expr{x1, expr.IntConst(0)}, T: expr.IntType}
	phi := expr.Compare(expr.Gt, &expr.Call{Func: "RISE", Args: []expr.Expr{inner}, T: expr.RealType}, expr.RatConst(big.NewRat(1, 1)))
	fl := NewFlattener([]*expr.Func{intgr, rise})
	bar, kappa, err := fl.Flatten(phi)
	if err != nil {
		t.Fatal(err)
	}
	if len(kappa) != 2 || kappa[0].Func != intgr || kappa[1].Func != rise {
		t.Fatalf("κ = %v, want INTGR then RISE", kappa)
	}
	I, r := kappa[0].X, kappa[1].X
	if I.Name != "INTGR#1" || r.Name != "RISE#1" || !IsFresh(I) {
		t.Errorf("fresh variables %s, %s", I.Name, r.Name)
	}
	// Rename the fresh variables to the paper's I and r, then compare.
	ren := func(e expr.Expr) expr.Expr {
		return expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
			switch id.Name {
			case I.Name:
				return v("I")
			case r.Name:
				return v("r")
			}
			return nil
		})
	}
	equivalent(t, z, "φ̄0", ren(bar), "r > 1")
	equivalent(t, z, "INTGR's first input", expr.Compare(expr.Eq, v("m1"), kappa[0].Args[0]), "m1 == x + 1")
	equivalent(t, z, "INTGR's second input", expr.Compare(expr.Eq, v("m1"), kappa[0].Args[1]), "m1 == 0")
	equivalent(t, z, "RISE's input", expr.Compare(expr.Eq, v("m1"), ren(kappa[1].Args[0])), "m1 == I")
	if d := DepOf(kappa[1], kappa); len(d) != 1 || d[0] != kappa[0] {
		t.Errorf("RISE depends on %v, want the INTGR call", d)
	}
	// A second occurrence of the same call gets its own variable.
	_, again, _ := fl.Flatten(phi)
	if again[0].X.Name != "INTGR#2" || again[1].X.Name != "RISE#2" {
		t.Errorf("second flattening: %v", again)
	}
	if _, _, err := NewFlattener(nil).Flatten(phi); err == nil {
		t.Error("a call of an unknown function flattened")
	}
}

// TestSolveTabStatic is the first SolveTab check of the paper: ψ = I >
// 200 ∧ r ≤ 1 with Table 1 has no solution with m = 0, and the tables
// do not change.
func TestSolveTabStatic(t *testing.T) {
	z := newContext(t)
	cl1, cl2 := calls()
	tab := table1()
	execs := 0
	exec := func(f *expr.Func, args []expr.Value) (expr.Value, error) { execs++; return reference(f, args) }
	res, err := SolveTab(z, parse(t, "I > 200 && r <= 1"), []*Call{cl1, cl2}, tab, Options{M: 0, Exec: exec})
	if err != nil {
		t.Fatal(err)
	}
	if res.Found || execs != 0 || res.Execs != 0 {
		t.Errorf("m = 0: %+v, %d executions", res, execs)
	}
	if !reflect.DeepEqual(tab, table1()) {
		t.Errorf("m = 0 changed the tables: %v", tab)
	}
}

// TestSolveTabLearnsRISE is the second check, with the per-call
// queries (Options.PerCall): with m = 1 and Exec_RISE(228) = 0.97, the
// solution has I = 228 and RISE gains exactly the row 228 → 0.97 (INTGR
// at most one row).
func TestSolveTabLearnsRISE(t *testing.T) {
	z := newContext(t)
	cl1, cl2 := calls()
	tab := table1()
	res, err := SolveTab(z, parse(t, "I > 200 && r <= 1"), []*Call{cl1, cl2}, tab, Options{M: 1, Exec: reference, PerCall: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found || res.Unknown {
		t.Fatalf("m = 1: no solution (%+v), tables %v", res, tab)
	}
	if got := res.Sol.Vars["I"]; !got.Equal(ival(228)) {
		t.Errorf("I = %s, want 228", got)
	}
	want := append(table1()["RISE"], row(rval("0.97"), ival(228)))
	if !rowsEqual(tab["RISE"], want) {
		t.Errorf("RISE rows %v, want %v", tab["RISE"], want)
	}
	if n := len(tab["INTGR"]); n < 2 || n > 3 {
		t.Errorf("INTGR has %d rows, want 2 or 3", n)
	}
	if res.Attempts != 1 {
		t.Errorf("%d attempts", res.Attempts)
	}
}

// TestSolveTabDep asserts Dep's effect in Algorithm 1: with Dep, every
// input RISE is executed on is a result of INTGR's table (I ∈ {228,
// 300} with Table 1), whatever model Z3 picks; without Dep (NoDep) the
// query ψ ∧ NoCorres leaves I free, and Z3's model executes RISE on an
// input INTGR's table cannot produce, a row no path can use.
func TestSolveTabDep(t *testing.T) {
	z := newContext(t)
	for _, psi := range []string{"I > 200 && r <= 1", "I > 200 && r <= 1 && I != 300", "I > 200 && r > 3"} {
		for _, noDep := range []bool{false, true} {
			cl1, cl2 := calls()
			var riseIn []expr.Value
			exec := func(f *expr.Func, args []expr.Value) (expr.Value, error) {
				if f.Name == "RISE" {
					riseIn = append(riseIn, args[0])
				}
				return reference(f, args)
			}
			res, err := SolveTab(z, parse(t, psi), []*Call{cl1, cl2}, table1(), Options{M: 1, Exec: exec, NoDep: noDep})
			if err != nil || res.Attempts != 1 || len(riseIn) != 1 {
				t.Fatalf("%s, NoDep %v: %+v, RISE executed on %v, %v", psi, noDep, res, riseIn, err)
			}
			known := riseIn[0].Equal(ival(228)) || riseIn[0].Equal(ival(300))
			if known == noDep {
				t.Errorf("%s, NoDep %v: RISE executed on %s (a result of INTGR's table: %v)", psi, noDep, riseIn[0], known)
			}
		}
	}
}

func rowsEqual(a, b []expr.TableRow) bool {
	return reflect.DeepEqual(len(a), len(b)) && func() bool {
		for i := range a {
			if !sameValues(a[i].Args, b[i].Args) || !a[i].Result.Equal(b[i].Result) {
				return false
			}
		}
		return true
	}()
}

// TestSolveTabOneRowPerAttempt is the third check: with ψ = I ≤ 200 and
// κ = {cl1}, every attempt adds exactly one INTGR row, so success after
// k attempts leaves 2 + k rows. The implementation answers more than 200
// to the first `late` new inputs it is asked about.
func TestSolveTabOneRowPerAttempt(t *testing.T) {
	z := newContext(t)
	for _, late := range []int{0, 1, 4, 9} {
		cl1, _ := calls()
		tab := table1()
		memo := Tab{}
		exec := func(f *expr.Func, args []expr.Value) (expr.Value, error) {
			if v, ok := memo.Lookup(f.Name, args); ok {
				return v, nil
			}
			r := ival(0)
			if len(memo[f.Name]) < late {
				r = ival(1000)
			}
			memo.Add(f, args, r)
			return r, nil
		}
		for m := 1; m <= 12; m++ {
			before := len(tab["INTGR"])
			res, err := SolveTab(z, parse(t, "I <= 200"), []*Call{cl1}, tab, Options{M: 1, Exec: exec})
			if err != nil {
				t.Fatal(err)
			}
			if res.Attempts != 1 || res.Added != 1 || len(tab["INTGR"]) != before+1 {
				t.Fatalf("late %d, attempt %d: %+v, %d rows before, %d after", late, m, res, before, len(tab["INTGR"]))
			}
			if res.Found {
				if m != late+1 || len(tab["INTGR"]) != 2+m {
					t.Errorf("late %d: success after %d attempts with %d rows", late, m, len(tab["INTGR"]))
				}
				break
			}
		}
		// The same in one call with a large m.
		tab = table1()
		memo = Tab{}
		res, err := SolveTab(z, parse(t, "I <= 200"), []*Call{cl1}, tab, Options{M: 50, Exec: exec})
		if err != nil || !res.Found || res.Attempts != late+1 || len(tab["INTGR"]) != 2+res.Attempts {
			t.Errorf("late %d, m = 50: %+v, %d rows, %v", late, res, len(tab["INTGR"]), err)
		}
	}
}

// TestSolveTabBound: m bounds the attempts; none succeeds when the
// implementation never answers ≤ 200.
func TestSolveTabBound(t *testing.T) {
	z := newContext(t)
	for m := 0; m <= 4; m++ {
		cl1, _ := calls()
		tab := table1()
		n := int64(0)
		exec := func(*expr.Func, []expr.Value) (expr.Value, error) { n++; return ival(1000 + n), nil }
		res, err := SolveTab(z, parse(t, "I <= 200"), []*Call{cl1}, tab, Options{M: m, Exec: exec})
		if err != nil || res.Found || res.Attempts != m || len(tab["INTGR"]) != 2+m {
			t.Errorf("m = %d: %+v, %d rows, %v", m, res, len(tab["INTGR"]), err)
		}
	}
	cl1, _ := calls()
	if _, err := SolveTab(z, parse(t, "I <= 200"), []*Call{cl1}, table1(), Options{M: -1}); err == nil {
		t.Error("negative m accepted")
	}
}

// TestSolveTabErrors: a failing, panicking, ill-typed, inconsistent or
// missing implementation is an error naming the function and inputs.
func TestSolveTabErrors(t *testing.T) {
	z := newContext(t)
	for _, c := range []struct {
		name string
		exec Exec
		want string
	}{
		{"crash", func(*expr.Func, []expr.Value) (expr.Value, error) { return expr.Value{}, errors.New("exit status 2") }, "exit status 2"},
		{"timeout", func(*expr.Func, []expr.Value) (expr.Value, error) {
			return expr.Value{}, errors.New("no answer within 5s")
		}, "no answer within 5s"},
		{"panic", func(*expr.Func, []expr.Value) (expr.Value, error) { panic("boom") }, "panicked: boom"},
		{"ill-typed", func(*expr.Func, []expr.Value) (expr.Value, error) { return rval("1.5"), nil }, "not a value of type int"},
		{"ill-formed", func(*expr.Func, []expr.Value) (expr.Value, error) { return expr.Value{T: expr.IntType}, nil }, "ill-formed"},
	} {
		cl1, _ := calls()
		_, err := SolveTab(z, parse(t, "I <= 200"), []*Call{cl1}, table1(), Options{M: 3, Exec: c.exec})
		if err == nil || !strings.Contains(err.Error(), "INTGR(") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want INTGR(inputs) and %q", c.name, err, c.want)
		}
	}
	// An implementation contradicting the table.
	cl1, cl2 := calls()
	tab := table1()
	bad := func(f *expr.Func, args []expr.Value) (expr.Value, error) {
		if f.Name == "RISE" {
			return rval("5"), nil // RISE(300) is 2.42 in the table
		}
		return ival(300), nil
	}
	_, err := SolveTab(z, parse(t, "I == 300 && r <= 1 && m1 == 1"), []*Call{cl1, cl2}, tab, Options{M: 1, Exec: bad})
	if err == nil || !strings.Contains(err.Error(), "RISE(300) = 5, but its table says 2.42") {
		t.Errorf("contradiction: %v", err)
	}
}

// TestSolveTabNoImplementation: without an implementation (a nil Exec,
// or one whose error wraps ErrNoImplementation) the search for new
// inputs ends as when there are none: no error, no row, one attempt.
func TestSolveTabNoImplementation(t *testing.T) {
	z := newContext(t)
	none := func(f *expr.Func, args []expr.Value) (expr.Value, error) {
		return expr.Value{}, fmt.Errorf("%s: %w", f.Name, ErrNoImplementation)
	}
	for _, exec := range []Exec{nil, none} {
		cl1, _ := calls()
		tab := table1()
		res, err := SolveTab(z, parse(t, "I <= 200"), []*Call{cl1}, tab, Options{M: 3, Exec: exec})
		if err != nil || res.Found || res.Attempts != 1 || res.Added != 0 || !res.NoImpl || len(tab["INTGR"]) != 2 {
			t.Errorf("%+v, %d rows, %v", res, len(tab["INTGR"]), err)
		}
	}
}

func TestTabMarshal(t *testing.T) {
	m := &spec.Model{Name: "microgrid", Funcs: []*expr.Func{intgr, rise}}
	out, err := table3().Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"kind: tables", "INTGR:", "[[123, 96], 228]", "RISE:", "[228, 0.97]"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if len(intgr.Table) != 0 {
		t.Error("Marshal changed the model")
	}
}

// TestFlattenStrings: string literals and built-ins are interpreted by
// the solver, so flattening keeps them and flattens only the external
// calls in their arguments: χ(regexp.MatchString("^[A-Z]", "a" +
// NAME(s)) && len(s) > 1) = regexp.MatchString("^[A-Z]", "a" + x) &&
// len(s) > 1 with κ = {(NAME, (s), x)}.
func TestFlattenStrings(t *testing.T) {
	name := &expr.Func{Name: "NAME", Params: []expr.Type{expr.StringType}, Result: expr.StringType}
	s := &expr.Ident{Name: "s", Kind: expr.VarIdent, T: expr.StringType}
	re, err := expr.CompileRegex("^[A-Z]")
	if err != nil {
		t.Fatal(err)
	}
	call := &expr.Call{Func: "NAME", Args: []expr.Expr{s}, T: expr.StringType}
	cat := &expr.StrCall{Fn: expr.StrConcat, Args: []expr.Expr{expr.StrConst("a"), call}}
	m := &expr.StrCall{Fn: expr.StrMatch, Args: []expr.Expr{cat}, Pattern: "^[A-Z]", Re: re}
	l := expr.Compare(expr.Gt, &expr.StrCall{Fn: expr.StrLen, Args: []expr.Expr{s}}, expr.IntConst(1))
	phi := expr.AndOf(m, l)
	bar, kappa, err := NewFlattener([]*expr.Func{name}).Flatten(phi)
	if err != nil {
		t.Fatal(err)
	}
	if len(kappa) != 1 || kappa[0].Func != name || expr.Format(kappa[0].Args[0]) != "s" {
		t.Fatalf("κ = %v, want NAME(s)", kappa)
	}
	want := "regexp.MatchString(`^[A-Z]`, \"a\" + NAME#1) && len(s) > 1"
	if got := expr.Format(bar); got != want {
		t.Errorf("χ = %s, want %s", got, want)
	}
	if b, k, err := NewFlattener(nil).Flatten(l); err != nil || b != l || len(k) != 0 {
		t.Errorf("a call-free string term changed: %s, %v, %v", expr.Format(b), k, err)
	}
}

// TestSolveCalls: SolveCalls flattens a formula whose calls are terms
// (RISE(INTGR(m1, m2)) > 1, as the uninterpreted tree of on-line testing
// holds them) and solves it within the tables: only Table 1's row 300
// of INTGR gives an alarm, so the inputs are that row's; 0 < I <= 200
// has no solution in Table 1 without executions, and one in Table 3
// (two calls, one row).
func TestSolveCalls(t *testing.T) {
	funcs := []*expr.Func{intgr, rise}
	call := &expr.Call{Func: "INTGR", Args: []expr.Expr{v("m1"), v("m2")}, T: expr.IntType, Lens: []int{2}}
	alarm := expr.Compare(expr.Gt, &expr.Call{Func: "RISE", Args: []expr.Expr{call}, T: expr.RealType}, expr.RatConst(big.NewRat(1, 1)))
	low := expr.AndOf(expr.Compare(expr.Le, call, expr.IntConst(200)), expr.Compare(expr.Gt, call, expr.IntConst(0)))
	for _, c := range []struct {
		name   string
		e      expr.Expr
		tab    Tab
		found  bool
		result int64 // INTGR's result on the inputs found
	}{
		{"alarm, Table 1", alarm, table1(), true, 300},
		{"0 < I <= 200, Table 1", low, table1(), false, 0},
		{"0 < I <= 200, Table 3", low, table3(), true, 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := SolveCalls(newContext(t), c.e, funcs, c.tab, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Found != c.found || res.Unknown {
				t.Fatalf("found %v (%+v), want %v", res.Found, res, c.found)
			}
			if !c.found {
				return
			}
			m1, m2 := res.Sol.Vars["m1"], res.Sol.Vars["m2"]
			if i, ok := c.tab.Lookup("INTGR", []expr.Value{m1, m2}); !ok || !i.Equal(ival(c.result)) {
				t.Errorf("inputs %s, %s: INTGR gives %s (a row: %v), want the row giving %d", m1, m2, i, ok, c.result)
			}
		})
	}
}
