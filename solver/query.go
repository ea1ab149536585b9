package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/stg-tool/stg/spec/expr"
)

// oneShotLimit is how many queries the context's shared solver answers
// before it is replaced: a long-lived Z3 solver keeps growing a little
// with each check, even when every scope is popped.
const oneShotLimit = 20000

// query decides f in a scope of the context's shared solver and, when
// sat and ids is not nil, reads their values.
// uncounted says f holds nonlinear arithmetic (rlimit.go).
func (c *Context) query(f C.Z3_ast, ids []*expr.Ident, uncounted bool) (Result, expr.Valuation, error) {
	if c.oneShot != nil && (c.oneShot.checks >= oneShotLimit || c.oneShot.err != nil) {
		c.oneShot.Close()
		c.oneShot = nil
	}
	if c.oneShot == nil {
		s := c.NewSolver()
		if s.err != nil {
			return Unknown, expr.Valuation{}, s.err
		}
		c.oneShot = s
	}
	s := c.oneShot
	s.checks++
	if err := s.push(); err != nil {
		return Unknown, expr.Valuation{}, err
	}
	defer func() {
		if s.err != nil { // a failed renewal: no call on the old solver
			return
		}
		if err := s.pop(1); err != nil {
			s.err = err // the next query replaces the solver
		}
	}()
	if err := s.add(f, uncounted, "assert"); err != nil {
		return Unknown, expr.Valuation{}, err
	}
	r, err := s.Check() // renews s after Unknown
	if err != nil || r != Sat || ids == nil {
		if err == nil && r == Unknown {
			err = unknownError(s)
		}
		return r, expr.Valuation{}, err
	}
	m, err := s.model(ids)
	return r, m, err
}

var errNotLinear = errors.New("not tried on a nonlinear formula")

// ErrUnknown is wrapped by the errors of queries the solver could not
// decide (non-linear arithmetic, a timeout, an interrupt). Callers that
// can act soundly without an answer test for it with errors.Is.
var ErrUnknown = errors.New("solver: unknown")

func unknownError(s *Solver) error {
	if s.timedOut {
		return s.c.timeoutError("a satisfiability check")
	}
	return fmt.Errorf("%w (%s)", ErrUnknown, s.reasonUnknown())
}

// Possible reports whether e may be satisfiable: it is false only when
// the solver proves e unsatisfiable, and an undecided query counts as
// possible. It is what a construction that may over-approximate, but
// never drop a behaviour, needs.
func (c *Context) Possible(e expr.Expr) (bool, error) {
	r, err := c.Sat(e)
	if errors.Is(err, ErrUnknown) {
		return true, nil
	}
	return r != Unsat, err
}

// Sat reports whether the predicate e is satisfiable. Unknown comes with
// an error that says why (timeout, interrupted, incomplete).
func (c *Context) Sat(e expr.Expr) (Result, error) {
	if err := c.usable(); err != nil {
		return Unknown, err
	}
	k := c.key("sat", e)
	if r, ok := c.recallResult(k); ok {
		return r, nil
	}
	m := c.mark()
	defer c.release(m)
	a, err := c.encodeBool(e)
	if err != nil {
		return Unknown, err
	}
	r, _, err := c.query(a, nil, uncounted(e))
	if err == nil {
		c.rememberResult(k, r)
	}
	return r, err
}

// Valid reports whether the predicate e holds in every state: whether
// !e is unsatisfiable. An Unknown answer is an error.
func (c *Context) Valid(e expr.Expr) (bool, error) {
	if hasMatch(e) {
		return c.validMatch(e) // strings.go
	}
	return c.unsatOf("valid", func(x []C.Z3_ast) (C.Z3_ast, error) { return c.not(x[0]) }, e)
}

// Entails reports whether a implies b in every state.
func (c *Context) Entails(a, b expr.Expr) (bool, error) {
	if hasMatch(a, b) {
		return c.entailsMatch(a, b) // strings.go
	}
	return c.unsatOf("entails", func(x []C.Z3_ast) (C.Z3_ast, error) {
		nb, err := c.not(x[1])
		if err != nil {
			return nil, err
		}
		args := [2]C.Z3_ast{x[0], nb}
		return c.temp(C.Z3_mk_and(c.z, 2, &args[0]), "and")
	}, a, b)
}

// Equivalent reports whether the predicates a and b agree in every state.
func (c *Context) Equivalent(a, b expr.Expr) (bool, error) {
	if hasMatch(a, b) {
		return c.equivalentMatch(a, b) // strings.go
	}
	return c.unsatOf("equivalent", func(x []C.Z3_ast) (C.Z3_ast, error) { return c.differ(x[0], x[1]) }, a, b)
}

