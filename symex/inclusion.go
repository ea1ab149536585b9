package symex

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// Restriction by inclusion compares each new node c with the nodes not
// cut before it at its location. Deciding c ⊆ b exactly needs ∃Fb.
// binding(b), b's symbols eliminated, and one satisfiability query. To
// keep the cost per node near constant as the tree grows, the index
// keeps, per candidate b, what the checks need, computed once:
//
//   - its location (the index is by location) and its literal values
//     (knownApart: two different literals for one variable);
//   - an interval over-approximation of every numeric variable;
//   - q = ∃Fb. binding(b), quantifier-free over the variables, computed
//     when first needed: by substitution where a symbol is the value of
//     a variable, dropping the parts of πb that mention no variable, and
//     by the solver's quantifier elimination for what is left.
//
// For c it takes one concrete state p (a model of c). A candidate b
// whose intervals or whose q exclude p cannot contain c: these checks
// only skip comparisons that cannot succeed. The survivors get the exact
// query Sat(binding(c) ∧ ¬q).

// candidate is a node that may cut later nodes at its location.
type candidate struct {
	n  *Node
	iv map[string]interval // over-approximations of the numeric variables
	sh shape               // the questions about its states are asked of its shape
	// q is ∃Fb. binding(b), the literal variables set apart, and qAll
	// the whole of it, q ∧ x = literal; nil until computed.
	q, qAll expr.Expr
	// noQ is set when q could not be computed (QE failed or undecided):
	// b then cuts nothing.
	noQ bool
}

// inclusionIndex holds the candidates by location, in creation order,
// and the answers to the questions already asked of a shape (shape.go):
// a state of the same shape as an earlier one gets the earlier answers.
type inclusionIndex struct {
	byLoc map[string][]*candidate
	// Pruned counts the comparisons skipped without a query: by
	// location and literals, by intervals, by q at c's point.
	Apart, ByInterval, ByPoint, Compared int
	// Memo counts the questions answered by an earlier one of the same
	// shape.
	Memo int

	elim   map[string]expr.Expr       // shape -> ∃F. binding (nil: not computable)
	incl   map[string]bool            // shape of c, q -> c ⊆ q
	points map[string]*expr.Valuation // shape -> a point of it (nil: none)
	conjs  conjMemo                   // the facts of path conditions' conjuncts
}

func newInclusionIndex() *inclusionIndex {
	return &inclusionIndex{byLoc: map[string][]*candidate{}, elim: map[string]expr.Expr{},
		incl: map[string]bool{}, points: map[string]*expr.Valuation{}, conjs: conjMemo{}}
}

// add makes n a candidate for the nodes after it. Nodes the solver could
// not decide are not candidates: their states may be none.
// sh is n's shape.
func (x *inclusionIndex) add(n *Node, sh shape) {
	if n.Unknown {
		return
	}
	x.byLoc[n.State.Loc] = append(x.byLoc[n.State.Loc], &candidate{n: n, iv: intervals(n.solverState()), sh: sh})
}

// cut makes c a leaf when it is included in a candidate at its location,
// the first in creation order. It returns c's shape.
func (e *Executor) cut(c *Node, x *inclusionIndex) (shape, error) {
	var p *expr.Valuation
	pointDone, first := false, true
	csh := shapeOf(c.solverState(), x.conjs)
	for _, b := range x.byLoc[c.State.Loc] {
		if knownApart(c.State, b.n.State) {
			x.Apart++
			continue
		}
		// The first candidate left is compared at once; a point of c
		// is worth its query from the second on.
		if !first && !pointDone {
			p, pointDone = e.pointOf(c, csh, x), true
		}
		first = false
		if p != nil && !b.ivAdmits(p) {
			x.ByInterval++
			continue
		}
		if err := e.eliminate(b, x); err != nil {
			return csh, err
		}
		if b.noQ {
			continue
		}
		if p != nil && !admits(b.qAll, p) {
			x.ByPoint++
			continue
		}
		x.Compared++
		ok, err := e.included(csh, b, x)
		if err != nil {
			return csh, err
		}
		if ok {
			c.CutBy = b.n
			return csh, nil
		}
	}
	return csh, nil
}

// eliminate computes b.q, once per candidate and once per shape.
func (e *Executor) eliminate(b *candidate, x *inclusionIndex) error {
	if b.q != nil || b.noQ {
		return nil
	}
	q, done := x.elim[b.sh.key]
	if done {
		x.Memo++
	} else {
		var err error
		q, err = eliminated(e.z, b.sh.st)
		e.stats.Queries++
		if err != nil {
			return err
		}
		x.elim[b.sh.key] = q
	}
	b.q, b.noQ = q, q == nil
	if q != nil {
		b.qAll = withLiterals(q, b.sh.lits)
	}
	return nil
}

