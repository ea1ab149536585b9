package selection

import (
	"math/big"
	"math/rand"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// formulas makes random predicates over int variables x and y, a real
// variable z, an int parameter k, and, now and then, what the polyhedra
// do not represent: an enumerated variable, a boolean variable, a
// product of two variables, a Euclidean division.
type formulas struct {
	r    *rand.Rand
	ids  []*expr.Ident
	st   *expr.Ident
	b    *expr.Ident
	enum *expr.Enum
}

func newFormulas(seed int64) *formulas {
	enum := &expr.Enum{Name: "Mode", Values: []string{"idle", "busy"}}
	return &formulas{
		r: rand.New(rand.NewSource(seed)),
		ids: []*expr.Ident{
			{Name: "x", Kind: expr.VarIdent, T: expr.IntType},
			{Name: "y", Kind: expr.VarIdent, T: expr.IntType},
			{Name: "z", Kind: expr.VarIdent, T: expr.RealType},
			{Name: "k", Kind: expr.ParamIdent, T: expr.IntType},
		},
		st:   &expr.Ident{Name: "st", Kind: expr.VarIdent, T: expr.EnumType(enum)},
		b:    &expr.Ident{Name: "b", Kind: expr.VarIdent, T: expr.BoolType},
		enum: enum,
	}
}

var comparisons = []expr.Op{expr.Eq, expr.Ne, expr.Lt, expr.Le, expr.Gt, expr.Ge}

// linear returns a random sum of c·v over the variables of type t, c in
// [-3, 3], plus a constant.
func (f *formulas) linear(t expr.Type) expr.Expr {
	var e expr.Expr
	for _, id := range f.ids {
		if id.T != t || f.r.Intn(2) == 0 {
			continue
		}
		var x expr.Expr = id
		if c := f.r.Intn(7) - 3; c != 1 {
			x = expr.Arith(expr.Mul, f.constant(t, int64(c)), id)
		}
		if e == nil {
			e = x
		} else {
			e = expr.Arith(expr.Add, e, x)
		}
	}
	k := f.constant(t, int64(f.r.Intn(11)-5))
	if e == nil {
		return k
	}
	return expr.Arith(expr.Add, e, k)
}

func (f *formulas) constant(t expr.Type, c int64) expr.Expr {
	if t == expr.RealType {
		return &expr.RealLit{Val: big.NewRat(c, 1)}
	}
	return expr.IntConst(c)
}

func (f *formulas) atom() expr.Expr {
	op := comparisons[f.r.Intn(len(comparisons))]
	switch f.r.Intn(20) {
	case 0:
		return expr.Compare(expr.Eq, f.st, &expr.EnumLit{Enum: f.enum, Index: f.r.Intn(2)})
	case 1:
		return f.b
	case 2:
		return expr.Compare(op, expr.Arith(expr.Mul, f.ids[0], f.ids[1]), expr.IntConst(2))
	case 3:
		return expr.Compare(op, expr.Arith(expr.Div, f.ids[0], expr.IntConst(2)), f.ids[1])
	}
	t := expr.IntType
	if f.r.Intn(4) == 0 {
		t = expr.RealType
	}
	return expr.Compare(op, f.linear(t), f.linear(t))
}

func (f *formulas) formula(depth int) expr.Expr {
	if depth == 0 || f.r.Intn(3) == 0 {
		return f.atom()
	}
	switch f.r.Intn(3) {
	case 0:
		return expr.NotOf(f.formula(depth - 1))
	case 1:
		return expr.OrOf(f.formula(depth-1), f.formula(depth-1))
	}
	return expr.AndOf(f.formula(depth-1), f.formula(depth-1))
}

func (f *formulas) conjunction(n int) expr.Expr {
	var cs []expr.Expr
	for i := 0; i < n; i++ {
		t := expr.IntType
		if f.r.Intn(4) == 0 {
			t = expr.RealType
		}
		cs = append(cs, expr.Compare(comparisons[f.r.Intn(len(comparisons))], f.linear(t), f.linear(t)))
	}
	return expr.AndOf(cs...)
}

// TestDeciderAgreesWithZ3 is the property test of the decider: on
// random predicates under random contexts, every answer it gives
// (satisfiable or not) is Z3's, and it settles most of them.
func TestDeciderAgreesWithZ3(t *testing.T) {
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	f := newFormulas(15)
	d := newDecider(ctx, append(f.ids, f.st, f.b))
	const n = 3000
	decided := 0
	for i := 0; i < n; i++ {
		context, e := f.conjunction(f.r.Intn(4)), f.formula(3)
		v := d.decide(context, e)
		if v == undecided {
			continue
		}
		decided++
		want, err := ctx.Sat(expr.AndOf(context, e))
		if err != nil {
			t.Fatalf("Z3 on %s: %v", expr.Format(expr.AndOf(context, e)), err)
		}
		if got := v == sat; got != (want == solver.Sat) {
			t.Errorf("%s under %s: decided %v, Z3 says %v", expr.Format(e), expr.Format(context), got, want)
		}
	}
	if decided < n/2 {
		t.Errorf("decided %d of %d questions, want at least half", decided, n)
	}
	t.Logf("decided %d of %d", decided, n)
}

// TestDeciderWithFacts: with facts set, a model of the formula alone
// does not answer satisfiable (the facts are not checked against it);
// unsatisfiability still does.
func TestDeciderWithFacts(t *testing.T) {
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	f := newFormulas(1)
	x := f.ids[0]
	if err := ctx.SetFacts(expr.Compare(expr.Ge, x, expr.IntConst(0))); err != nil {
		t.Fatal(err)
	}
	d := newDecider(ctx, f.ids)
	for _, tt := range []struct {
		e    expr.Expr
		want verdict
	}{
		{expr.Compare(expr.Eq, x, expr.IntConst(-1)), undecided},
		{expr.AndOf(expr.Compare(expr.Gt, x, expr.IntConst(2)), expr.Compare(expr.Lt, x, expr.IntConst(3))), unsat},
	} {
		if got := d.decide(expr.True(), tt.e); got != tt.want {
			t.Errorf("%s: %v, want %v", expr.Format(tt.e), got, tt.want)
		}
	}
}

// TestDeciderTable: exact answers on the integers that the rational
// relaxation alone would miss, != as two branches, contexts.
func TestDeciderTable(t *testing.T) {
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	f := newFormulas(1)
	d := newDecider(ctx, f.ids)
	x, y := f.ids[0], f.ids[1]
	c := func(op expr.Op, a expr.Expr, v int64) expr.Expr { return expr.Compare(op, a, expr.IntConst(v)) }
	for i, tt := range []struct {
		context, e expr.Expr
		want       verdict
	}{
		{expr.True(), expr.AndOf(c(expr.Gt, x, 2), c(expr.Lt, x, 3)), unsat},                          // tightened: x >= 3 && x <= 2
		{expr.True(), c(expr.Eq, expr.Arith(expr.Mul, expr.IntConst(2), x), 1), unsat},                // 2x == 1 has no integer solution
		{c(expr.Eq, x, 0), expr.OrOf(c(expr.Ne, x, 0), c(expr.Gt, y, 1)), sat},                        // the second branch
		{c(expr.Eq, x, 0), expr.AndOf(c(expr.Ne, x, 0), c(expr.Gt, y, 1)), unsat},                     // both sides of != are empty
		{c(expr.Ge, x, 0), expr.NotOf(expr.OrOf(c(expr.Ge, x, 0), c(expr.Gt, y, 1))), unsat},          // De Morgan
		{expr.True(), expr.Compare(expr.Gt, expr.Arith(expr.Mul, x, y), expr.IntConst(2)), undecided}, // non-linear: no model checked
	} {
		if got := d.decide(tt.context, tt.e); got != tt.want {
			t.Errorf("%d: %s under %s: %v, want %v", i, expr.Format(tt.e), expr.Format(tt.context), got, tt.want)
		}
	}
}

func (v verdict) String() string {
	return [...]string{"undecided", "sat", "unsat"}[v]
}
