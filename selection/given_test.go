package selection

import (
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// TestGivenAgreesWithZ3 is the property test of given: on questions
// made of a random context's own conjuncts, negations of some of them,
// repeated and ground conjuncts and random formulas, under contexts
// that often pin a variable or parameter to a number, every unsat it
// answers is Z3's, and every reduced formula is, within the context,
// the formula itself.
func TestGivenAgreesWithZ3(t *testing.T) {
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	f := newFormulas(41)
	d := newDecider(ctx, append(f.ids, f.st, f.b))
	var unsats, reduced int
	for i := 0; i < 400; i++ {
		context := expr.AndOf(f.atom(), f.conjunction(f.r.Intn(4)))
		if f.r.Intn(2) == 0 { // a stage's s == 7: pin x or k
			id := f.ids[3*f.r.Intn(2)]
			context = expr.AndOf(expr.Compare(expr.Eq, id, expr.IntConst(int64(f.r.Intn(5)-2))), context)
		}
		have := expr.Conjuncts(context)
		pick := func() expr.Expr { return have[f.r.Intn(len(have))] }
		var cs []expr.Expr
		for j := f.r.Intn(5); j >= 0; j-- {
			switch f.r.Intn(6) {
			case 0:
				cs = append(cs, pick())
			case 1:
				cs = append(cs, expr.NotOf(expr.AndOf(pick(), pick())))
			case 2:
				cs = append(cs, expr.NotOf(expr.AndOf(pick(), f.atom())))
			case 3:
				cs = append(cs, expr.Compare(expr.Eq, expr.IntConst(3), expr.IntConst(3)))
			case 4:
				if len(cs) > 0 {
					cs = append(cs, cs[f.r.Intn(len(cs))])
				}
			default:
				cs = append(cs, f.formula(2))
			}
		}
		e := expr.AndOf(cs...)
		r, v := d.given(context, e)
		switch {
		case v == unsat:
			unsats++
			got, err := ctx.Sat(expr.AndOf(context, e))
			if err == nil && got == solver.Sat {
				t.Errorf("%s under %s: given says unsat, Z3 finds a model", expr.Format(e), expr.Format(context))
			}
		case r != e:
			reduced++
			ok, err := ctx.Equivalent(expr.AndOf(context, r), expr.AndOf(context, e))
			if err == nil && !ok {
				t.Errorf("%s under %s reduced to %s, not the same set", expr.Format(e), expr.Format(context), expr.Format(r))
			}
		}
	}
	if unsats < 20 || reduced < 20 {
		t.Errorf("given answered %d questions and reduced %d of 400: the test does not exercise it", unsats, reduced)
	}
	t.Logf("given answered %d questions unsat and reduced %d of 400", unsats, reduced)
}