// included decides whether c (of shape csh) is included in b's states.
// The variables with a literal value in both (equal, as c and b are not
// known apart) drop out of the question; a literal of one alone is put
// back as a conjunct on its side. The question is asked once.
func (e *Executor) included(csh shape, b *candidate, x *inclusionIndex) (bool, error) {
	cst, q := csh.st, b.q
	if !sameLiterals(csh.lits, b.sh.lits) {
		cst = &State{Vars: maps.Clone(csh.st.Vars), PC: csh.st.PC}
		for name, v := range csh.lits {
			if _, both := b.sh.lits[name]; !both {
				cst.Vars[name] = v
			}
		}
		q = withLiterals(q, onlyIn(b.sh.lits, csh.lits))
	}
	k := cst.Describe(nil) + "\x00" + expr.Format(q)
	if ok, done := x.incl[k]; done {
		x.Memo++
		return ok, nil
	}
	ok, err := includedIn(e.z, cst, q)
	e.stats.Queries++
	if err != nil {
		return false, err
	}
	x.incl[k] = ok
	return ok, nil
}

// onlyIn returns the entries of a whose keys b lacks.
func onlyIn(a, b map[string]expr.Expr) map[string]expr.Expr {
	out := map[string]expr.Expr{}
	for k, v := range a {
		if _, ok := b[k]; !ok {
			out[k] = v
		}
	}
	return out
}

// pointOf returns a point of c (point): of its shape, once per shape,
// with the literal values, when c has no solution of its own.
func (e *Executor) pointOf(c *Node, csh shape, x *inclusionIndex) *expr.Valuation {
	if c.Sol != nil || c.Unknown {
		return e.point(c, c.solverState())
	}
	p, done := x.points[csh.key]
	if done {
		x.Memo++
	} else {
		p = e.point(c, csh.st)
		x.points[csh.key] = p
	}
	if p == nil {
		return nil
	}
	out := &expr.Valuation{Vars: maps.Clone(p.Vars)}
	for name, v := range csh.lits {
		if val, err := expr.Eval(v, expr.Valuation{}); err == nil {
			out.Vars[name] = val
		}
	}
	return out
}

// point returns a concrete state of c: the values of the variables
// under its solution (Node.Sol, with function summaries) or a model of
// the binding of st (c's state, or its shape); nil when the solver gives
// none. A symbol the solution leaves free (c's path condition does not
// mention it) is 0.
func (e *Executor) point(c *Node, st *State) *expr.Valuation {
	if c.Unknown {
		return nil
	}
	sol := c.Sol
	if sol == nil {
		e.stats.Queries++
		keep, rest, _ := splitClosed(expr.Conjuncts(binding(st, nil)))
		m, ok, err := e.z.Model(expr.AndOf(append(keep, rest...)...))
		if err != nil || !ok {
			return nil
		}
		return &m
	}
	env := expr.Valuation{Vars: map[string]expr.Value{}}
	for k, v := range sol.Vars {
		env.Vars[k] = v
	}
	p := &expr.Valuation{Vars: map[string]expr.Value{}}
	for name, v := range c.State.Vars {
		expr.Idents(v, func(id *expr.Ident) {
			if _, ok := env.Vars[id.Name]; !ok && IsSymbol(id) {
				env.Vars[id.Name] = expr.Zero(id.T)
			}
		})
		if x, err := expr.Eval(v, env); err == nil {
			p.Vars[name] = x
		}
	}
	return p
}

// admits reports whether the quantifier-free q (over the variables)
// may hold at the point p: false only when it evaluates to false.
func admits(q expr.Expr, p *expr.Valuation) bool {
	ok, err := expr.EvalBool(q, *p)
	return err != nil || ok
}

// ivAdmits reports whether p's values lie in b's intervals.
func (b *candidate) ivAdmits(p *expr.Valuation) bool {
	for name, iv := range b.iv {
		v, ok := p.Vars[name]
		if ok && !iv.contains(v) {
			return false
		}
	}
	return true
}

// includedIn reports whether every concrete state of a satisfies q:
// binding(a) ∧ ¬q unsatisfiable. a is satisfiable (not Unknown): the
// groups of its path condition over symbols that no variable's value
// mentions are left out, as they do not constrain the variables.
// Undecided: not included.
func includedIn(z *solver.Context, a *State, q expr.Expr) (bool, error) {
	keep, rest, _ := splitClosed(expr.Conjuncts(binding(a, nil)))
	r, err := z.Sat(expr.AndOf(append(append(keep, rest...), expr.NotOf(q))...))
	if errors.Is(err, solver.ErrUnknown) {
		return false, nil
	}
	return r == solver.Unsat, err
}

