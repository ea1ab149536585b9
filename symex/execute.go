package symex

import (
	"errors"
	"slices"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// A Tree is a finite part of the symbolic execution tree of a spec,
// unfolded breadth-first or depth-first (Options.Order).
type Tree struct {
	Root  *Node
	Nodes []*Node // in creation order
	Stats Stats
	// Coverage is the transition coverage of the tree (§5.2 of the
	// function-summaries paper).
	Coverage Coverage
}

// Coverage is the transition coverage of a tree: the spec's transitions
// that label at least one edge of the tree, over all of them (internal
// ones included; quiescence is not a transition of the spec).
type Coverage struct {
	Covered   int      `json:"covered"`
	Total     int      `json:"total"`
	Uncovered []string `json:"uncovered"` // names, in the spec's order
}

// Percent returns Covered/Total in percent (100 for a spec without
// transitions).
func (c Coverage) Percent() float64 {
	if c.Total == 0 {
		return 100
	}
	return 100 * float64(c.Covered) / float64(c.Total)
}

// Execute unfolds the symbolic execution tree of e's spec in
// Options.Order, bounded by Options.Depth, Options.MaxNodes and, with
// Options.Inclusion, restricted by inclusion (Def. 11): a new node
// included in a node created before it at the same location becomes a
// leaf. progress, when not nil, is called now and then with the nodes so
// far.
func (e *Executor) Execute(progress func(nodes int)) (*Tree, error) {
	root, err := e.Root()
	if err != nil {
		return nil, err
	}
	t := &Tree{Root: root, Nodes: []*Node{root}}
	incl := newInclusionIndex()
	incl.add(root, shapeOf(root.solverState(), incl.conjs))
	todo := []*Node{root}
	for i := 0; len(todo) > 0; i++ {
		var n *Node
		if e.opts.Order == DFS {
			n, todo = todo[len(todo)-1], todo[:len(todo)-1]
		} else {
			n, todo = todo[0], todo[1:]
		}
		if e.opts.Depth > 0 && n.Depth >= e.opts.Depth {
			continue
		}
		if len(t.Nodes) >= e.opts.MaxNodes {
			t.Stats.BoundReached = true
			break
		}
		children, err := e.Expand(n)
		if err != nil {
			return nil, err
		}
		for _, c := range children {
			t.Nodes = append(t.Nodes, c)
			if c.Sink || !e.opts.Inclusion {
				continue
			}
			sh, err := e.cut(c, incl)
			if err != nil {
				return nil, err
			}
			if c.CutBy == nil {
				incl.add(c, sh)
			}
		}
		if e.opts.Order == DFS {
			for j := len(children) - 1; j >= 0; j-- {
				todo = append(todo, children[j])
			}
		} else {
			todo = append(todo, children...)
		}
		if progress != nil && i%1000 == 999 {
			progress(len(t.Nodes))
		}
	}
	t.Stats = e.statsOf(t)
	t.Stats.Inclusion = InclusionStats{Apart: incl.Apart, ByInterval: incl.ByInterval, ByPoint: incl.ByPoint, Compared: incl.Compared, Memo: incl.Memo}
	t.Coverage = e.coverageOf(t)
	return t, nil
}

// coverageOf returns the transition coverage of t.
func (e *Executor) coverageOf(t *Tree) Coverage {
	seen := map[*spec.Transition]bool{}
	for _, n := range t.Nodes {
		if n.Trans != nil {
			seen[n.Trans] = true
		}
	}
	c := Coverage{Total: len(e.m.Transitions), Uncovered: []string{}}
	for _, tr := range e.m.Transitions {
		if seen[tr] {
			c.Covered++
		} else {
			c.Uncovered = append(c.Uncovered, e.names[tr])
		}
	}
	return c
}

func (e *Executor) statsOf(t *Tree) Stats {
	s := Stats{Nodes: len(t.Nodes), Transitions: len(t.Nodes) - 1, BoundReached: t.Stats.BoundReached, Queries: e.stats.Queries}
	for _, n := range t.Nodes {
		if n.CutBy != nil {
			s.CutByInclusion++
		}
		if n.Unknown {
			s.Undecided++
		}
		s.LongestPath = max(s.LongestPath, n.Depth)
	}
	return s
}

// Included reports whether every concrete state of a is one of b (Def.
// 10): same location, and every valuation of the variables that a's
// symbols allow, b's allow too:
//
//	(∧x x = σa(x)) ∧ πa ∧ ¬∃Fb. ((∧x x = σb(x)) ∧ πb)
//
// is unsatisfiable, b's symbols Fb renamed apart from a's. When the
// solver cannot decide, a is not included (the tree is then expanded
// further, which is sound).
func Included(z *solver.Context, a, b *State) (bool, error) {
	if knownApart(a, b) {
		return false, nil
	}
	ea := binding(a, nil)
	rename := map[string]*expr.Ident{}
	eb := binding(b, rename)
	var fb []*expr.Ident
	for _, id := range rename {
		fb = append(fb, id)
	}
	q := eb
	if len(fb) > 0 {
		var err error
		q, err = z.EliminateExists(fb, eb)
		if err != nil {
			if errors.Is(err, solver.ErrUnknown) {
				return false, nil
			}
			return false, nil // QE failed: not known to be included
		}
	}
	r, err := z.Sat(expr.AndOf(ea, expr.NotOf(q)))
	if errors.Is(err, solver.ErrUnknown) {
		return false, nil
	}
	return r == solver.Unsat, err
}

// knownApart reports whether a and b cannot share a concrete state for
// a reason found without the solver: other locations, or a variable
// with two different known values.
func knownApart(a, b *State) bool {
	if a.Loc != b.Loc {
		return true
	}
	for name, va := range a.Vars {
		if vb := b.Vars[name]; isLiteral(va) && isLiteral(vb) && !expr.Equal(va, vb) {
			return true
		}
	}
	return false
}

// binding returns (∧x x = σ(x)) ∧ π over the variables x (as free
// identifiers) and st's symbols; with rename not nil, the symbols are
// renamed apart (suffix ') and recorded in rename.
func binding(st *State, rename map[string]*expr.Ident) expr.Expr {
	sub := func(e expr.Expr) expr.Expr {
		if rename == nil {
			return e
		}
		return expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
			if !IsSymbol(id) {
				return nil
			}
			r, ok := rename[id.Name]
			if !ok {
				r = &expr.Ident{Name: id.Name + "'", Kind: expr.VarIdent, T: id.T}
				rename[id.Name] = r
			}
			return r
		})
	}
	var cs []expr.Expr
	for _, name := range sortedNames(st.Vars) {
		v := st.Vars[name]
		cs = append(cs, expr.Compare(expr.Eq, &expr.Ident{Name: name, Kind: expr.VarIdent, T: v.Type()}, sub(v)))
	}
	cs = append(cs, sub(st.PC))
	return expr.AndOf(cs...)
}

// IsSymbol reports whether id is a symbol of symbolic execution (x@0,
// p@3, or the result INTGR#1 of a flattened call) rather than a model
// identifier.
func IsSymbol(id *expr.Ident) bool { return strings.ContainsAny(id.Name, "@#") }

func sortedNames(m map[string]expr.Expr) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
