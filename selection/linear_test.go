package selection

import (
	"math/big"
	"math/rand"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// formulas makes random predicates over int variables x and y, a real
// variable z, an int parameter k, and, now and then, what the polyhedra
// do not represent: an enumerated variable, a boolean variable, a
// product of two variables, a Euclidean division.
type formulas struct {
	r    *rand.Rand
	ids  []*spec.Ident
	st   *spec.Ident
	b    *spec.Ident
	enum *spec.Enum
}

func newFormulas(seed int64) *formulas {
	enum := &spec.Enum{Name: "Mode", Values: []string{"idle", "busy"}}
	return &formulas{
		r: rand.New(rand.NewSource(seed)),
		ids: []*spec.Ident{
			{Name: "x", Kind: spec.VarIdent, T: spec.IntType},
			{Name: "y", Kind: spec.VarIdent, T: spec.IntType},
			{Name: "z", Kind: spec.VarIdent, T: spec.RealType},
			{Name: "k", Kind: spec.ParamIdent, T: spec.IntType},
		},
		st:   &spec.Ident{Name: "st", Kind: spec.VarIdent, T: spec.EnumType(enum)},
		b:    &spec.Ident{Name: "b", Kind: spec.VarIdent, T: spec.BoolType},
		enum: enum,
	}
}

var comparisons = []spec.Op{spec.Eq, spec.Ne, spec.Lt, spec.Le, spec.Gt, spec.Ge}

// linear returns a random sum of c·v over the variables of type t, c in
// [-3, 3], plus a constant.
func (f *formulas) linear(t spec.Type) spec.Expr {
	var e spec.Expr
	for _, id := range f.ids {
		if id.T != t || f.r.Intn(2) == 0 {
			continue
		}
		var x spec.Expr = id
		if c := f.r.Intn(7) - 3; c != 1 {
			x = spec.Arith(spec.Mul, f.constant(t, int64(c)), id)
		}
		if e == nil {
			e = x
		} else {
			e = spec.Arith(spec.Add, e, x)
		}
	}
	k := f.constant(t, int64(f.r.Intn(11)-5))
	if e == nil {
		return k
	}
	return spec.Arith(spec.Add, e, k)
}

func (f *formulas) constant(t spec.Type, c int64) spec.Expr {
	if t == spec.RealType {
		return &spec.RealLit{Val: big.NewRat(c, 1)}
	}
	return spec.IntConst(c)
}

func (f *formulas) atom() spec.Expr {
	op := comparisons[f.r.Intn(len(comparisons))]
	switch f.r.Intn(20) {
	case 0:
		return spec.Compare(spec.Eq, f.st, &spec.EnumLit{Enum: f.enum, Index: f.r.Intn(2)})
	case 1:
		return f.b
	case 2:
		return spec.Compare(op, spec.Arith(spec.Mul, f.ids[0], f.ids[1]), spec.IntConst(2))
	case 3:
		return spec.Compare(op, spec.Arith(spec.Div, f.ids[0], spec.IntConst(2)), f.ids[1])
	}
	t := spec.IntType
	if f.r.Intn(4) == 0 {
		t = spec.RealType
	}
	return spec.Compare(op, f.linear(t), f.linear(t))
}

func (f *formulas) formula(depth int) spec.Expr {
	if depth == 0 || f.r.Intn(3) == 0 {
		return f.atom()
	}
	switch f.r.Intn(3) {
	case 0:
		return spec.NotOf(f.formula(depth - 1))
	case 1:
		return spec.OrOf(f.formula(depth-1), f.formula(depth-1))
	}
	return spec.AndOf(f.formula(depth-1), f.formula(depth-1))
}

func (f *formulas) conjunction(n int) spec.Expr {
	var cs []spec.Expr
	for i := 0; i < n; i++ {
		t := spec.IntType
		if f.r.Intn(4) == 0 {
			t = spec.RealType
		}
		cs = append(cs, spec.Compare(comparisons[f.r.Intn(len(comparisons))], f.linear(t), f.linear(t)))
	}
	return spec.AndOf(cs...)
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
		want, err := ctx.Sat(spec.AndOf(context, e))
		if err != nil {
			t.Fatalf("Z3 on %s: %v", spec.Format(spec.AndOf(context, e)), err)
		}
		if got := v == sat; got != (want == solver.Sat) {
			t.Errorf("%s under %s: decided %v, Z3 says %v", spec.Format(e), spec.Format(context), got, want)
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
	if err := ctx.SetFacts(spec.Compare(spec.Ge, x, spec.IntConst(0))); err != nil {
		t.Fatal(err)
	}
	d := newDecider(ctx, f.ids)
	for _, tt := range []struct {
		e    spec.Expr
		want verdict
	}{
		{spec.Compare(spec.Eq, x, spec.IntConst(-1)), undecided},
		{spec.AndOf(spec.Compare(spec.Gt, x, spec.IntConst(2)), spec.Compare(spec.Lt, x, spec.IntConst(3))), unsat},
	} {
		if got := d.decide(spec.True(), tt.e); got != tt.want {
			t.Errorf("%s: %v, want %v", spec.Format(tt.e), got, tt.want)
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
	c := func(op spec.Op, a spec.Expr, v int64) spec.Expr { return spec.Compare(op, a, spec.IntConst(v)) }
	for i, tt := range []struct {
		context, e spec.Expr
		want       verdict
	}{
		{spec.True(), spec.AndOf(c(spec.Gt, x, 2), c(spec.Lt, x, 3)), unsat},                          // tightened: x >= 3 && x <= 2
		{spec.True(), c(spec.Eq, spec.Arith(spec.Mul, spec.IntConst(2), x), 1), unsat},                // 2x == 1 has no integer solution
		{c(spec.Eq, x, 0), spec.OrOf(c(spec.Ne, x, 0), c(spec.Gt, y, 1)), sat},                        // the second branch
		{c(spec.Eq, x, 0), spec.AndOf(c(spec.Ne, x, 0), c(spec.Gt, y, 1)), unsat},                     // both sides of != are empty
		{c(spec.Ge, x, 0), spec.NotOf(spec.OrOf(c(spec.Ge, x, 0), c(spec.Gt, y, 1))), unsat},          // De Morgan
		{spec.True(), spec.Compare(spec.Gt, spec.Arith(spec.Mul, x, y), spec.IntConst(2)), undecided}, // non-linear: no model checked
	} {
		if got := d.decide(tt.context, tt.e); got != tt.want {
			t.Errorf("%d: %s under %s: %v, want %v", i, spec.Format(tt.e), spec.Format(tt.context), got, tt.want)
		}
	}
}

func (v verdict) String() string {
	return [...]string{"undecided", "sat", "unsat"}[v]
}
