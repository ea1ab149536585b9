package abstraction_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// The tests of this file check the abstract domains against Z3: every
// value is converted back to a predicate (from Constraints) over
// variables named by its space, and each operation is compared with the
// exact operation on the denoted sets, stated as a formula. Soundness
// (the result contains the exact one) is required of every domain;
// exactness where the domain promises it (polyhedra over the rationals,
// and those operations that do not depend on the rational hull).

// oracle converts values of one space to predicates and checks them.
type oracle struct {
	t   testing.TB
	ctx *solver.Context
	sp  *abstraction.Space
	typ expr.Type // the type of every dimension
}

func (o *oracle) isInt() bool { return o.typ.Kind == expr.Int }

// variable returns dimension d as a spec variable, with a suffix to make
// a copy (the state before an assignment).
func (o *oracle) variable(d int, suffix string) *expr.Ident {
	return &expr.Ident{Name: o.sp.Names[d] + suffix, Kind: expr.VarIdent, T: o.typ}
}

func (o *oracle) constant(r *big.Rat) expr.Expr {
	if o.isInt() {
		if !r.IsInt() {
			o.t.Fatalf("non-integer constant %s in an integer space", r.RatString())
		}
		return expr.BigIntConst(r.Num())
	}
	return expr.RatConst(r)
}

// linear converts e, reading dimension d as the variable with the suffix.
func (o *oracle) linear(e abstraction.LinExpr, suffix string) expr.Expr {
	var sum expr.Expr
	for _, d := range e.Dims() {
		var term expr.Expr = o.variable(d, suffix)
		if c := e.Coeff(d); c.Cmp(big.NewRat(1, 1)) != 0 {
			term = expr.Arith(expr.Mul, o.constant(c), term)
		}
		if sum == nil {
			sum = term
		} else {
			sum = expr.Arith(expr.Add, sum, term)
		}
	}
	k := e.ConstTerm()
	switch {
	case sum == nil:
		return o.constant(k)
	case k.Sign() != 0:
		return expr.Arith(expr.Add, sum, o.constant(k))
	}
	return sum
}

// constraint converts c; over an integer space it is first scaled to
// integer coefficients (which keeps its integer points).
func (o *oracle) constraint(c abstraction.Constraint, suffix string) expr.Expr {
	e := c.Expr
	if o.isInt() {
		l := new(big.Int).Set(e.ConstTerm().Denom())
		for _, d := range e.Dims() {
			den := e.Coeff(d).Denom()
			g := new(big.Int).GCD(nil, nil, l, den)
			l.Mul(l, den).Quo(l, g)
		}
		e = e.Scale(new(big.Rat).SetInt(l))
	}
	op := map[abstraction.Op]expr.Op{abstraction.Le: expr.Le, abstraction.Eq: expr.Eq, abstraction.Lt: expr.Lt}[c.Op]
	return expr.Compare(op, o.linear(e, suffix), o.constant(new(big.Rat)))
}

// constraints converts a conjunction (strict inequalities stay strict).
func (o *oracle) constraints(cs []abstraction.Constraint, suffix string) expr.Expr {
	var es []expr.Expr
	for _, c := range cs {
		es = append(es, o.constraint(c, suffix))
	}
	return expr.AndOf(es...)
}

// closure converts a conjunction with strict inequalities closed.
func (o *oracle) closure(cs []abstraction.Constraint) expr.Expr {
	cl := make([]abstraction.Constraint, len(cs))
	for i, c := range cs {
		cl[i] = c
		if c.Op == abstraction.Lt {
			cl[i].Op = abstraction.Le
		}
	}
	return o.constraints(cl, "")
}

// pred converts a value over the plain variables.
func (o *oracle) pred(v abstraction.Value) expr.Expr { return o.predAt(v, "") }

func (o *oracle) predAt(v abstraction.Value, suffix string) expr.Expr {
	if v.IsEmpty() {
		return expr.False()
	}
	return o.constraints(v.Constraints(), suffix)
}

func (o *oracle) entails(a, b expr.Expr) bool {
	o.t.Helper()
	ok, err := o.ctx.Entails(a, b)
	if err != nil && strings.Contains(err.Error(), "unknown") {
		// A hard integer query ran out of time: no verdict, so no failure.
		o.t.Logf("Entails(%s, %s) undecided: %v", expr.Format(a), expr.Format(b), err)
		return true
	}
	if err != nil {
		o.t.Fatalf("Entails(%s, %s): %v", expr.Format(a), expr.Format(b), err)
	}
	return ok
}

func (o *oracle) sat(a expr.Expr) bool {
	o.t.Helper()
	r, err := o.ctx.Sat(a)
	if err != nil {
		o.t.Fatalf("Sat(%s): %v", expr.Format(a), err)
	}
	return r != solver.Unsat
}

