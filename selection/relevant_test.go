package selection

import (
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// TestRelevantMemoAgreesWithZ3: questions asked again under contexts
// that differ only in an independent conjunct (s == i, as from stage to
// stage of a spec) are answered from the memo by their relevant part,
// and every answer the decider gives is still Z3's. Under a context the
// search finds no model of (an independent s*s == 2), no question is
// remembered by its relevant part.
func TestRelevantMemoAgreesWithZ3(t *testing.T) {
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	f := newFormulas(25)
	s := &expr.Ident{Name: "s", Kind: expr.VarIdent, T: expr.IntType}
	d := newDecider(ctx, append(f.ids, f.st, f.b, s))
	type question struct{ context, e expr.Expr }
	var qs []question
	for i := 0; i < 300; i++ {
		qs = append(qs, question{f.conjunction(f.r.Intn(4)), f.formula(3)})
	}
	searched := 0
	for stage := 0; stage < 4; stage++ {
		for _, q := range qs {
			context := expr.AndOf(expr.Compare(expr.Eq, s, expr.IntConst(int64(stage))), q.context)
			_, memo := d.relevantKey(context, q.e)
			n := len(d.relevant.m)
			v := d.settle(context, q.e)
			if len(d.relevant.m) > n {
				searched++
			}
			if !memo || v == undecided {
				continue
			}
			want, err := ctx.Sat(expr.AndOf(context, q.e))
			if err != nil {
				t.Fatal(err)
			}
			if got := v == sat; want != solver.Unknown && got != (want == solver.Sat) {
				t.Errorf("stage %d: %s under %s: decided %v, Z3 says %v", stage, expr.Format(q.e), expr.Format(context), got, want)
			}
		}
	}
	if searched > 2*len(qs) {
		t.Errorf("%d of %d questions searched: the memo by relevant part is not used", searched, 4*len(qs))
	}
	t.Logf("%d of %d questions searched", searched, 4*len(qs))
	nonlinear := expr.Compare(expr.Eq, expr.Arith(expr.Mul, s, s), expr.IntConst(2))
	x := f.ids[0]
	context := expr.AndOf(nonlinear, expr.Compare(expr.Ge, x, expr.IntConst(0)))
	if _, memo := d.relevantKey(context, expr.Compare(expr.Le, x, expr.IntConst(3))); memo {
		t.Errorf("a question under %s is remembered by its relevant part", expr.Format(context))
	}
}

// TestSimplifyMemoAgreesWithZ3: guards simplified under contexts that
// differ from stage to stage only in an independent conjunct (s == i)
// are answered from the memo of simplifyUnder after the first stage,
// and every readable guard it returns is, within its context, the
// guard itself (checked with Z3): context ∧ readable ⇔ context ∧ g.
func TestSimplifyMemoAgreesWithZ3(t *testing.T) {
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	f := newFormulas(26)
	s := &expr.Ident{Name: "s", Kind: expr.VarIdent, T: expr.IntType}
	d := newDecider(ctx, append(f.ids, f.st, f.b, s))
	type question struct{ context, g expr.Expr }
	var qs []question
	for i := 0; i < 60; i++ {
		qs = append(qs, question{f.conjunction(f.r.Intn(4)), expr.AndOf(f.formula(2), f.formula(2))})
	}
	hits := 0
	for stage := 0; stage < 3; stage++ {
		for _, q := range qs {
			context := expr.AndOf(expr.Compare(expr.Eq, s, expr.IntConst(int64(stage))), q.context)
			key, memo := d.relevantKey(context, q.g)
			if _, ok := d.simplified.get(key); memo && ok {
				hits++
			}
			r, err := simplifyUnder(d, context, q.g)
			if err != nil {
				t.Fatal(err)
			}
			ok, err := ctx.Equivalent(expr.AndOf(context, r), expr.AndOf(context, q.g))
			if err == nil && !ok {
				t.Errorf("stage %d: %s simplified under %s to %s, not the same set", stage, expr.Format(q.g), expr.Format(context), expr.Format(r))
			}
		}
	}
	if hits < len(qs)/2 {
		t.Errorf("%d memo hits in %d questions: the memo of simplifyUnder is not used", hits, 3*len(qs))
	}
	t.Logf("%d memo hits in %d questions", hits, 3*len(qs))
}
