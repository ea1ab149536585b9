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

// incremental shares a node's path condition among the checks of its
// children: Expand pushes a scope with the parent's path condition, and
// each child is checked in a scope of its own holding only its new
// conjuncts, popped on return. The answers are those of the one-shot
// check of the child's whole path condition.
type incremental struct {
	s      *solver.Solver
	checks int
	base   int   // scopes open before the parent's
	open   bool  // the parent's scope is open
	parent *Node // the node whose children are being checked
}

// enter prepares the checks of n's children; leave closes n's scope if
// a child opened it. Nothing is shared for a parent the solver could
// not decide.
func (e *Executor) enter(n *Node) {
	e.inc.parent = nil
	if e.flat != nil || e.opts.NoIncremental || n.Unknown {
		return
	}
	e.inc.parent = n
}

// open opens the scope of the parent's path condition, once.
func (e *Executor) open(n *Node) bool {
	if e.inc.open {
		return true
	}
	if e.inc.s == nil || e.inc.checks >= incrementalLimit {
		if e.inc.s != nil {
			e.inc.s.Close()
		}
		e.inc = incremental{s: e.z.NewSolver(), parent: n}
	}
	e.inc.base = e.inc.s.Scopes()
	e.inc.s.Push()
	if err := e.inc.s.Assert(n.cond()); err != nil {
		e.inc.s.PopTo(e.inc.base)
		return false
	}
	e.inc.open = true
	return true
}

func (e *Executor) leave() {
	if e.inc.open {
		e.inc.s.PopTo(e.inc.base)
		e.inc.open = false
	}
	e.inc.parent = nil
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
	added := newConjuncts(pc, n.cond())
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
