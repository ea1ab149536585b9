package selection

import (
	"math/big"
	"strconv"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// A decider answers the satisfiability, entailment and validity
// questions of the selection. It decides those of linear arithmetic
// over int and real data with exact rational polyhedra first, and asks
// the solver only when the polyhedra cannot settle them (issue 15).
//
// A formula is searched as a tree, in negation normal form: the
// comparisons met along a branch are added to one polyhedron (tightened
// on integer dimensions, see abstraction.Polyhedra), and each
// disjunction, a != b being a < b || a > b, splits the branch. The two
// answers it gives are exact:
//
//   - unsatisfiable when every branch ends in an empty polyhedron. A
//     branch's polyhedron contains every model of the branch: a
//     comparison it cannot represent (on booleans, enumerations,
//     strings, non-linear terms, calls) is left out, which only makes
//     the polyhedron larger, and the rational closed relaxation of a
//     set of integer points contains them;
//   - satisfiable when a vertex of a branch's polyhedron, integral on
//     the integer dimensions, satisfies the whole formula by exact
//     evaluation (expr.EvalBool, which fails on anything it has no
//     value for): a model, checked on the formula itself.
//
// Anything else (a branch with no such vertex, more than maxMeets
// meets) goes to the solver, with its memo. With facts set
// (solver.Context.SetFacts) only unsatisfiability is decided here: a
// model of the formula alone is not checked against the facts.
//
// The dimensions are the numeric variables and parameters of the
// product; comparisons are converted once per node and polarity, and
// the polyhedra of a context (the reachability predicate of a
// location, asked about with each of its guards) once per node. A
// branch is kept as independent blocks of polyhedra (blocks.go), so
// that many independent variables cost a sum, not a product.
type decider struct {
	ctx    *solver.Context
	space  *abstraction.Space
	top    *blocks // the universe (values are immutable)
	dims   map[identKey]int
	idents []*expr.Ident                // per dimension
	atoms  *fifo[atomKey, atom]         // the latest conversions
	shapes *fifo[string, atom]          // conversions by structure (shapeKey)
	ctxs   *fifo[expr.Expr, *conjuncts] // contexts' conjuncts with their keys
	// relevant holds verdicts by the structure of a question's relevant
	// part (relevantKey).
	relevant *fifo[string, verdict]
	// simplified holds the readable guards by the same key
	// (simplifyUnder).
	simplified *fifo[string, expr.Expr]
	key        []byte                    // shapeKey's buffer
	polys      *fifo[expr.Expr, *blocks] // the latest contexts' polyhedra
	// answers holds the latest verdicts by context and formula node:
	// the selection asks some questions twice (satisfiable,
	// relativeGroup), about one location at a time.
	answers *fifo[[2]expr.Expr, verdict]
}

// maxMeets bounds the polyhedral work on one question; beyond it the
// solver decides.
const maxMeets = 64

type identKey struct {
	kind expr.IdentKind
	name string
	t    expr.Type
}

type atomKey struct {
	e   expr.Expr
	neg bool
}

// An atom is a comparison as constraints: one, or two alternatives
// (for !=), or none when it cannot be represented.
type atom struct {
	cs  []abstraction.Constraint
	alt bool // cs are alternatives, not a conjunction
}

// newDecider returns a decider over the numeric identifiers ids (others
// are ignored).
func newDecider(ctx *solver.Context, ids []*expr.Ident) *decider {
	d := &decider{ctx: ctx, dims: map[identKey]int{}, atoms: newFIFO[atomKey, atom](maxAtoms),
		shapes: newFIFO[string, atom](maxShapes), ctxs: newFIFO[expr.Expr, *conjuncts](maxPolys),
		relevant: newFIFO[string, verdict](maxRelevant), simplified: newFIFO[string, expr.Expr](maxSimplified),
		polys: newFIFO[expr.Expr, *blocks](maxPolys), answers: newFIFO[[2]expr.Expr, verdict](maxAnswers)}
	var names []string
	var ints []bool
	for _, id := range ids {
		k := identKey{id.Kind, id.Name, id.T}
		if _, ok := d.dims[k]; ok || !id.T.IsNumeric() {
			continue
		}
		d.dims[k] = len(names)
		d.idents = append(d.idents, id)
		names = append(names, id.Name)
		ints = append(ints, id.T.Kind == expr.Int)
	}
	d.space = abstraction.NewSpace(names, ints)
	d.top = universeBlocks(d.space)
	return d
}

// dataOf returns the variables and parameters of p as identifiers.
func dataOf(p *product.Product) []*expr.Ident {
	var ids []*expr.Ident
	for _, v := range p.Variables {
		ids = append(ids, &expr.Ident{Name: v.Name, Kind: expr.VarIdent, T: v.Type})
	}
	for _, a := range p.Actions {
		for _, pa := range a.Params {
			ids = append(ids, &expr.Ident{Name: pa.Name, Kind: expr.ParamIdent, T: pa.Type})
		}
	}
	return ids
}

type verdict int

const (
	undecided verdict = iota
	sat
	unsat
)

// possible reports whether context ∧ e may be satisfiable: false only
// when it is certainly unsatisfiable (an undecided solver query counts
// as possible).
func (d *decider) possible(context, e expr.Expr) (bool, error) {
	switch d.decide(context, e) {
	case sat:
		return true, nil
	case unsat:
		return false, nil
	}
	return d.ctx.Possible(expr.AndOf(context, e))
}

// entails reports whether context ∧ a implies b in every state.
func (d *decider) entails(context, a, b expr.Expr) (bool, error) {
	if expr.IsTrue(b) {
		return true, nil
	}
	switch d.settle(context, expr.AndOf(a, expr.NotOf(b))) {
	case sat:
		return false, nil
	case unsat:
		return true, nil
	}
	return d.ctx.Entails(expr.AndOf(context, a), b)
}

// valid reports whether e holds in every state.
func (d *decider) valid(e expr.Expr) (bool, error) {
	switch d.settle(expr.True(), expr.NotOf(e)) {
	case sat:
		return false, nil
	case unsat:
		return true, nil
	}
	return d.ctx.Valid(e)
}

// decide settles the satisfiability of context ∧ e with polyhedra, or
// says it cannot, remembering the verdict by the two nodes (for
// questions about long-lived nodes, asked again: a key keeps its
// nodes alive).
func (d *decider) decide(context, e expr.Expr) verdict {
	k := [2]expr.Expr{context, e}
	if v, ok := d.answers.get(k); ok {
		if v != undecided {
			d.ctx.NoteSettled()
		}
		return v
	}
	v := d.settle(context, e)
	d.answers.put(k, v)
	return v
}

// settle decides context ∧ e: from the words of the question when
// they suffice (given.go), from the memo of questions by their
// relevant part (relevant.go), else by the tree search.
func (d *decider) settle(context, e expr.Expr) verdict {
	e, g := d.given(context, e)
	if g != undecided {
		d.ctx.NoteSettled()
		return g
	}
	var ebuf, buf [256]byte // appendRelevantKey, here on the stack
	ek, memo := shapeKey(ebuf[:0], e)
	var keys []string
	if memo {
		keys, memo = d.relevantConjuncts(context, e)
	}
	key := d.joinKey(buf[:0], keys, ek)
	if memo {
		if v, ok := d.relevant.get(string(key)); ok {
			if v != undecided {
				d.ctx.NoteSettled()
			}
			return v
		}
	}
	v := d.search(context, e)
	if memo {
		d.relevant.put(string(key), v)
	}
	return v
}

// search runs the tree search of context ∧ e.
func (d *decider) search(context, e expr.Expr) verdict {
	s := &search{d: d, formula: expr.AndOf(context, e), models: d.ctx.Facts() == nil}
	start, ok := d.blocksOf(context)
	if !ok {
		start, e = d.top, s.formula
	}
	v := s.run(start, []literal{{e: e}})
	if v != undecided {
		d.ctx.NoteSettled()
	}
	return v
}

// blocksOf returns the polyhedra of a conjunction of comparisons that
// they represent exactly, or false for any other predicate.
func (d *decider) blocksOf(e expr.Expr) (*blocks, bool) {
	if p, ok := d.polys.get(e); ok {
		return p, p != nil
	}
	var cs []abstraction.Constraint
	for _, c := range expr.Conjuncts(e) {
		if expr.IsTrue(c) {
			continue
		}
		a, ok := d.atom(c, false)
		if !ok || a.alt {
			d.polys.put(e, nil)
			return nil, false
		}
		cs = append(cs, a.cs...)
	}
	p, ok := d.top.meet(cs)
	if !ok {
		p = nil
	}
	d.polys.put(e, p)
	return p, ok
}

// The caches keep the latest entries only: the questions about one
// location come together, polyhedra are large, and a key keeps its
// expression alive.
const (
	maxPolys    = 256
	maxAtoms    = 4096
	maxShapes   = 4096
	maxRelevant = 1 << 14
	maxAnswers  = 1 << 12
	// The readable guards repeat from one stage to the next: a short
	// memory suffices, and its keys are long.
	maxSimplified = 1 << 10
)

// A fifo is a map that forgets its oldest entries beyond a size.
type fifo[K comparable, V any] struct {
	m     map[K]V
	order []K
	max   int
}

func newFIFO[K comparable, V any](max int) *fifo[K, V] {
	return &fifo[K, V]{m: map[K]V{}, max: max}
}

func (f *fifo[K, V]) get(k K) (V, bool) {
	v, ok := f.m[k]
	return v, ok
}

func (f *fifo[K, V]) put(k K, v V) {
	if _, ok := f.m[k]; ok {
		f.m[k] = v
		return
	}
	if len(f.order) == f.max {
		delete(f.m, f.order[0])
		f.order = f.order[1:]
	}
	f.m[k] = v
	f.order = append(f.order, k)
}

// A literal is a formula under a polarity (neg: its negation), or a
// converted constraint (e nil).
type literal struct {
	e   expr.Expr
	neg bool
	c   abstraction.Constraint
}

// A search is the tree search of one formula.
type search struct {
	d       *decider
	formula expr.Expr
	meets   int
	models  bool // whether a verified model may answer sat
}

// run decides p ∧ the literals of pending.
func (s *search) run(p *blocks, pending []literal) verdict {
	var cs []abstraction.Constraint
	var split []literal
	for len(pending) > 0 {
		l := pending[0]
		pending = pending[1:]
		if l.e == nil {
			cs = append(cs, l.c)
			continue
		}
		switch e := l.e.(type) {
		case *expr.BoolLit:
			if e.Val == l.neg {
				return unsat
			}
			continue
		case *expr.Unary:
			if e.Op == expr.Not {
				pending = append(pending, literal{e: e.X, neg: !l.neg})
				continue
			}
		case *expr.Binary:
			if e.Op == expr.And && !l.neg || e.Op == expr.Or && l.neg {
				pending = append(pending, literal{e: e.X, neg: l.neg}, literal{e: e.Y, neg: l.neg})
				continue
			}
			if e.Op == expr.Or || e.Op == expr.And {
				split = append(split, l)
				continue
			}
		}
		a, ok := s.d.atom(l.e, l.neg)
		switch {
		case !ok:
			// Left out: the branch's polyhedron over-approximates.
		case a.alt:
			split = append(split, l)
		default:
			cs = append(cs, a.cs...)
		}
	}
	if len(cs) > 0 {
		if s.meets++; s.meets > maxMeets {
			return undecided
		}
		var ok bool
		if p, ok = p.meet(cs); !ok {
			return undecided
		}
	}
	if p.empty {
		return unsat
	}
	if len(split) == 0 {
		return s.leaf(p)
	}
	result := unsat
	for _, alt := range s.alternatives(split[0]) {
		switch s.run(p, append([]literal{alt}, split[1:]...)) {
		case sat:
			return sat
		case undecided:
			result = undecided
			if s.meets > maxMeets {
				return undecided
			}
		}
	}
	return result
}

// alternatives returns the disjuncts of a disjunctive literal: x || y,
// !(x && y), or a comparison that splits.
func (s *search) alternatives(l literal) []literal {
	if b, ok := l.e.(*expr.Binary); ok && (b.Op == expr.Or || b.Op == expr.And) {
		return []literal{{e: b.X, neg: l.neg}, {e: b.Y, neg: l.neg}}
	}
	a, _ := s.d.atom(l.e, l.neg)
	var r []literal
	for _, c := range a.cs {
		r = append(r, literal{c: c})
	}
	return r
}

// leaf answers sat when a point of p made of vertices of its blocks,
// integral on the integer dimensions, is a model of the formula.
func (s *search) leaf(p *blocks) verdict {
	if !s.models {
		return undecided
	}
	for pt := range p.points {
		if s.model(pt) {
			return sat
		}
	}
	return undecided
}

// model reports whether the point pt is a model of the formula.
func (s *search) model(pt []*big.Rat) bool {
	val := expr.Valuation{Vars: map[string]expr.Value{}, Params: map[string]expr.Value{}}
	for d, id := range s.d.idents {
		var v expr.Value
		if id.T.Kind == expr.Int {
			if !pt[d].IsInt() {
				return false
			}
			v = expr.IntValue(pt[d].Num())
		} else {
			v = expr.RatValue(pt[d])
		}
		if id.Kind == expr.VarIdent {
			val.Vars[id.Name] = v
		} else {
			val.Params[id.Name] = v
		}
	}
	ok, err := expr.EvalBool(s.formula, val)
	return err == nil && ok
}

// atom returns the comparison e (negated if neg) as constraints, or
// false when it is not a linear comparison of numbers over the
// decider's dimensions.
func (d *decider) atom(e expr.Expr, neg bool) (atom, bool) {
	k := atomKey{e, neg}
	if a, ok := d.atoms.get(k); ok {
		return a, a.cs != nil
	}
	var ok bool
	d.key, ok = shapeKey(d.key[:0], e)
	if ok {
		d.key = append(d.key, '|', "+-"[b2i(neg)])
		if a, hit := d.shapes.get(string(d.key)); hit {
			d.atoms.put(k, a)
			return a, a.cs != nil
		}
	}
	a := d.convert(e, neg)
	d.atoms.put(k, a)
	if ok {
		d.shapes.put(string(d.key), a)
	}
	return a, a.cs != nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// shapeKey appends to buf a key of e's structure that determines its
// conversion (operators, literals, identifiers with their kind and
// type): the comparisons of the locations' reach predicates, built
// anew for each location, are converted once per distinct shape. It
// fails on anything but numeric literals, identifiers, unary and
// binary operators.
func shapeKey(buf []byte, e expr.Expr) ([]byte, bool) {
	switch e := e.(type) {
	case *expr.BoolLit:
		return append(buf, "ft"[b2i(e.Val)]), true
	case *expr.IntLit:
		return e.Val.Append(append(buf, 'i'), 10), true
	case *expr.RealLit:
		buf = e.Val.Num().Append(append(buf, 'r'), 10)
		return e.Val.Denom().Append(append(buf, '/'), 10), true
	case *expr.Ident:
		if e.T.Enum != nil {
			return buf, false
		}
		buf = strconv.AppendInt(append(buf, 'v'), int64(e.Kind), 10)
		buf = strconv.AppendInt(append(buf, ':'), int64(e.T.Kind), 10)
		buf = strconv.AppendInt(append(buf, ':'), int64(len(e.Name)), 10)
		return append(append(buf, ':'), e.Name...), true
	case *expr.Unary:
		buf = strconv.AppendInt(append(buf, 'u'), int64(e.Op), 10)
		return shapeKey(append(buf, '('), e.X)
	case *expr.Binary:
		buf = strconv.AppendInt(append(buf, 'b'), int64(e.Op), 10)
		buf, ok := shapeKey(append(buf, '('), e.X)
		if !ok {
			return buf, false
		}
		buf, ok = shapeKey(append(buf, ','), e.Y)
		return append(buf, ')'), ok
	}
	return buf, false
}

// convert returns the comparison e (negated if neg) as constraints
// (coreach.Comparison), none when it is not a linear comparison of
// numbers over the decider's dimensions.
func (d *decider) convert(e expr.Expr, neg bool) atom {
	b, ok := e.(*expr.Binary)
	if !ok || !b.Op.IsComparison() {
		return atom{}
	}
	op := b.Op
	if neg {
		op = op.Negate()
	}
	cs, ok := coreach.Comparison(op, b.X, b.Y, func(id *expr.Ident) (int, bool) {
		dim, ok := d.dims[identKey{id.Kind, id.Name, id.T}]
		return dim, ok
	})
	if !ok {
		return atom{}
	}
	return atom{cs: cs, alt: op == expr.Ne}
}
