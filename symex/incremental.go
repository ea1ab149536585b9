package symex

import (
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// incrementalLimit is how many checks the incremental solver answers
// before it is replaced (a long-lived Z3 solver grows a little with
// each check).
const incrementalLimit = 20000

// incremental keeps, in one solver, the conditions along the path to
// the node whose children are being checked: one scope per node of the
// path, holding the conjuncts its step added (Node.step), so that the
// next node expanded, a sibling or a cousin in breadth-first order,
// pops the scopes of the nodes not on its own path and pushes only
// those of its ancestors that are new. Each child is checked in a scope
// of its own holding its new conjuncts, popped on return. The scopes'
// conjunction is equisatisfiable with the parent's condition: it holds
// more conjuncts (groups that forget left out, which are satisfiable
// and share no symbol with the rest), never fewer. A path deeper than
// stackDepth is held whole in one scope instead (the parent's
// condition), as is a node without a step.
type incremental struct {
	s      *solver.Solver
	checks int
	levels []level // the scopes open, from the outermost
	parent *Node   // the node whose children are being checked
}

// level is one scope of the incremental solver: n's step, or n's whole
// condition.
type level struct {
	n     *Node
	whole bool
}

// stackDepth bounds the scopes kept along a path: Z3's checks slow down
// in a deep stack of scopes.
const stackDepth = 32

// enter prepares the checks of n's children. Nothing is shared for a
// parent the solver could not decide.
func (e *Executor) enter(n *Node) {
	e.inc.parent = nil
	if e.flat != nil || e.opts.NoIncremental || n.Unknown {
		return
	}
	e.inc.parent = n
}

func (e *Executor) leave() { e.inc.parent = nil }

// open makes the solver's scopes those of n's path (levelsOf), keeping
// the scopes it shares with the path open before.
func (e *Executor) open(n *Node) bool {
	if e.inc.s == nil || e.inc.checks >= incrementalLimit {
		if e.inc.s != nil {
			e.inc.s.Close()
		}
		e.inc = incremental{s: e.z.NewSolver(), parent: n}
	}
	want := levelsOf(n)
	k := 0
	for k < len(want) && k < len(e.inc.levels) && want[k] == e.inc.levels[k] {
		k++
	}
	s := e.inc.s
	s.PopTo(k)
	e.inc.levels = e.inc.levels[:k]
	for _, l := range want[k:] {
		f := l.n.step
		if l.whole {
			f = l.n.cond()
		}
		s.Push()
		if err := s.Assert(f); err != nil {
			s.PopTo(len(e.inc.levels))
			return false
		}
		e.inc.levels = append(e.inc.levels, l)
	}
	return true
}

// levelsOf returns the scopes for n's path: the steps from the nearest
// ancestor without one (held whole) down to n, or n whole when the path
// is deeper than stackDepth.
func levelsOf(n *Node) []level {
	if n.Depth >= stackDepth {
		return []level{{n, true}}
	}
	out := make([]level, n.Depth+1)
	i := n.Depth
	for a := n; ; a = a.Parent {
		if a.step == nil || a.Parent == nil {
			out[i] = level{a, true}
			return out[i:]
		}
		out[i] = level{a, false}
		i--
	}
}

// checkChild decides the condition pc of a child of n (n's condition
// and its new conjuncts). When n is satisfiable, the new
// conjuncts and those linked to them by shared symbols suffice (sliced);
// a slice of at most half of pc is checked alone, a larger one in the
// scope of n's condition, shared with the siblings (incremental). fresh
// is false when pc adds nothing to n's condition (satisfiable).
func (e *Executor) checkChild(n *Node, pc expr.Expr) (r solver.Result, fresh bool, err error) {
	q := pc
	if !n.Unknown {
		if q, fresh = sliced(pc, n.cond()); !fresh {
			return solver.Sat, false, nil
		}
	}
	if e.inc.parent != n || 2*len(expr.Conjuncts(q)) <= len(expr.Conjuncts(pc)) || !e.open(n) {
		e.stats.Queries++
		r, err = e.z.Sat(q)
		return r, true, err
	}
	added := addedTo(pc, n.cond())
	e.stats.Queries++
	e.inc.checks++
	s := e.inc.s
	k := s.Scopes()
	s.Push()
	defer s.PopTo(k)
	if err := s.Assert(expr.AndOf(added...)); err != nil {
		return solver.Unknown, true, err
	}
	r, err = s.Check()
	if err == nil && r == solver.Unknown {
		err = fmt.Errorf("%w (incremental check)", solver.ErrUnknown)
	}
	return r, true, err
}

// newConjuncts returns the conjuncts of pc that are not parent's.
func newConjuncts(pc, parent expr.Expr) []expr.Expr {
	old := map[expr.Expr]bool{}
	for _, c := range expr.Conjuncts(parent) {
		old[c] = true
	}
	var out []expr.Expr
	for _, c := range expr.Conjuncts(pc) {
		if !old[c] {
			out = append(out, c)
		}
	}
	return out
}
