package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// commaSpec and commaPurpose test product.Build's naming of product
// locations (the product package documentation) through the pipeline:
// the product locations (X, "Y,Z") and ("X,Y", Z) would both be named
// X,Y,Z, and the test case would loop on in in a location that is both,
// and fail the conformant answer ok(1).
const (
	commaSpec = `kind: spec
name: commas
variables: {}
actions:
  in: {dir: input, params: {p: int}}
  ok: {dir: output, params: {p: int}}
initial: {location: X}
transitions:
  - {from: X, action: in, to: "X,Y"}
  - {from: X, action: ok, guard: "p == 2", to: X}
  - {from: "X,Y", action: ok, guard: "p == 1", to: X}
`
	commaPurpose = `kind: purpose
name: commas-ok
variables: {}
initial: {location: "Y,Z"}
accept: [Acc]
transitions:
  - {from: "Y,Z", action: in, to: Z}
  - {from: "Y,Z", action: ok, to: Acc}
  - {from: Z, action: ok, to: Acc}
`
)

func TestAmbiguousLocationNames(t *testing.T) {
	dir := t.TempDir()
	sp, tp := filepath.Join(dir, "spec.yaml"), filepath.Join(dir, "purpose.yaml")
	for path, src := range map[string]string{sp: commaSpec, tp: commaPurpose} {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := newContext(t)
	for _, domain := range []string{"none", "interval", "polyhedra"} {
		t.Run(domain, func(t *testing.T) {
			res, err := Generate(sp, tp, Options{Domain: domain})
			if err != nil {
				t.Fatal(err)
			}
			again, err := Generate(sp, tp, Options{Domain: domain})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := specfile.Marshal(res.Testcase)
			b, _ := specfile.Marshal(again.Testcase)
			if !bytes.Equal(a, b) {
				t.Errorf("two generations differ:\n%s\n---\n%s", a, b)
			}
			checkWellFormed(t, ctx, res.Testcase)
			checkDistinctNames(t, res)
			checkNoPhantom(t, res)
			checkFailSound(t, ctx, res)
			// The conformant run in · ok(1) passes.
			if got := play(t, ctx, res.Testcase, "in", "ok"); got != "Pass" {
				t.Errorf("in · ok(1) ends in %s, want Pass:\n%s", got, a)
			}
		})
	}
}

// checkWellFormed: deterministic, complete for receives, verdicts named
// as docs/reference.md says.
func checkWellFormed(t *testing.T, ctx *solver.Context, tc *spec.Model) {
	t.Helper()
	f, err := check.All(ctx, tc)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Errors)+len(f.Undecided) > 0 {
		t.Errorf("test case: %v %v", expr.ErrorList(f.Errors), expr.ErrorList(f.Undecided))
	}
}

// checkDistinctNames: one product location per pair (l, q).
func checkDistinctNames(t *testing.T, res *Result) {
	t.Helper()
	names := map[[2]string]string{}
	for _, l := range res.Product.Locations {
		o, ok := res.Product.Origin[l]
		if !ok {
			t.Errorf("product location %s has no origin", l)
		}
		if n, ok := names[o]; ok {
			t.Errorf("pair %v is both %s and %s", o, n, l)
		}
		names[o] = l
	}
	for _, pair := range [][2]string{{"X", "Y,Z"}, {"X,Y", "Z"}} {
		if _, ok := names[pair]; !ok {
			t.Errorf("no product location for %v: %v", pair, res.Product.Locations)
		}
	}
}

// checkNoPhantom: every test case transition between product locations
// is a transition of the canonical tester and a move of the purpose
// (explicit, "*" or the implicit self-loop).
func checkNoPhantom(t *testing.T, res *Result) {
	t.Helper()
	for _, tr := range res.Testcase.Transitions {
		if res.Testcase.Verdict(tr.To) != "" {
			continue
		}
		from, to := res.Product.Origin[tr.From], res.Product.Origin[tr.To]
		specOK := false
		for _, st := range res.Tester.Outgoing(from[0]) {
			specOK = specOK || st.Action == tr.Action && st.To == to[0]
		}
		purposeOK := from[1] == to[1]
		for _, pt := range res.Purpose.Outgoing(from[1]) {
			purposeOK = purposeOK || (pt.Action == tr.Action || pt.Action == spec.Otherwise) && pt.To == to[1]
		}
		if !specOK || !purposeOK {
			t.Errorf("phantom transition %s -%s-> %s: (%s, %s) to (%s, %s)", tr.From, tr.Action, tr.To, from[0], from[1], to[0], to[1])
		}
	}
}

// play follows the actions from the initial location, each with its
// parameter p == 1, and returns the location reached.
func play(t *testing.T, ctx *solver.Context, tc *spec.Model, actions ...string) string {
	t.Helper()
	loc := tc.Initial.Location
	for _, a := range actions {
		one := expr.Compare(expr.Eq, &expr.Ident{Name: "p", Kind: expr.ParamIdent, T: expr.IntType}, expr.IntConst(1))
		next := ""
		for _, tr := range tc.Outgoing(loc) {
			if tr.Action != a {
				continue
			}
			r, err := ctx.Sat(expr.AndOf(tr.Guard, one))
			if err != nil {
				t.Fatal(err)
			}
			if r == solver.Sat {
				next = tr.To
				break
			}
		}
		if next == "" {
			t.Fatalf("no %s(1) from %s", a, loc)
		}
		loc = next
	}
	return loc
}
