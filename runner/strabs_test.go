package runner

import (
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// TestStringAbsExact: on the Lucky People test case (names checked by a
// regular expression, first letters compared), the guard of every send
// with the string tests abstracted to booleans (strabs.go) is satisfiable
// exactly when the guard itself is, in every state and for every sex
// (Z3 as the oracle); the link ties the booleans to the strings.
func TestStringAbsExact(t *testing.T) {
	r := newRunner(t, "lucky-by-sex.yaml", Options{})
	sex := r.tc.Enum("Sex")
	abstracted := 0
	for _, tr := range r.tc.Transitions {
		a := r.tc.Action(tr.Action)
		if a.Dir != spec.Send || !hasStringParam(a) {
			continue
		}
		abs, err := r.stringAbsOf(tr)
		if err != nil {
			t.Fatal(err)
		}
		if abs == nil {
			t.Errorf("%s: string tests not abstracted", tr.Label())
			continue
		}
		abstracted++
		g, link := abs.apply(tr.Guard, 1)
		for _, prev := range sex.Values {
			for _, s := range sex.Values {
				for _, n := range []int64{0, 4, 5, 6} {
					vars := map[string]expr.Expr{"prev": enumLit(sex, prev), "n": expr.IntConst(n)}
					params := map[string]expr.Expr{"sex": enumLit(sex, s)}
					want := sat(t, r, expr.Substitute(tr.Guard, vars, params))
					got := sat(t, r, expr.Substitute(g, vars, params))
					if got != want {
						t.Errorf("%s, prev=%s sex=%s n=%d: abstracted guard %v, guard %v", tr.Label(), prev, s, n, got, want)
					}
					if linked := sat(t, r, expr.Substitute(expr.AndOf(g, link), vars, params)); linked != want {
						t.Errorf("%s, prev=%s sex=%s n=%d: with the link %v, guard %v", tr.Label(), prev, s, n, linked, want)
					}
				}
			}
		}
	}
	if abstracted == 0 {
		t.Fatal("no send abstracted")
	}
}

// A string test that calls a function is not abstracted; one that
// mentions a variable is, as a free atom (no constraint of feasibility:
// an over-approximation), the link keeping the strings exact.
func TestStringAbsRefused(t *testing.T) {
	str := expr.StringType
	s := &expr.Ident{Name: "s", Kind: expr.ParamIdent, T: str}
	k := &expr.Ident{Name: "k", Kind: expr.VarIdent, T: expr.IntType}
	lenS := &expr.StrCall{Fn: expr.StrLen, Args: []expr.Expr{s}}
	call := expr.Compare(expr.Eq, &expr.Call{Func: "f", Args: []expr.Expr{s}, T: expr.BoolType}, expr.BoolConst(true))
	var atoms []expr.Expr
	if collectAtoms(call, &atoms) {
		t.Errorf("%s: abstracted (%d atoms), want refused", expr.Format(call), len(atoms))
	}
	r := newRunner(t, "cmp.yaml", Options{})
	// len(s) == k && (len(s) < 0 || s == "ab"), with k = 3: unsatisfiable
	neverLen := expr.Compare(expr.Lt, lenS, expr.IntConst(0))
	tr := &spec.Transition{Guard: expr.AndOf(expr.Compare(expr.Eq, lenS, k), expr.OrOf(neverLen, expr.Compare(expr.Eq, s, expr.StrConst("ab"))))}
	r.tc.Actions = append(r.tc.Actions, &spec.Action{Name: "sin", Dir: spec.Send, Params: []*spec.Param{{Name: "s", Type: str}}})
	tr.Action = "sin"
	abs, err := r.makeStringAbs(tr)
	if err != nil || abs == nil {
		t.Fatalf("not abstracted: %v", err)
	}
	if len(abs.atoms) != 3 || len(abs.exact) != 2 {
		t.Fatalf("%d atoms, %d exact; want 3 and 2", len(abs.atoms), len(abs.exact))
	}
	g, link := abs.apply(tr.Guard, 1)
	vars := map[string]expr.Expr{"k": expr.IntConst(3)}
	if !sat(t, r, expr.Substitute(g, vars, nil)) {
		t.Errorf("abstracted guard unsatisfiable: the free atom len(s) == k must stay possible")
	}
	// len(s) < 0 is exact and never holds: its boolean is false.
	if sat(t, r, expr.Substitute(expr.AndOf(g, &expr.Ident{Name: "strtest1@1", Kind: expr.ParamIdent, T: expr.BoolType}), vars, nil)) {
		t.Errorf("the exact atom len(s) < 0 may hold in the abstraction")
	}
	if sat(t, r, expr.Substitute(expr.AndOf(g, link), vars, nil)) {
		t.Errorf("with the link, the guard (unsatisfiable) holds")
	}
}

func enumLit(e *expr.Enum, name string) expr.Expr {
	return &expr.EnumLit{Enum: e, Index: e.Index(name)}
}

func sat(t *testing.T, r *Runner, f expr.Expr) bool {
	t.Helper()
	res, err := r.z.Sat(f)
	if err != nil || res == solver.Unknown {
		t.Fatalf("%s: %v %v", expr.Format(f), res, err)
	}
	return res == solver.Sat
}
