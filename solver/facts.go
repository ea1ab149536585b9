package solver

/*
#include "z3glue.h"
*/
import "C"

import (
	"github.com/stg-tool/stg/spec/expr"
)

// SetFacts makes the predicate facts a premise of every later question
// of c, replacing the facts set before (nil or true: none). Sat,
// Possible, Valid, Entails, Equivalent and Model then decide modulo the
// facts, and every Solver made afterwards starts with them asserted.
// Simplify and EliminateExists ignore them: their results are equivalent
// to their inputs without the facts, hence with them.
//
// Facts are what the caller knows to hold of every state it asks about,
// typically ground equalities F(123) == 228 on external functions (the
// rows of their tables): they narrow the interpretations of the
// uninterpreted functions to those the real functions belong to. Facts
// that do not hold of the real functions make every answer unsound.
//
// Setting other facts clears the memo (its answers were given under the
// old ones). An ill-typed predicate is an error and leaves c unchanged.
func (c *Context) SetFacts(facts expr.Expr) error {
	if err := c.usable(); err != nil {
		return err
	}
	if facts != nil && expr.IsTrue(facts) {
		facts = nil
	}
	if facts == nil && c.facts == nil || facts != nil && c.facts != nil && expr.Equal(facts, c.facts) {
		return nil
	}
	if facts != nil {
		m := c.mark()
		_, err := c.encodeBool(facts)
		c.release(m)
		if err != nil {
			return err
		}
	}
	c.facts = facts
	c.memo = memo{off: c.memo.off}
	if c.oneShot != nil {
		c.oneShot.Close()
		c.oneShot = nil
	}
	return nil
}

// Facts returns the facts set by SetFacts, or nil.
func (c *Context) Facts() expr.Expr { return c.facts }

// assertFacts asserts the context's facts in the new solver s.
func (s *Solver) assertFacts() error {
	c := s.c
	if c.facts == nil {
		return nil
	}
	m := c.mark()
	defer c.release(m)
	a, err := c.encodeBool(c.facts)
	if err != nil {
		return err
	}
	return s.add(a, uncounted(c.facts), "assert facts")
}
