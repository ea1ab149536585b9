package coreach

import (
	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/spec/expr"
)

// A pred is a predicate without conditional expressions lowered once
// for frame.meet: the same case analysis (negations pushed down, != as
// the join of < and >, conjunctions in sequence, disjunctions joined),
// its comparisons converted to constraints (and, for the polyhedra, to
// a Conjunction) when it is built rather than at every meet of the
// fixpoint iterations. evalPred(x, lower(e)) is frame.meet(x, e).
type pred struct {
	kind predKind
	cs   []abstraction.Constraint // predMeet: the comparison's constraints
	conj *abstraction.Conjunction // predMeet: cs converted, or nil
	x, y *pred                    // predAnd, predOr; predNe: the meets of < and >
}

type predKind uint8

const (
	predKeep  predKind = iota // not representable: x itself
	predFalse                 // the empty value
	predMeet                  // x met with cs
	predAnd                   // x met with x, then with y
	predOr                    // the join of the two meets
	predNe                    // the join of the meets x and y (x != y)
)

// lower builds the pred of e, which must have no conditional
// expression; with batch the constraints are converted for the
// polyhedra of f's space.
func (f *frame) lower(e expr.Expr, batch bool) *pred {
	leaf := func(cs []abstraction.Constraint) *pred {
		p := &pred{kind: predMeet, cs: cs}
		if batch {
			p.conj = abstraction.NewConjunction(f.space, cs)
		}
		return p
	}
	switch e := e.(type) {
	case *expr.BoolLit:
		if e.Val {
			return &pred{kind: predKeep}
		}
		return &pred{kind: predFalse}
	case *expr.Unary:
		if e.Op == expr.Not {
			if n, ok := negate(e.X); ok {
				return f.lower(n, batch)
			}
		}
	case *expr.Binary:
		switch e.Op {
		case expr.And:
			return &pred{kind: predAnd, x: f.lower(e.X, batch), y: f.lower(e.Y, batch)}
		case expr.Or:
			return &pred{kind: predOr, x: f.lower(e.X, batch), y: f.lower(e.Y, batch)}
		case expr.Ne:
			if e.X.Type().IsNumeric() {
				lt, ok1 := f.atom(expr.Lt, e.X, e.Y)
				gt, ok2 := f.atom(expr.Gt, e.X, e.Y)
				if ok1 && ok2 {
					return &pred{kind: predNe, x: leaf(lt), y: leaf(gt)}
				}
			}
			return &pred{kind: predKeep}
		}
		if e.Op.IsComparison() {
			if cs, ok := f.atom(e.Op, e.X, e.Y); ok {
				return leaf(cs)
			}
		}
	}
	return &pred{kind: predKeep}
}

// evalPred returns an over-approximation of X ∧ p, the value frame.meet
// returns for the predicate p was lowered from.
func evalPred(x abstraction.Value, p *pred) abstraction.Value {
	if x.IsEmpty() {
		return x
	}
	switch p.kind {
	case predFalse:
		return x.Meet(emptyOf(x))
	case predMeet:
		return meetLeaf(x, p)
	case predAnd:
		return evalPred(evalPred(x, p.x), p.y)
	case predOr:
		l := evalPred(x, p.x)
		if l == x {
			return x // see keepsAll
		}
		return l.Join(evalPred(x, p.y))
	case predNe:
		l := meetLeaf(x, p.x)
		if l == x {
			return x
		}
		return l.Join(meetLeaf(x, p.y))
	}
	return x
}

// keepsAll: a disjunction whose first case keeps X whole (the meet
// returned X itself: X entails it) is X, since the other case's value
// is included in X and the join of X with a part of X is X. The
// purpose's ¬(s == 199 ∧ r == 170) at every stage of a ring, s != 199
// ∨ r != 170, then costs the entailment test of s < 199 instead of
// four meets and three joins.

func meetLeaf(x abstraction.Value, p *pred) abstraction.Value {
	if p.conj != nil {
		return abstraction.MeetConjunction(x, p.conj)
	}
	return x.MeetConstraints(p.cs)
}

// compiledGuards holds the compiled guards by action and text: the
// stages of a long spec repeat the same guards, which are then
// compiled (and their thresholds collected) once and share their
// constraints. A guard is taken only for an equal predicate of the
// same action (whose parameters have the same types).
type compiledGuards map[string][]compiledGuard

type compiledGuard struct {
	e expr.Expr
	g guard
}

func guardKey(action string, e expr.Expr) string { return action + "\x00" + expr.Format(e) }

func (c compiledGuards) find(action string, e expr.Expr) (guard, bool) {
	for _, x := range c[guardKey(action, e)] {
		if expr.Equal(x.e, e) {
			return x.g, true
		}
	}
	return guard{}, false
}

func (c compiledGuards) add(action string, e expr.Expr, g guard) {
	k := guardKey(action, e)
	c[k] = append(c[k], compiledGuard{e, g})
}
