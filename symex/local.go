package symex

import (
	"errors"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// The solver is asked about a node's condition (Node.cond), not its
// path condition: the two differ by the step parameters that no
// variable's value keeps, eliminated when the step is taken. Such a
// parameter d (first@4 below) occurs in that step's new conjuncts and
// nowhere else, ever after: later guards see the variables' values and
// their own parameters only. So with D the step's dead parameters, PC ∧
// new ≡ PC ∧ ∃D. new over every other symbol, and each question the
// tree asks (satisfiability of a child, ∃F. binding, inclusion, a point
// of the variables) has the same answer on the condition as on the path
// condition.
//
// ∃D. new is computed group by group (the conjuncts linked by shared
// dead parameters), without quantifier elimination:
//
//   - a group over dead parameters alone is a closed sentence: true or
//     false, one satisfiability query;
//   - a group with one conjunct that also mentions other symbols, a
//     disjunction a1 ∧ b1 ∨ a2 ∧ b2 ∨ ..., each ai over dead parameters
//     alone and each bi over none (the others are over D alone: P),
//     is the disjunction of the bi whose P ∧ ai is satisfiable;
//   - a conjunct d == t, t without dead parameters, is used to replace d
//     by t in the others (the one-point rule: ∃d. d == t ∧ P(d) is
//     P(t));
//   - any other group, or one whose sentences the solver cannot decide,
//     stays as it is.
//
// Lucky's guard isValid(first) && isValid(last) && (luckyByName(first,
// last) || sex != prev && n >= 5) is the second case: its string
// constraints, with regular expressions, leave the tree's queries, which
// are then over the sexes and counters alone. The sentences are asked
// once per text, their parameters renamed (closed).

// closedMemo holds the answers to the closed sentences: text -> answer.
type closedMemo map[string]solver.Result

// cond returns the condition the solver is asked about n: its path
// condition with the dead parameters of its steps eliminated.
func (n *Node) cond() expr.Expr {
	if n.red != nil {
		return n.red
	}
	return n.State.PC
}

// solverState returns n's state with its condition as path condition.
func (n *Node) solverState() *State {
	if n.red == nil {
		return n.State
	}
	return &State{Loc: n.State.Loc, Vars: n.State.Vars, PC: n.red, Calls: n.State.Calls}
}

// reduce returns the condition of a child of n in state st, whose step
// has the parameter symbols args: n's condition and ∃D. new, D the
// parameters that no value of st mentions. It returns st.PC when
// nothing is eliminated.
func (e *Executor) reduce(n *Node, st *State, args []*expr.Ident) (expr.Expr, error) {
	if e.noLocal {
		return st.PC, nil
	}
	dead := map[string]bool{}
	for _, a := range args {
		dead[a.Name] = true
	}
	for _, v := range st.Vars {
		expr.Idents(v, func(id *expr.Ident) { delete(dead, id.Name) })
	}
	added := addedTo(st.PC, n.State.PC)
	if len(dead) == 0 || len(added) == 0 {
		return expr.AndOf(n.cond(), expr.AndOf(added...)), nil
	}
	out := []expr.Expr{n.cond()}
	for _, g := range deadGroups(added, dead) {
		r, err := e.eliminateDead(g, dead)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return expr.AndOf(out...), nil
}

// deadGroups splits cs into groups linked by shared dead symbols, in
// the order of their first conjuncts; a conjunct without one is a group
// of its own.
func deadGroups(cs []expr.Expr, dead map[string]bool) [][]expr.Expr {
	parent := make([]int, len(cs))
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	owner := map[string]int{} // dead symbol -> a conjunct mentioning it
	for i, c := range cs {
		parent[i] = i
		expr.Idents(c, func(id *expr.Ident) {
			if !dead[id.Name] {
				return
			}
			if j, ok := owner[id.Name]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[id.Name] = i
			}
		})
	}
	at := map[int]int{} // root -> index in out
	var out [][]expr.Expr
	for i, c := range cs {
		r := find(i)
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], c)
	}
	return out
}