// unsatOf encodes the predicates es, builds a formula of their terms and
// reports whether it is unsatisfiable; the terms are released after.
// The answer is memoised under the question tag.
func (c *Context) unsatOf(tag string, build func([]C.Z3_ast) (C.Z3_ast, error), es ...expr.Expr) (bool, error) {
	if err := c.usable(); err != nil {
		return false, err
	}
	k := c.key(tag, es...)
	if r, ok := c.recallResult(k); ok {
		return r == Unsat, nil
	}
	m := c.mark()
	defer c.release(m)
	xs := make([]C.Z3_ast, len(es))
	for i, e := range es {
		x, err := c.encodeBool(e)
		if err != nil {
			return false, err
		}
		xs[i] = x
	}
	f, err := build(xs)
	if err != nil {
		return false, err
	}
	r, _, err := c.query(f, nil, slices.ContainsFunc(es, uncounted))
	if err != nil {
		return false, err
	}
	c.rememberResult(k, r)
	return r == Unsat, nil
}

func (c *Context) unsat(a C.Z3_ast, uncounted bool) (bool, error) {
	r, _, err := c.query(a, nil, uncounted)
	if err != nil {
		return false, err
	}
	return r == Unsat, nil
}

func (c *Context) not(x C.Z3_ast) (C.Z3_ast, error) { return c.temp(C.Z3_mk_not(c.z, x), "not") }

// differ is the formula x != y: unsatisfiable iff x and y are equivalent.
func (c *Context) differ(x, y C.Z3_ast) (C.Z3_ast, error) {
	f, err := c.temp(C.Z3_mk_eq(c.z, x, y), "==")
	if err != nil {
		return nil, err
	}
	return c.not(f)
}

// Model returns a state satisfying the predicate e: values for every
// identifier occurring in e, variables and parameters by name. ok is
// false when e is unsatisfiable; Unknown is an error.
func (c *Context) Model(e expr.Expr) (m expr.Valuation, ok bool, err error) {
	if err := c.usable(); err != nil {
		return expr.Valuation{}, false, err
	}
	mk := c.mark()
	defer c.release(mk)
	a, err := c.encodeFact(e, nil) // strings.go: strings of bytes
	if err != nil {
		return expr.Valuation{}, false, err
	}
	ids := []*expr.Ident{}
	seen := make(map[identKey]bool)
	expr.Idents(e, func(id *expr.Ident) {
		k := identKey{id.Kind, id.Name, id.T}
		if !seen[k] {
			seen[k] = true
			ids = append(ids, id)
		}
	})
	r, m, err := c.query(a, ids, uncounted(e))
	if err != nil {
		return expr.Valuation{}, false, err
	}
	return m, r == Sat, nil
}

// EliminateExists returns a quantifier-free predicate equivalent to
// ∃ids. e, over the identifiers of e that are not in ids.
//
// It runs Z3's qe2 tactic, and qe when qe2 fails or leaves a quantifier
// (qe2 gives compact conjunctions where qe may give large disjunctions),
// each followed by simplify. Integer divisibility comes back as x % k == 0.
func (c *Context) EliminateExists(ids []*expr.Ident, e expr.Expr) (expr.Expr, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	if hasString(e) {
		return nil, errNoStringQE // strings.go
	}
	bound := make([]expr.Expr, 0, len(ids)+1)
	for _, id := range ids {
		if id == nil {
			return nil, errors.New("solver: nil identifier to eliminate")
		}
		bound = append(bound, id)
	}
	k := c.key("exists", append(bound, e)...)
	if r, ok := c.recallExpr(k); ok {
		return r, nil
	}
	m := c.mark()
	defer c.release(m)
	body, err := c.encodeBool(e)
	if err != nil {
		return nil, err
	}
	f := body
	if len(ids) > 0 {
		bound := make([]C.Z3_app, len(ids))
		for i, id := range ids {
			if id == nil {
				return nil, errors.New("solver: nil identifier to eliminate")
			}
			a, err := c.ident(id)
			if err != nil {
				return nil, err
			}
			bound[i] = C.Z3_to_app(c.z, a)
		}
		f, err = c.temp(C.Z3_mk_exists_const(c.z, 0, C.uint(len(bound)), &bound[0], 0, nil, body), "exists")
		if err != nil {
			return nil, err
		}
	}
	// qe2 does not terminate on some nonlinear formulas (and on integer
	// division) where qe gives up at once: keep it for linear ones.
	var r expr.Expr
	err = errNotLinear
	if expr.IsLinear(e) {
		r, err = c.applyTactic(f, false, "qe2", "simplify")
	}
	if err != nil {
		var err2 error
		r, err2 = c.applyTactic(f, uncounted(e), "qe", "simplify")
		if err2 != nil {
			return nil, fmt.Errorf("solver: eliminating quantifiers: qe2: %v; qe: %v", err, err2)
		}
	}
	c.rememberExpr(k, r)
	return r, nil
}

