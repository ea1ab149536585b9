package coreach

import (
	"math/big"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// frame maps the numeric data of a product to the dimensions of an
// abstract space: one dimension per numeric variable, then one per
// distinct (name, type) of numeric parameters. Boolean and enumerated
// data are not represented: constraints on them are dropped, which
// over-approximates (soundly).
type frame struct {
	space  *abstraction.Space
	vars   map[string]int // variable name -> dim
	params map[paramKey]int
	types  []expr.Type          // per dim
	isVar  []bool               // per dim
	paramD []int                // the parameter dims
	exprs  map[string]expr.Expr // sharedConstraint's conversions (nil: none)
	key    []byte               // sharedConstraint's buffer
}

type paramKey struct {
	name string
	t    expr.Type
}

func newFrame(p *product.Product) *frame {
	f := &frame{vars: map[string]int{}, params: map[paramKey]int{}}
	var names []string
	var ints []bool
	add := func(name string, t expr.Type, isVar bool) int {
		d := len(names)
		names = append(names, name)
		ints = append(ints, t.Kind == expr.Int)
		f.types = append(f.types, t)
		f.isVar = append(f.isVar, isVar)
		return d
	}
	for _, v := range p.Variables {
		if v.Type.IsNumeric() {
			f.vars[v.Name] = add(v.Name, v.Type, true)
		}
	}
	for _, a := range p.Actions {
		for _, pa := range a.Params {
			k := paramKey{pa.Name, pa.Type}
			if _, ok := f.params[k]; ok || !pa.Type.IsNumeric() {
				continue
			}
			d := add("param "+pa.Name+" "+pa.Type.String(), pa.Type, false)
			f.params[k] = d
			f.paramD = append(f.paramD, d)
		}
	}
	f.space = abstraction.NewSpace(names, ints)
	return f
}

func (f *frame) dim(id *expr.Ident) (int, bool) {
	if id.Kind == expr.VarIdent {
		d, ok := f.vars[id.Name]
		return d, ok
	}
	d, ok := f.params[paramKey{id.Name, id.T}]
	return d, ok
}

// linear converts a numeric expression to a linear expression, or
// reports false when it is not affine in the represented dimensions.
func (f *frame) linear(e expr.Expr) (abstraction.LinExpr, bool) {
	l, ok := expr.LinearOf(e)
	if !ok {
		return abstraction.LinExpr{}, false
	}
	r := abstraction.Const(l.Const)
	for _, t := range l.Terms {
		d, ok := f.dim(t.Ident)
		if !ok {
			return abstraction.LinExpr{}, false
		}
		r = r.Add(abstraction.Var(d).Scale(t.Coeff))
	}
	return r, true
}

// atom returns the constraints equivalent to the comparison x op y, or
// ok=false when it cannot be represented exactly (then the caller
// over-approximates it by true); != is not convex: false.
func (f *frame) atom(op expr.Op, x, y expr.Expr) ([]abstraction.Constraint, bool) {
	if op == expr.Ne {
		return nil, false
	}
	return Comparison(op, x, y, f.dim)
}

// Comparison returns the comparison x op y of numbers as linear
// constraints on the dimensions that dim gives the identifiers: one
// constraint for ==, <=, <, >= and >, and for != its two alternatives
// x < y and x > y (one of them holds, not both). It reports false when x
// and y are not numbers, x - y is not affine (expr.LinearOf), an
// identifier has no dimension, or op is not a comparison. When it
// succeeds the constraints are the comparison exactly: coreach and the
// selection's decider convert comparisons with it.
func Comparison(op expr.Op, x, y expr.Expr, dim func(*expr.Ident) (int, bool)) ([]abstraction.Constraint, bool) {
	if !x.Type().IsNumeric() {
		return nil, false
	}
	l, ok := expr.LinearOf(expr.Arith(expr.Sub, x, y)) // x - y op 0
	if !ok {
		return nil, false
	}
	d := abstraction.Const(l.Const)
	for _, t := range l.Terms {
		k, ok := dim(t.Ident)
		if !ok {
			return nil, false
		}
		d = d.Add(abstraction.Var(k).Scale(t.Coeff))
	}
	minus := d.Scale(big.NewRat(-1, 1))
	switch op {
	case expr.Eq:
		return []abstraction.Constraint{{Expr: d, Op: abstraction.Eq}}, true
	case expr.Ne:
		return []abstraction.Constraint{{Expr: d, Op: abstraction.Lt}, {Expr: minus, Op: abstraction.Lt}}, true
	case expr.Le:
		return []abstraction.Constraint{{Expr: d, Op: abstraction.Le}}, true
	case expr.Lt:
		return []abstraction.Constraint{{Expr: d, Op: abstraction.Lt}}, true
	case expr.Ge:
		return []abstraction.Constraint{{Expr: minus, Op: abstraction.Le}}, true
	case expr.Gt:
		return []abstraction.Constraint{{Expr: minus, Op: abstraction.Lt}}, true
	}
	return nil, false
}

// maxCondSplit bounds the conditional expressions split in one
// predicate (each doubles its comparisons); beyond, the predicate is
// over-approximated by true.
const maxCondSplit = 8

// meet returns an over-approximation of X ∧ e for a predicate e.
// Conditional expressions (ite, min, max, abs, computed array indexes)
// are split into their cases first; ite(c, a, b) op y is exactly
// (c ∧ a op y) ∨ (¬c ∧ b op y), whose meet is the join of the cases.
func (f *frame) meet(x abstraction.Value, e expr.Expr) abstraction.Value {
	if x.IsEmpty() {
		return x
	}
	if expr.HasCond(e) {
		if countConds(e) > maxCondSplit {
			return x
		}
		e = expr.LiftConds(e)
	}
	switch e := e.(type) {
	case *expr.BoolLit:
		if e.Val {
			return x
		}
		return x.Meet(emptyOf(x))
	case *expr.Unary:
		if e.Op == expr.Not {
			n, ok := negate(e.X)
			if ok {
				return f.meet(x, n)
			}
		}
		return x
	case *expr.Binary:
		switch e.Op {
		case expr.And:
			return f.meet(f.meet(x, e.X), e.Y)
		case expr.Or:
			return f.meet(x, e.X).Join(f.meet(x, e.Y))
		case expr.Ne:
			// x != y is (x < y) ∨ (x > y); for numbers that join is
			// usually everything, but on an equality (x == 3 and x != 3)
			// it gives emptiness, so compute it.
			if e.X.Type().IsNumeric() {
				lt, ok1 := f.atom(expr.Lt, e.X, e.Y)
				gt, ok2 := f.atom(expr.Gt, e.X, e.Y)
				if ok1 && ok2 {
					return x.MeetConstraints(lt).Join(x.MeetConstraints(gt))
				}
			}
			return x
		}
		if e.Op.IsComparison() {
			if cs, ok := f.atom(e.Op, e.X, e.Y); ok {
				return x.MeetConstraints(cs)
			}
		}
	}
	return x
}

func emptyOf(x abstraction.Value) abstraction.Value {
	// A contradiction 1 <= 0.
	return x.MeetConstraints([]abstraction.Constraint{{Expr: abstraction.Const(big.NewRat(1, 1)), Op: abstraction.Le}})
}

// negate pushes a negation one level down (De Morgan, comparisons).
func negate(e expr.Expr) (expr.Expr, bool) {
	switch e := e.(type) {
	case *expr.BoolLit:
		return expr.BoolConst(!e.Val), true
	case *expr.Unary:
		if e.Op == expr.Not {
			return e.X, true
		}
	case *expr.Binary:
		switch e.Op {
		case expr.And:
			return expr.OrOf(expr.NotOf(e.X), expr.NotOf(e.Y)), true
		case expr.Or:
			return expr.AndOf(expr.NotOf(e.X), expr.NotOf(e.Y)), true
		}
		if e.Op.IsComparison() {
			return expr.Compare(e.Op.Negate(), e.X, e.Y), true
		}
	}
	return nil, false
}

// assignment splits a transition's assignments into affine ones (by
// dimension) and the dimensions assigned something else.
func (f *frame) assignment(t *spec.Transition) (affine map[int]abstraction.LinExpr, havoc []int) {
	affine = map[int]abstraction.LinExpr{}
	for _, a := range t.Assign {
		d, ok := f.vars[a.Var]
		if !ok {
			continue // a bool or enum variable: not represented
		}
		if l, ok := f.linear(a.Value); ok {
			affine[d] = l
		} else {
			havoc = append(havoc, d)
		}
	}
	return affine, havoc
}

// expr converts an abstract value over the variable dimensions back to a
// predicate. Constraints mixing int and real dimensions cannot be
// written in the expression language and are dropped (over-approximation).
func (f *frame) expr(x abstraction.Value) expr.Expr {
	if x.IsEmpty() {
		return expr.False()
	}
	var cs []expr.Expr
	for _, c := range x.Constraints() {
		if e, ok := f.sharedConstraint(c); ok {
			cs = append(cs, e)
		}
	}
	return expr.AndOf(cs...)
}

// sharedConstraint is constraint, converting each distinct constraint
// once: the predicates of the locations repeat their bounds (a >= 0,
// a <= 100 at every stage of a ring), which then share one node, the
// same expression (nodes are immutable). Fewer nodes hold less memory,
// and the selection's caches by node (its conversions of comparisons)
// find them again.
func (f *frame) sharedConstraint(c abstraction.Constraint) (expr.Expr, bool) {
	if f.exprs == nil {
		f.exprs = map[string]expr.Expr{}
	}
	f.key = c.AppendKey(f.key[:0])
	if e, ok := f.exprs[string(f.key)]; ok {
		return e, e != nil
	}
	e, ok := f.constraint(c)
	if !ok {
		e = nil
	}
	f.exprs[string(f.key)] = e
	return e, ok
}

func (f *frame) constraint(c abstraction.Constraint) (expr.Expr, bool) {
	dims := c.Expr.Dims()
	if len(dims) == 0 {
		return nil, false
	}
	t := f.types[dims[0]]
	for _, d := range dims {
		if f.types[d] != t || !f.isVar[d] {
			return nil, false
		}
	}
	// Scale to integer coefficients when the terms are ints.
	e := c.Expr
	if t.Kind == expr.Int {
		l := new(big.Int).SetInt64(1)
		for _, d := range dims {
			l = lcm(l, e.Coeff(d).Denom())
		}
		l = lcm(l, e.ConstTerm().Denom())
		e = e.Scale(new(big.Rat).SetInt(l))
	}
	// Σ a_i x_i + k op 0  ⟶  Σ_{a>0} a x  op  Σ_{a<0} |a| x - k
	lhs, rhs := expr.Linear{}, expr.Linear{Const: new(big.Rat).Neg(e.ConstTerm())}
	for _, d := range dims {
		a := e.Coeff(d)
		id := &expr.Ident{Name: f.space.Names[d], Kind: expr.VarIdent, T: t}
		if a.Sign() > 0 {
			lhs.Terms = append(lhs.Terms, expr.Term{Ident: id, Coeff: a})
		} else {
			rhs.Terms = append(rhs.Terms, expr.Term{Ident: id, Coeff: new(big.Rat).Neg(a)})
		}
	}
	op := expr.Le
	switch c.Op {
	case abstraction.Eq:
		op = expr.Eq
	case abstraction.Lt:
		op = expr.Lt
	}
	if len(lhs.Terms) == 0 {
		// 0 op N + k  ⟺  N op' -k.
		lhs, rhs = rhs, expr.Linear{Const: new(big.Rat).Neg(rhs.Const)}
		lhs.Const = nil
		op = op.Swap()
	}
	l, okl := lhs.Expr(t)
	r, okr := rhs.Expr(t)
	if !okl || !okr {
		return nil, false
	}
	return expr.Compare(op, l, r), true
}

func lcm(a, b *big.Int) *big.Int {
	g := new(big.Int).GCD(nil, nil, a, b)
	r := new(big.Int).Mul(a, b)
	return r.Quo(r, g)
}

// countConds counts the conditional expressions in e.
func countConds(e expr.Expr) int {
	n := 0
	expr.Inspect(e, func(x expr.Expr) {
		if _, ok := x.(*expr.Cond); ok {
			n++
		}
	})
	return n
}

// guard is a predicate compiled once for the many meets of the fixpoint
// iterations: the steps are applied in order, each either a meet with
// linear constraints or, for what is not a plain comparison, the
// general meet of frame.meet on the conjunct lowered once (pred).
type guard struct {
	steps []guardStep
}

type guardStep struct {
	cs   []abstraction.Constraint // when not nil: MeetConstraints(cs)
	conj *abstraction.Conjunction // cs converted once, for the polyhedra
	p    *pred                    // otherwise, when not nil: e lowered once
	e    expr.Expr                // otherwise: meet(x, e)
}

// compile splits e into its conjuncts and converts the comparisons to
// constraints, as frame.meet would at every meet. With batch, the
// constraints of consecutive comparisons are met in one step, which for
// an exact domain (polyhedra) is the same set for one conversion.
func (f *frame) compile(e expr.Expr, batch bool) guard {
	if expr.HasCond(e) {
		return guard{steps: []guardStep{{e: e}}}
	}
	var g guard
	for _, c := range expr.Conjuncts(e) {
		if b, ok := c.(*expr.BoolLit); ok && b.Val {
			continue
		}
		b, ok := c.(*expr.Binary)
		if !ok || !b.Op.IsComparison() || b.Op == expr.Ne {
			g.steps = append(g.steps, guardStep{p: f.lower(c, batch), e: c})
			continue
		}
		cs, ok := f.atom(b.Op, b.X, b.Y)
		if !ok {
			continue // not representable: meet keeps x
		}
		if n := len(g.steps); batch && n > 0 && g.steps[n-1].cs != nil {
			g.steps[n-1].cs = append(g.steps[n-1].cs, cs...)
			continue
		}
		g.steps = append(g.steps, guardStep{cs: cs})
	}
	if batch {
		for i := range g.steps {
			if g.steps[i].cs != nil {
				g.steps[i].conj = abstraction.NewConjunction(f.space, g.steps[i].cs)
			}
		}
	}
	return g
}

// meetGuard returns an over-approximation of X ∧ g, as meet does.
func (f *frame) meetGuard(x abstraction.Value, g guard) abstraction.Value {
	for _, s := range g.steps {
		if x.IsEmpty() {
			return x
		}
		if s.conj != nil {
			x = abstraction.MeetConjunction(x, s.conj)
		} else if s.cs != nil {
			x = x.MeetConstraints(s.cs)
		} else if s.p != nil {
			x = evalPred(x, s.p)
		} else {
			x = f.meet(x, s.e)
		}
	}
	return x
}