// eliminateDead returns ∃D. g for one group g (see above), or g itself.
func (e *Executor) eliminateDead(g []expr.Expr, dead map[string]bool) (expr.Expr, error) {
	if rest, ok := onePoint(g, dead); ok {
		out := make([]expr.Expr, 0, len(rest))
		for _, h := range deadGroups(rest, dead) {
			r, err := e.eliminateDead(h, dead)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
		return expr.AndOf(out...), nil
	}
	var pure, mixed []expr.Expr
	for _, c := range g {
		if expr.Contains(c, isCall) {
			return expr.AndOf(g...), nil // a function not eliminated: shared with the path
		}
		switch d, o := mentions(c, dead); {
		case d && o:
			mixed = append(mixed, c)
		case d:
			pure = append(pure, c)
		default:
			return expr.AndOf(g...), nil // a conjunct without dead symbols
		}
	}
	if len(mixed) == 0 {
		r, err := e.closedSat(pure)
		if r == solver.Unknown || err != nil {
			return expr.AndOf(g...), err
		}
		return expr.BoolConst(r == solver.Sat), nil
	}
	if len(mixed) > 1 {
		return expr.AndOf(g...), nil
	}
	var keep []expr.Expr
	for _, d := range expr.Disjuncts(mixed[0]) {
		var a, b []expr.Expr
		for _, c := range expr.Conjuncts(d) {
			switch dd, o := mentions(c, dead); {
			case dd && o:
				return expr.AndOf(g...), nil
			case dd:
				a = append(a, c)
			default:
				b = append(b, c)
			}
		}
		r, err := e.closedSat(append(append([]expr.Expr{}, pure...), a...))
		if r == solver.Unknown || err != nil {
			return expr.AndOf(g...), err
		}
		if r == solver.Sat {
			keep = append(keep, expr.AndOf(b...))
		}
	}
	return expr.OrOf(keep...), nil
}

// onePoint applies the one-point rule to the first conjunct of g that
// defines a dead symbol, d == t or t == d with t of d's type and without
// dead symbols: ∃d. d == t ∧ P(d) is P(t). It returns the other
// conjuncts with d replaced by t (cash's amount == x in the ATM).
func onePoint(g []expr.Expr, dead map[string]bool) ([]expr.Expr, bool) {
	for i, c := range g {
		b, ok := c.(*expr.Binary)
		if !ok || b.Op != expr.Eq {
			continue
		}
		for _, s := range [2][2]expr.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			d, ok := s[0].(*expr.Ident)
			if !ok || !dead[d.Name] || d.T != s[1].Type() || expr.Contains(s[1], isCall) {
				continue
			}
			if dd, _ := mentions(s[1], dead); dd {
				continue
			}
			rest := make([]expr.Expr, 0, len(g)-1)
			for j, o := range g {
				if j != i {
					rest = append(rest, expr.Rewrite(o, func(id *expr.Ident) expr.Expr {
						if id.Name == d.Name {
							return s[1]
						}
						return nil
					}))
				}
			}
			return rest, true
		}
	}
	return nil, false
}

// isCall reports whether e calls an external function: it is the same
// function along the whole path, so a sentence with it is not closed.
func isCall(e expr.Expr) bool {
	_, ok := e.(*expr.Call)
	return ok
}

// mentions reports whether c mentions a dead symbol and another
// identifier.
func mentions(c expr.Expr, dead map[string]bool) (d, other bool) {
	expr.Idents(c, func(id *expr.Ident) {
		if dead[id.Name] {
			d = true
		} else {
			other = true
		}
	})
	return d, other
}

// closedSat decides the closed sentence ∃. ∧cs, once per text (its
// symbols renamed in order). Unknown when the solver cannot; an error
// other than that is returned.
func (e *Executor) closedSat(cs []expr.Expr) (solver.Result, error) {
	f := expr.AndOf(cs...)
	k := expr.Format(renamer{to: map[string]*expr.Ident{}}.rename(f))
	if r, ok := e.closed[k]; ok {
		return r, nil
	}
	e.stats.Queries++
	r, err := e.z.Sat(f)
	if errors.Is(err, solver.ErrUnknown) {
		r, err = solver.Unknown, nil
	}
	if err != nil {
		return solver.Unknown, err
	}
	if e.closed == nil {
		e.closed = closedMemo{}
	}
	e.closed[k] = r
	return r, nil
}