// Simplify returns a predicate equivalent to e that is usually smaller
// and easier to read: Z3's simplify, then ctx-solver-simplify (which
// drops conjuncts implied by the others), then simplify again, since
// ctx-solver-simplify can leave terms like (* 1 x).
//
// The result is checked to be equivalent to e before it is returned.
// On any failure Simplify returns e itself with the error.
func (c *Context) Simplify(e expr.Expr) (expr.Expr, error) {
	if err := c.usable(); err != nil {
		return e, err
	}
	if hasMatch(e) {
		return e, nil // strings.go: Z3 4.8.12 crashes or loops simplifying them
	}
	k := c.key("simplify", e)
	if r, ok := c.recallExpr(k); ok {
		return r, nil
	}
	m := c.mark()
	defer c.release(m)
	a, err := c.encodeBool(e)
	if err != nil {
		return e, err
	}
	tactics := []string{"simplify", "ctx-solver-simplify", "simplify"}
	if hasString(e) {
		tactics = tactics[:1]
	}
	r, err := c.applyTactic(a, uncounted(e), tactics...)
	if err != nil {
		return e, err
	}
	// The tactics preserve equivalence; the check guards our translation
	// back, which is ours and not Z3's.
	b, err := c.encodeBool(r)
	if err != nil {
		return e, fmt.Errorf("solver: simplified form does not translate: %v", err)
	}
	d, err := c.differ(a, b)
	if err != nil {
		return e, err
	}
	ok, err := c.unsat(d, uncounted(e))
	if err != nil {
		return e, fmt.Errorf("solver: checking simplified form: %w", err)
	}
	if !ok {
		return e, fmt.Errorf("solver: internal error: simplified form %s is not equivalent to %s", expr.Format(r), expr.Format(e))
	}
	c.rememberExpr(k, r)
	return r, nil
}

// tactic returns the sequential composition of the named Z3 tactics,
// made once per context.
func (c *Context) tactic(names ...string) (C.Z3_tactic, error) {
	key := strings.Join(names, ";")
	if t, ok := c.tactics[key]; ok {
		return t, nil
	}
	var t C.Z3_tactic
	if len(names) == 1 {
		cs := C.CString(names[0])
		t = C.Z3_mk_tactic(c.z, cs)
		C.free(unsafe.Pointer(cs))
		if t == nil {
			return nil, c.lastError("tactic " + names[0])
		}
	} else {
		first, err := c.tactic(names[0])
		if err != nil {
			return nil, err
		}
		rest, err := c.tactic(names[1:]...)
		if err != nil {
			return nil, err
		}
		t = C.Z3_tactic_and_then(c.z, first, rest)
		if t == nil {
			return nil, c.lastError("tactic " + key)
		}
	}
	C.Z3_tactic_inc_ref(c.z, t)
	c.refs++
	c.tactics[key] = t
	return t, nil
}

// dropTactics releases the tactics made so far, so that later
// applications get new ones: Z3 4.8.12 cleans a tactic up after a
// tactic_exception only, so a tactic stopped by another exception (a
// rewriter's cancellation) keeps its state, as a stopped check leaves
// its solver unclean.
func (c *Context) dropTactics() {
	for k, t := range c.tactics {
		C.Z3_tactic_dec_ref(c.z, t)
		c.refs--
		delete(c.tactics, k)
	}
}

// applyTactic runs the named tactics on the goal f and translates the
// result back: the disjunction over the subgoals of the conjunction of
// each subgoal's formulas.
// uncounted says f holds nonlinear arithmetic (rlimit.go).
func (c *Context) applyTactic(f C.Z3_ast, uncounted bool, names ...string) (expr.Expr, error) {
	t, err := c.tactic(names...)
	if err != nil {
		return nil, err
	}
	g := C.Z3_mk_goal(c.z, false, false, false)
	if g == nil {
		return nil, c.lastError("make goal")
	}
	C.Z3_goal_inc_ref(c.z, g)
	defer C.Z3_goal_dec_ref(c.z, g)
	C.Z3_goal_assert(c.z, g, f)
	if err := c.failed("goal assert"); err != nil {
		return nil, err
	}
	var r C.Z3_apply_result
	c.stats.Tactics++
	timedOut, hit := c.interruptible(uncounted, func() { r = C.Z3_tactic_apply(c.z, t, g) })
	if r == nil {
		err := c.lastError("apply " + strings.Join(names, ", "))
		c.dropTactics() // a stopped tactic may keep an unclean state
		if c.limited(timedOut, hit, err.Error()) {
			err = fmt.Errorf("%v: %w", err, c.timeoutError("tactic "+strings.Join(names, ", ")))
		}
		return nil, err
	}
	C.Z3_apply_result_inc_ref(c.z, r)
	defer C.Z3_apply_result_dec_ref(c.z, r)
	n := int(C.Z3_apply_result_get_num_subgoals(c.z, r))
	ors := make([]expr.Expr, 0, n)
	for i := range n {
		sg := C.Z3_apply_result_get_subgoal(c.z, r, C.uint(i))
		if sg == nil {
			return nil, c.lastError("subgoal")
		}
		size := int(C.Z3_goal_size(c.z, sg))
		ands := make([]expr.Expr, 0, size)
		for j := range size {
			a, err := c.temp(C.Z3_goal_formula(c.z, sg, C.uint(j)), "goal formula")
			if err != nil {
				return nil, err
			}
			x, err := c.decode(a)
			if err != nil {
				return nil, err
			}
			ands = append(ands, x)
		}
		ors = append(ors, expr.AndOf(ands...))
	}
	return expr.OrOf(ors...), nil
}