func (o *oracle) exists(ids []*expr.Ident, e expr.Expr) expr.Expr {
	o.t.Helper()
	r, err := o.ctx.EliminateExists(ids, e)
	if err != nil {
		o.t.Fatalf("EliminateExists(%s): %v", expr.Format(e), err)
	}
	return r
}

// opCase is one set of operands for checkOps.
type opCase struct {
	dom        abstraction.Domain
	a, b       abstraction.Value
	csA        []abstraction.Constraint // a = MeetConstraints(csA) when not nil
	thresholds []abstraction.Constraint
	forget     int
	assign     map[int]abstraction.LinExpr
}

func (c *opCase) String() string {
	var as []string
	for d := 0; d < c.a.Space().Dim(); d++ {
		if e, ok := c.assign[d]; ok {
			as = append(as, fmt.Sprintf("%s := %s", c.a.Space().Names[d], abstraction.Constraint{Expr: e, Op: abstraction.Eq}.String(c.a.Space())))
		}
	}
	return fmt.Sprintf("%s: a = %v, b = %v, forget %s, assign %s", c.dom.Name(), c.a, c.b, c.a.Space().Names[c.forget], strings.Join(as, "; "))
}

// checkOps checks every operation on one case against Z3. Exactness is
// checked for polyhedra: over the rationals for every operation the
// domain computes exactly, over the integers for those whose integer
// points do not depend on the rational hull (meet, preimage).
func checkOps(t testing.TB, o *oracle, c *opCase) {
	t.Helper()
	isPoly := c.dom.Name() == abstraction.Polyhedra().Name()
	exact := isPoly && !o.isInt()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%v\n"+format, append([]any{c}, args...)...)
	}
	A, B := o.pred(c.a), o.pred(c.b)

	// The values themselves.
	if c.csA != nil {
		if !o.entails(o.constraints(c.csA, ""), A) {
			fail("MeetConstraints(%v) = %v misses points", c.csA, c.a)
		}
		if exact && !o.entails(A, o.closure(c.csA)) {
			fail("MeetConstraints(%v) = %v is not the closure", c.csA, c.a)
		}
	}
	if exact && c.a.IsEmpty() == o.sat(A) {
		fail("IsEmpty(%v) = %v", c.a, c.a.IsEmpty())
	}
	if c.a.IsUniverse() && !o.entails(expr.True(), A) {
		fail("IsUniverse(%v) but its constraints are not valid", c.a)
	}

	// Join and widening contain both arguments.
	j := c.a.Join(c.b)
	J := o.pred(j)
	if !o.entails(A, J) || !o.entails(B, J) {
		fail("join %v does not contain its arguments", j)
	}
	w := c.a.Widen(j, c.thresholds)
	if !o.entails(J, o.pred(w)) {
		fail("widening %v does not contain the join %v", w, j)
	}

	// Meet: a ∧ b ⊆ meet, and equal for polyhedra.
	m := c.a.Meet(c.b)
	M, AB := o.pred(m), expr.AndOf(A, B)
	if !o.entails(AB, M) {
		fail("meet %v misses points of a ∧ b", m)
	}
	if isPoly && !o.entails(M, AB) {
		fail("meet %v has points outside a ∧ b", m)
	}

	// Includes and Equal agree with entailment.
	if incl, ent := c.a.Includes(c.b), o.entails(B, A); incl && !ent {
		fail("Includes(a, b) but b does not entail a")
	} else if exact && incl != ent {
		fail("Includes(a, b) = %v, entailment %v", incl, ent)
	}
	if c.a.Includes(m) != true || !j.Includes(c.a) {
		fail("Includes not consistent with meet %v and join %v", m, j)
	}
	if c.a.Equal(c.b) {
		if ok, err := o.ctx.Equivalent(A, B); err != nil || !ok {
			fail("Equal(a, b) but not equivalent (%v)", err)
		}
	}

	// Forget contains ∃x.a, and is it on the rationals.
	x := o.variable(c.forget, "")
	f := c.a.Forget(c.forget)
	F := o.pred(f)
	if expr.Mentions(F, expr.VarIdent, x.Name) && !f.IsEmpty() {
		fail("forget %v still constrains %s", f, x.Name)
	}
	// F does not mention x, so a ⇒ F is (∃x.a) ⇒ F.
	if !o.entails(A, F) {
		fail("forget %v misses points of ∃%s.a", f, x.Name)
	}
	if exact {
		ex := o.exists([]*expr.Ident{x}, A)
		if !o.entails(ex, F) || !o.entails(F, ex) {
			fail("forget %v is not ∃%s.a = %s", f, x.Name, expr.Format(ex))
		}
	}

	// Image contains every successor: the old state is the primed copy,
	// universally quantified by Entails, hence ∃-eliminated on the left.
	img := c.a.Image(c.assign)
	I := o.pred(img)
	step := []expr.Expr{o.predAt(c.a, "'")}
	var olds []*expr.Ident
	for d := 0; d < o.sp.Dim(); d++ {
		olds = append(olds, o.variable(d, "'"))
		var val expr.Expr = o.variable(d, "'")
		if e, ok := c.assign[d]; ok {
			val = o.linear(e, "'")
		}
		step = append(step, expr.Compare(expr.Eq, o.variable(d, ""), val))
	}
	post := expr.AndOf(step...)
	if !o.entails(post, I) {
		fail("image %v misses successors", img)
	}
	if exact && !o.entails(I, o.exists(olds, post)) {
		fail("image %v has points that are no successors", img)
	}

	// Preimage contains the exact substitution, and is it for polyhedra.
	pre := c.a.Preimage(c.assign)
	P := o.pred(pre)
	sub := map[string]expr.Expr{}
	for d, e := range c.assign {
		sub[o.sp.Names[d]] = o.linear(e, "")
	}
	S := expr.Substitute(A, sub, nil)
	if !o.entails(S, P) {
		fail("preimage %v misses predecessors %s", pre, expr.Format(S))
	}
	if isPoly && !o.entails(P, S) {
		fail("preimage %v is larger than the substitution %s", pre, expr.Format(S))
	}
}

