package symex

import (
	"errors"
	"slices"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
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
	q  spec.Expr           // ∃Fb. binding(b); nil until computed
	// noQ is set when q could not be computed (QE failed or undecided):
	// b then cuts nothing.
	noQ bool
}

// inclusionIndex holds the candidates by location, in creation order.
type inclusionIndex struct {
	byLoc map[string][]*candidate
	// Pruned counts the comparisons skipped without a query: by
	// location and literals, by intervals, by q at c's point.
	Apart, ByInterval, ByPoint, Compared int
}

func newInclusionIndex() *inclusionIndex {
	return &inclusionIndex{byLoc: map[string][]*candidate{}}
}

// add makes n a candidate for the nodes after it. Nodes the solver could
// not decide are not candidates: their states may be none.
func (x *inclusionIndex) add(n *Node) {
	if n.Unknown {
		return
	}
	x.byLoc[n.State.Loc] = append(x.byLoc[n.State.Loc], &candidate{n: n, iv: intervals(n.State)})
}

// cut makes c a leaf when it is included in a candidate at its location,
// the first in creation order.
func (e *Executor) cut(c *Node, x *inclusionIndex) error {
	var p *spec.Valuation
	pointDone, first := false, true
	for _, b := range x.byLoc[c.State.Loc] {
		if knownApart(c.State, b.n.State) {
			x.Apart++
			continue
		}
		// The first candidate left is compared at once; a point of c
		// is worth its query from the second on.
		if !first && !pointDone {
			p, pointDone = e.point(c), true
		}
		first = false
		if p != nil && !b.ivAdmits(p) {
			x.ByInterval++
			continue
		}
		if b.q == nil && !b.noQ {
			q, err := eliminated(e.z, b.n.State)
			e.stats.Queries++
			if err != nil {
				return err
			}
			b.q, b.noQ = q, q == nil
		}
		if b.noQ {
			continue
		}
		if p != nil && !admits(b.q, p) {
			x.ByPoint++
			continue
		}
		x.Compared++
		ok, err := includedIn(e.z, c.State, b.q)
		e.stats.Queries++
		if err != nil {
			return err
		}
		if ok {
			c.CutBy = b.n
			return nil
		}
	}
	return nil
}

// point returns a concrete state of c: the values of the variables
// under its solution (Node.Sol, with function summaries) or a model of
// its binding; nil when the solver gives none. A symbol the solution
// leaves free (c's path condition does not mention it) is 0.
func (e *Executor) point(c *Node) *spec.Valuation {
	if c.Unknown {
		return nil
	}
	sol := c.Sol
	if sol == nil {
		e.stats.Queries++
		keep, rest, _ := splitClosed(spec.Conjuncts(binding(c.State, nil)))
		m, ok, err := e.z.Model(spec.AndOf(append(keep, rest...)...))
		if err != nil || !ok {
			return nil
		}
		return &m
	}
	env := spec.Valuation{Vars: map[string]spec.Value{}}
	for k, v := range sol.Vars {
		env.Vars[k] = v
	}
	p := &spec.Valuation{Vars: map[string]spec.Value{}}
	for name, v := range c.State.Vars {
		spec.Idents(v, func(id *spec.Ident) {
			if _, ok := env.Vars[id.Name]; !ok && IsSymbol(id) {
				env.Vars[id.Name] = spec.Zero(id.T)
			}
		})
		if x, err := spec.Eval(v, env); err == nil {
			p.Vars[name] = x
		}
	}
	return p
}

// admits reports whether the quantifier-free q (over the variables)
// may hold at the point p: false only when it evaluates to false.
func admits(q spec.Expr, p *spec.Valuation) bool {
	ok, err := spec.EvalBool(q, *p)
	return err != nil || ok
}

// ivAdmits reports whether p's values lie in b's intervals.
func (b *candidate) ivAdmits(p *spec.Valuation) bool {
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
func includedIn(z *solver.Context, a *State, q spec.Expr) (bool, error) {
	keep, rest, _ := splitClosed(spec.Conjuncts(binding(a, nil)))
	r, err := z.Sat(spec.AndOf(append(append(keep, rest...), spec.NotOf(q))...))
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
func eliminated(z *solver.Context, st *State) (spec.Expr, error) {
	defs := map[string]spec.Expr{}
	names := sortedNames(st.Vars)
	for _, name := range names {
		if id, ok := st.Vars[name].(*spec.Ident); ok && IsSymbol(id) {
			if _, dup := defs[id.Name]; !dup {
				defs[id.Name] = varIdent(name, id.T)
			}
		}
	}
	sub := func(e spec.Expr) spec.Expr {
		return spec.Rewrite(e, func(id *spec.Ident) spec.Expr {
			if d, ok := defs[id.Name]; ok && IsSymbol(id) {
				return d
			}
			return nil
		})
	}
	var cs []spec.Expr
	for _, name := range names {
		v := st.Vars[name]
		if id, ok := v.(*spec.Ident); ok && IsSymbol(id) && spec.Equal(defs[id.Name], varIdent(name, id.T)) {
			continue // x = x
		}
		cs = append(cs, spec.Compare(spec.Eq, varIdent(name, v.Type()), sub(v)))
	}
	cs = append(cs, spec.Conjuncts(sub(st.PC))...)
	keep, rest, syms := splitClosed(cs)
	if len(rest) == 0 {
		return spec.AndOf(keep...), nil
	}
	q, err := z.EliminateExists(syms, spec.AndOf(rest...))
	if err != nil {
		return nil, nil // QE failed or undecided: not known to include anything
	}
	return spec.AndOf(append(keep, q)...), nil
}

// splitClosed splits conjuncts into those without symbols (keep) and the
// groups (connected by shared symbols) that mention a variable (rest,
// whose symbols are syms); groups of symbols alone are dropped.
func splitClosed(cs []spec.Expr) (keep, rest []spec.Expr, syms []*spec.Ident) {
	parent := map[string]string{}
	var find func(string) string
	find = func(s string) string {
		if parent[s] == s {
			return s
		}
		parent[s] = find(parent[s])
		return parent[s]
	}
	symsOf := make([][]*spec.Ident, len(cs))
	hasVar := make([]bool, len(cs))
	for i, c := range cs {
		spec.Idents(c, func(id *spec.Ident) {
			if !IsSymbol(id) {
				hasVar[i] = hasVar[i] || id.Kind == spec.VarIdent
				return
			}
			if _, ok := parent[id.Name]; !ok {
				parent[id.Name] = id.Name
			}
			symsOf[i] = append(symsOf[i], id)
		})
		for _, s := range symsOf[i][min(1, len(symsOf[i])):] {
			parent[find(s.Name)] = find(symsOf[i][0].Name)
		}
	}
	withVar := map[string]bool{}
	for i := range cs {
		if len(symsOf[i]) > 0 && hasVar[i] {
			withVar[find(symsOf[i][0].Name)] = true
		}
	}
	seen := map[string]bool{}
	for i, c := range cs {
		switch {
		case len(symsOf[i]) == 0:
			keep = append(keep, c)
		case withVar[find(symsOf[i][0].Name)]:
			rest = append(rest, c)
			for _, s := range symsOf[i] {
				if !seen[s.Name] {
					seen[s.Name] = true
					syms = append(syms, s)
				}
			}
		}
	}
	slices.SortFunc(syms, func(a, b *spec.Ident) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return keep, rest, syms
}

func varIdent(name string, t spec.Type) *spec.Ident {
	return &spec.Ident{Name: name, Kind: spec.VarIdent, T: t}
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
			seen[key][spec.Format(v)] = true
			if len(seen[key]) == k && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out
}