// eliminated returns ∃F. binding(st), st's symbols F eliminated, as a
// quantifier-free predicate over the variables; nil when the solver
// cannot eliminate them. A symbol that is the value of a variable x is
// replaced by x; the conjuncts left with symbols are grouped by shared
// symbols, and a group that mentions no variable is dropped (st is
// satisfiable, so its closure is true); the solver eliminates the
// symbols of the other groups.
func eliminated(z *solver.Context, st *State) (expr.Expr, error) {
	defs := map[string]expr.Expr{}
	names := sortedNames(st.Vars)
	for _, name := range names {
		if id, ok := st.Vars[name].(*expr.Ident); ok && IsSymbol(id) {
			if _, dup := defs[id.Name]; !dup {
				defs[id.Name] = varIdent(name, id.T)
			}
		}
	}
	sub := func(e expr.Expr) expr.Expr {
		return expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
			if d, ok := defs[id.Name]; ok && IsSymbol(id) {
				return d
			}
			return nil
		})
	}
	var cs []expr.Expr
	for _, name := range names {
		v := st.Vars[name]
		if id, ok := v.(*expr.Ident); ok && IsSymbol(id) && expr.Equal(defs[id.Name], varIdent(name, id.T)) {
			continue // x = x
		}
		cs = append(cs, expr.Compare(expr.Eq, varIdent(name, v.Type()), sub(v)))
	}
	cs = append(cs, expr.Conjuncts(sub(st.PC))...)
	keep, rest, syms := splitClosed(cs)
	if len(rest) == 0 {
		return expr.AndOf(keep...), nil
	}
	q, err := z.EliminateExists(syms, expr.AndOf(rest...))
	if err != nil {
		return nil, nil // QE failed or undecided: not known to include anything
	}
	return expr.AndOf(append(keep, q)...), nil
}

// splitClosed splits conjuncts into those without symbols (keep) and the
// groups (connected by shared symbols) that mention a variable (rest,
// whose symbols are syms); groups of symbols alone are dropped.
func splitClosed(cs []expr.Expr) (keep, rest []expr.Expr, syms []*expr.Ident) {
	rel := relevant(cs)
	seen := map[string]bool{}
	for i, c := range cs {
		if !rel[i] {
			continue
		}
		has := false
		expr.Idents(c, func(id *expr.Ident) {
			if IsSymbol(id) {
				has = true
				if !seen[id.Name] {
					seen[id.Name] = true
					syms = append(syms, id)
				}
			}
		})
		if has {
			rest = append(rest, c)
		} else {
			keep = append(keep, c)
		}
	}
	slices.SortFunc(syms, func(a, b *expr.Ident) int { return strings.Compare(a.Name, b.Name) })
	return keep, rest, syms
}

// relevant marks the conjuncts of cs that constrain the variables: those
// without symbols, and the groups (connected by shared symbols) that
// mention a variable. A group of symbols alone is left unmarked.
func relevant(cs []expr.Expr) []bool {
	facts := make([]conjFacts, len(cs))
	for i, c := range cs {
		facts[i] = factsOf(c)
	}
	return relevantOf(facts)
}

// conjFacts are what relevant needs of a conjunct: its symbols, and
// whether it mentions a variable.
type conjFacts struct {
	syms   []string
	hasVar bool
}

func factsOf(c expr.Expr) conjFacts {
	var f conjFacts
	expr.Idents(c, func(id *expr.Ident) {
		if IsSymbol(id) {
			f.syms = append(f.syms, id.Name)
		} else if id.Kind == expr.VarIdent {
			f.hasVar = true
		}
	})
	return f
}

// relevantOf is relevant given the facts of each conjunct.
func relevantOf(facts []conjFacts) []bool {
	parent := map[string]string{}
	var find func(string) string
	find = func(s string) string {
		if parent[s] == s {
			return s
		}
		parent[s] = find(parent[s])
		return parent[s]
	}
	for _, f := range facts {
		for _, s := range f.syms {
			if _, ok := parent[s]; !ok {
				parent[s] = s
			}
		}
		for _, s := range f.syms[min(1, len(f.syms)):] {
			parent[find(s)] = find(f.syms[0])
		}
	}
	withVar := map[string]bool{}
	for _, f := range facts {
		if len(f.syms) > 0 && f.hasVar {
			withVar[find(f.syms[0])] = true
		}
	}
	rel := make([]bool, len(facts))
	for i, f := range facts {
		rel[i] = len(f.syms) == 0 || withVar[find(f.syms[0])]
	}
	return rel
}

func varIdent(name string, t expr.Type) *expr.Ident {
	return &expr.Ident{Name: name, Kind: expr.VarIdent, T: t}
}

// Growing returns the variables that take at least k distinct literal
// values at one location among the nodes of t not cut by inclusion, in
// name order: when restriction by inclusion reaches the node bound,
// these are the likely reason the restricted tree is infinite (a
// counter that grows for ever keeps every new node apart).
func (t *Tree) Growing(k int) []string {
	seen := map[string]map[string]bool{} // loc/var -> values
	var out []string
	for _, n := range t.Nodes {
		if n.CutBy != nil {
			continue
		}
		for name, v := range n.State.Vars {
			if !isLiteral(v) {
				continue
			}
			key := n.State.Loc + "\x00" + name
			if seen[key] == nil {
				seen[key] = map[string]bool{}
			}
			seen[key][expr.Format(v)] = true
			if len(seen[key]) == k && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}