var dimNames = []string{"x", "y", "z", "w"}

func newOracle(t testing.TB, ctx *solver.Context, n int, isInt bool) *oracle {
	ints := make([]bool, n)
	typ := expr.RealType
	if isInt {
		typ = expr.IntType
		for i := range ints {
			ints[i] = true
		}
	}
	return &oracle{t: t, ctx: ctx, sp: abstraction.NewSpace(dimNames[:n], ints), typ: typ}
}

func ratI(n int64) *big.Rat { return big.NewRat(n, 1) }

// randLin returns a random non-constant affine expression with
// coefficients in [-c,c] and constant in [-k,k].
func randLin(rng *rand.Rand, n int, c, k int64) abstraction.LinExpr {
	var e abstraction.LinExpr
	for e.IsConst() {
		for d := 0; d < n; d++ {
			if rng.IntN(3) > 0 {
				e = e.Add(abstraction.Var(d).Scale(ratI(rng.Int64N(2*c+1) - c)))
			}
		}
	}
	return e.Add(abstraction.Const(ratI(rng.Int64N(2*k+1) - k)))
}

func randConstraint(rng *rand.Rand, n int) abstraction.Constraint {
	op := abstraction.Le
	switch rng.IntN(10) {
	case 0:
		op = abstraction.Eq
	case 1:
		op = abstraction.Lt
	}
	return abstraction.Constraint{Expr: randLin(rng, n, 3, 6), Op: op}
}

// randValue returns a random value: the meet of random constraints (then
// also returned), the hull of random points with a dimension possibly
// forgotten, or a box with extra constraints.
func randValue(rng *rand.Rand, dom abstraction.Domain, sp *abstraction.Space) (abstraction.Value, []abstraction.Constraint) {
	n := sp.Dim()
	u := dom.Universe(sp)
	switch rng.IntN(3) {
	case 0:
		cs := make([]abstraction.Constraint, 1+rng.IntN(2*n))
		for i := range cs {
			cs[i] = randConstraint(rng, n)
		}
		return u.MeetConstraints(cs), cs
	case 1:
		v := dom.Empty(sp)
		for k := 1 + rng.IntN(n+1); k > 0; k-- {
			var cs []abstraction.Constraint
			for d := 0; d < n; d++ {
				cs = append(cs, abstraction.Constraint{Expr: abstraction.Var(d).Sub(abstraction.Const(ratI(rng.Int64N(9) - 4))), Op: abstraction.Eq})
			}
			v = v.Join(u.MeetConstraints(cs))
		}
		if rng.IntN(3) == 0 {
			v = v.Forget(rng.IntN(n))
		}
		return v, nil
	default:
		var cs []abstraction.Constraint
		for d := 0; d < n; d++ {
			lo := rng.Int64N(7) - 4
			cs = append(cs,
				abstraction.Constraint{Expr: abstraction.Const(ratI(lo)).Sub(abstraction.Var(d)), Op: abstraction.Le},
				abstraction.Constraint{Expr: abstraction.Var(d).Sub(abstraction.Const(ratI(lo + rng.Int64N(5)))), Op: abstraction.Le})
		}
		for k := rng.IntN(n); k > 0; k-- {
			cs = append(cs, randConstraint(rng, n))
		}
		return u.MeetConstraints(cs), cs
	}
}

