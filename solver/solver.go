package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"errors"
	"slices"

	"github.com/stg-tool/stg/spec/expr"
)

// Result is the answer of a satisfiability check.
type Result int

// The zero Result is Unknown, so that a forgotten assignment never reads
// as a definite answer.
const (
	Unknown Result = iota
	Unsat
	Sat
)

func (r Result) String() string {
	switch r {
	case Unsat:
		return "unsat"
	case Sat:
		return "sat"
	}
	return "unknown"
}

// A Solver is an incremental Z3 solver: a stack of assertions with
// Push and Pop, for callers that make many related checks. It belongs to
// its Context and shares its goroutine restriction; it stops working when
// the Context is closed. Close it when done.
//
// A check that answers Unknown (a limit or an interrupt stopped it, or
// Z3 gave up) may leave Z3 4.8.12's solver in an unclean state, and the
// next push, pop or check of that solver can crash the process (SIGSEGV
// in Z3_solver_check or Z3_solver_pop; TestStress reproduces it). So
// after such a check the Solver replaces its Z3 solver by a fresh one
// and asserts its scopes again (renew): the Solver keeps a reference to
// every assertion of its open scopes for that.
type Solver struct {
	c      *Context
	s      C.Z3_solver
	simple bool // Z3_mk_simple_solver rather than Z3_mk_solver

	timedOut bool   // the last check ran out of its limit (time or resources)
	reason   string // why the last check answered Unknown

	// The identifiers asserted so far, for Model; marks[i] is
	// len(idents) at the i-th open Push.
	idents []*expr.Ident
	seen   map[identKey]bool
	marks  []int

	// frames[0] holds the facts and the assertions made outside any
	// scope, frames[i] those of the i-th open scope; each is referenced
	// by the Solver, to be asserted again in a renewed solver.
	// uncounted[i] says frames[i] holds nonlinear arithmetic, whose work
	// Z3 does not count against the resource limit (rlimit.go).
	frames    [][]C.Z3_ast
	uncounted []bool

	err error // a failure of Push or Pop, reported by the next Check

	checks int // checks by the context's shared solver
}

// NewSolver returns an empty incremental solver.
//
// It is a simple solver (Z3_mk_simple_solver): Z3's default solver costs
// about 5 ms to make and, once pushed, runs the same incremental core.
func (c *Context) NewSolver() *Solver { return c.newSolver(true) }

// newSolver makes a simple solver or Z3's default (combined) solver;
// the benchmarks compare them.
func (c *Context) newSolver(simple bool) *Solver {
	s := &Solver{c: c, simple: simple, seen: make(map[identKey]bool), frames: [][]C.Z3_ast{nil}, uncounted: []bool{false}}
	if err := c.usable(); err != nil {
		s.err = err
		return s
	}
	z, err := c.z3Solver(simple)
	if err != nil {
		s.err = err
		return s
	}
	s.s = z
	s.err = s.assertFacts() // facts.go: the context's premises
	return s
}

// z3Solver makes a referenced Z3 solver without Z3's SIGINT handler.
func (c *Context) z3Solver(simple bool) (C.Z3_solver, error) {
	var z C.Z3_solver
	if simple {
		z = C.Z3_mk_simple_solver(c.z)
	} else {
		z = C.Z3_mk_solver(c.z)
	}
	if z == nil {
		return nil, c.lastError("make solver")
	}
	C.Z3_solver_inc_ref(c.z, z)
	c.refs++
	C.stg_solver_quiet(c.z, z) // no Z3 SIGINT handler (z3glue.c)
	if err := c.failed("set solver parameters"); err != nil {
		C.Z3_solver_dec_ref(c.z, z)
		c.refs--
		return nil, err
	}
	return z, nil
}

var errSolverClosed = errors.New("solver: solver is closed")

func (s *Solver) usable() error {
	if s.c.z == nil {
		return errClosed
	}
	if s.err != nil {
		return s.err
	}
	if s.s == nil {
		return errSolverClosed
	}
	return nil
}

// Close releases the solver.
func (s *Solver) Close() {
	if s.s != nil && s.c.z != nil {
		C.Z3_solver_dec_ref(s.c.z, s.s)
		s.c.refs--
		s.dropFrames(0)
	}
	s.s = nil
	s.idents, s.seen, s.marks, s.frames, s.uncounted = nil, nil, nil, nil, nil
}

// add asserts the encoded predicate a in the current scope and keeps it
// for a renewal; uncounted says a holds nonlinear arithmetic.
func (s *Solver) add(a C.Z3_ast, uncounted bool, op string) error {
	c := s.c
	C.Z3_solver_assert(c.z, s.s, a) // the solver takes its own reference
	if err := c.failed(op); err != nil {
		return err
	}
	C.Z3_inc_ref(c.z, a)
	c.refs++
	top := len(s.frames) - 1
	s.frames[top] = append(s.frames[top], a)
	s.uncounted[top] = s.uncounted[top] || uncounted
	return nil
}

// dropFrames releases the assertions of the frames from i on.
func (s *Solver) dropFrames(i int) {
	c := s.c
	for _, f := range s.frames[i:] {
		if len(f) > 0 {
			C.stg_dec_refs(c.z, &f[0], C.size_t(len(f)))
			c.refs -= len(f)
		}
	}
	clear(s.frames[i:])
	s.frames = s.frames[:i]
	s.uncounted = s.uncounted[:i]
}

// Assert adds the predicate e to the current scope.
func (s *Solver) Assert(e expr.Expr) error {
	if err := s.usable(); err != nil {
		return err
	}
	c := s.c
	m := c.mark()
	defer c.release(m)
	a, err := c.encodeFact(e, s.seen) // strings.go: strings of bytes
	if err != nil {
		return err
	}
	if err := s.add(a, uncounted(e), "assert"); err != nil {
		return err
	}
	expr.Idents(e, func(id *expr.Ident) {
		k := identKey{id.Kind, id.Name, id.T}
		if !s.seen[k] {
			s.seen[k] = true
			s.idents = append(s.idents, id)
		}
	})
	return nil
}

// Push opens a scope.
func (s *Solver) Push() {
	if s.usable() != nil {
		return
	}
	s.err = s.push()
}

func (s *Solver) push() error {
	C.Z3_solver_push(s.c.z, s.s)
	if err := s.c.failed("push"); err != nil {
		return err
	}
	s.marks = append(s.marks, len(s.idents))
	s.frames = append(s.frames, nil)
	s.uncounted = append(s.uncounted, false)
	return nil
}

// Pop closes the n innermost scopes, dropping their assertions; it closes
// at most as many scopes as are open.
func (s *Solver) Pop(n int) {
	if s.usable() != nil || n <= 0 {
		return
	}
	s.err = s.pop(n)
}

func (s *Solver) pop(n int) error {
	n = min(n, len(s.marks))
	if n == 0 {
		return nil
	}
	C.Z3_solver_pop(s.c.z, s.s, C.uint(n))
	if err := s.c.failed("pop"); err != nil {
		return err
	}
	keep := s.marks[len(s.marks)-n]
	for _, id := range s.idents[keep:] {
		delete(s.seen, identKey{id.Kind, id.Name, id.T})
	}
	clear(s.idents[keep:])
	s.idents = s.idents[:keep]
	s.marks = s.marks[:len(s.marks)-n]
	s.dropFrames(len(s.frames) - n)
	return nil
}