// randAssign assigns one or two dimensions (integer coefficients, so
// that integer points map to integer points).
func randAssign(rng *rand.Rand, n int) map[int]abstraction.LinExpr {
	m := map[int]abstraction.LinExpr{}
	for k := 1 + rng.IntN(2); k > 0; k-- {
		m[rng.IntN(n)] = randLin(rng, n, 2, 3)
	}
	return m
}

func newSolver(t testing.TB) *solver.Context {
	t.Helper()
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ctx.Close)
	ctx.SetTimeout(5 * time.Second)
	return ctx
}

// TestDomainsAgainstZ3 checks random operations of both domains, in
// rational and integer spaces of 2 to 4 dimensions.
func TestDomainsAgainstZ3(t *testing.T) {
	ctx := newSolver(t)
	const cases = 60 // per domain, kind of space and dimension
	for _, dom := range []abstraction.Domain{abstraction.Polyhedra(), abstraction.Intervals()} {
		for _, isInt := range []bool{false, true} {
			for n := 2; n <= 4; n++ {
				name := fmt.Sprintf("%s/%s/%d", dom.Name(), map[bool]string{false: "real", true: "int"}[isInt], n)
				t.Run(name, func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(n), map[bool]uint64{false: 1, true: 2}[isInt]))
					o := newOracle(t, ctx, n, isInt)
					for i := 0; i < cases && !t.Failed(); i++ {
						a, csA := randValue(rng, dom, o.sp)
						b, _ := randValue(rng, dom, o.sp)
						var th []abstraction.Constraint
						for k := rng.IntN(3); k > 0; k-- {
							th = append(th, randConstraint(rng, n))
						}
						checkOps(t, o, &opCase{dom: dom, a: a, b: b, csA: csA, thresholds: th, forget: rng.IntN(n), assign: randAssign(rng, n)})
					}
				})
			}
		}
	}
}

// decodeCase turns fuzz input into a case: a header byte (dimensions,
// integer or rational, domain), then the constraints of a and b, the
// dimension to forget and an assignment; missing bytes read as zero.
func decodeCase(data []byte) (n int, isInt bool, dom abstraction.Domain, mk func(sp *abstraction.Space) *opCase) {
	next := func() int64 {
		if len(data) == 0 {
			return 0
		}
		b := int64(data[0])
		data = data[1:]
		return b
	}
	h := next()
	n = 2 + int(h%3)
	isInt = h&4 != 0
	dom = abstraction.Polyhedra()
	if h&8 != 0 {
		dom = abstraction.Intervals()
	}
	lin := func(c, k int64) abstraction.LinExpr {
		var e abstraction.LinExpr
		for d := 0; d < n; d++ {
			e = e.Add(abstraction.Var(d).Scale(ratI(next()%(2*c+1) - c)))
		}
		return e.Add(abstraction.Const(ratI(next()%(2*k+1) - k)))
	}
	mk = func(sp *abstraction.Space) *opCase {
		cons := func() []abstraction.Constraint {
			var cs []abstraction.Constraint
			for k := next() % 6; k > 0; k-- {
				cs = append(cs, abstraction.Constraint{Expr: lin(3, 6), Op: abstraction.Op(next() % 3)})
			}
			return cs
		}
		c := &opCase{dom: dom, assign: map[int]abstraction.LinExpr{}}
		c.csA = cons()
		c.a = dom.Universe(sp).MeetConstraints(c.csA)
		c.b = dom.Universe(sp).MeetConstraints(cons())
		c.thresholds = cons()
		c.forget = int(next() % int64(n))
		c.assign[int(next()%int64(n))] = lin(2, 3)
		return c
	}
	return n, isInt, dom, mk
}

func FuzzDomainsAgainstZ3(f *testing.F) {
	f.Add([]byte{0, 2, 1, 0, 6, 0, 0, 1, 6, 0, 1, 3, 4, 6, 0, 1, 2, 3, 4, 5})
	f.Add([]byte{4, 3, 1, 2, 3, 4, 0, 6, 5, 4, 9, 1, 3, 3, 2, 1, 0, 6, 6, 6, 6, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{9, 4, 5, 1, 6, 2, 0, 1, 5, 2, 6, 0, 3, 3, 3, 1, 1, 0, 2, 2, 4, 8, 1, 2})
	f.Add([]byte{14, 5, 0, 0, 0, 7, 1, 4, 4, 4, 12, 0, 2, 1, 1, 1, 1, 2, 3, 0, 0, 6, 1, 9, 9, 9, 9, 0})
	f.Add([]byte{6, 1, 3, 3, 3, 3, 3, 1, 1, 2, 6, 6, 6, 6, 6, 0, 0, 1, 2, 3, 4, 5, 6})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 128 {
			t.Skip("input too large")
		}
		n, isInt, _, mk := decodeCase(data)
		o := newOracle(t, newSolver(t), n, isInt)
		checkOps(t, o, mk(o.sp))
	})
}