// Check decides the conjunction of the assertions. Unknown comes with
// a nil error when Z3 gave up (timeout, Interrupt, incompleteness).
// After an Unknown the Solver works on in a renewed Z3 solver.
func (s *Solver) Check() (Result, error) {
	if err := s.usable(); err != nil {
		return Unknown, err
	}
	var r C.Z3_lbool
	s.c.stats.Checks++
	timedOut, hit := s.c.interruptible(slices.Contains(s.uncounted, true), func() { r = C.Z3_solver_check(s.c.z, s.s) })
	s.timedOut = timedOut
	err := s.c.failed("check")
	switch {
	case err == nil && r == C.Z3_L_TRUE:
		return Sat, nil
	case err == nil && r == C.Z3_L_FALSE:
		return Unsat, nil
	}
	s.reason = C.GoString(C.Z3_solver_get_reason_unknown(s.c.z, s.s))
	s.timedOut = s.c.limited(timedOut, hit, s.reason)
	if rerr := s.renew(); rerr != nil {
		s.err = rerr
		if err == nil {
			err = rerr
		}
	}
	return Unknown, err
}

// renew replaces the Z3 solver, which a stopped check may have left in
// an unclean state, by a fresh one holding the same scopes and
// assertions. The old solver is released without another call on it.
func (s *Solver) renew() error {
	c := s.c
	z, err := c.z3Solver(s.simple)
	if err != nil {
		return err
	}
	for i, f := range s.frames {
		if i > 0 {
			C.Z3_solver_push(c.z, z)
		}
		for _, a := range f {
			C.Z3_solver_assert(c.z, z, a)
		}
	}
	if err := c.failed("renew solver"); err != nil {
		C.Z3_solver_dec_ref(c.z, z)
		c.refs--
		return err
	}
	C.Z3_solver_dec_ref(c.z, s.s)
	c.refs--
	s.s = z
	c.stats.Renewed++
	return nil
}

// reasonUnknown says why the last check answered Unknown.
func (s *Solver) reasonUnknown() string { return s.reason }

// Model returns the values, in a model of the assertions, of every
// identifier asserted in the open scopes. Call it after Check says Sat.
func (s *Solver) Model() (expr.Valuation, error) {
	if err := s.usable(); err != nil {
		return expr.Valuation{}, err
	}
	return s.model(s.idents)
}

// model reads the values of ids in the model of the last check.
func (s *Solver) model(ids []*expr.Ident) (expr.Valuation, error) {
	c := s.c
	mdl := C.Z3_solver_get_model(c.z, s.s)
	if mdl == nil {
		return expr.Valuation{}, c.lastError("get model")
	}
	C.Z3_model_inc_ref(c.z, mdl)
	defer C.Z3_model_dec_ref(c.z, mdl)
	m := c.mark()
	defer c.release(m)
	val := expr.Valuation{Vars: make(map[string]expr.Value), Params: make(map[string]expr.Value)}
	for _, id := range ids {
		a, err := c.ident(id)
		if err != nil {
			return expr.Valuation{}, err
		}
		var v C.Z3_ast
		// Completion gives a value even to a constant the model leaves
		// free (one that does not matter).
		if !C.Z3_model_eval(c.z, mdl, a, true, &v) {
			return expr.Valuation{}, c.lastError("evaluate " + id.Name)
		}
		if _, err := c.temp(v, "evaluate "+id.Name); err != nil {
			return expr.Valuation{}, err
		}
		x, err := c.decode(v)
		if err != nil {
			return expr.Valuation{}, err
		}
		val2, err := literalValue(x)
		if err != nil {
			return expr.Valuation{}, err
		}
		if val2.T != id.T {
			return expr.Valuation{}, errors.New("solver: model value of " + id.Name + " has type " + val2.T.String())
		}
		if id.Kind == expr.ParamIdent {
			val.Params[id.Name] = val2
		} else {
			val.Vars[id.Name] = val2
		}
	}
	return val, nil
}

func literalValue(e expr.Expr) (expr.Value, error) {
	switch e := e.(type) {
	case *expr.IntLit:
		return expr.IntValue(e.Val), nil
	case *expr.RealLit:
		return expr.RatValue(e.Val), nil
	case *expr.BoolLit:
		return expr.BoolValue(e.Val), nil
	case *expr.EnumLit:
		return expr.EnumValue(e.Enum, e.Index), nil
	case *expr.StrLit:
		return expr.StringValue(e.Val), nil
	}
	return expr.Value{}, errors.New("solver: model value " + expr.Format(e) + " is not a constant")
}
