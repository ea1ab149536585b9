package predabs

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// ErrInfinite is returned by ReachableStates for a model with a
// variable whose domain is not finite (or too large to enumerate).
var ErrInfinite = errors.New("predabs: the state space is not finite")

// ReachableStates counts the concrete states of the semantics of b
// (valuations satisfying I) reachable from init, Table I's "#states M".
// Every variable must have a finite domain: a boolean, an enumeration,
// an integer with a range, or one the invariant bounds (Bounded);
// parameters may be unbounded: the successors of a state by an EGA are
// enumerated with Z3, each new one excluded by a blocking clause. It
// stops with an error beyond limit states.
func (b *Behaviour) ReachableStates(ctx *solver.Context, limit int) (int, error) {
	for _, v := range b.Vars {
		ok, err := b.Bounded(ctx, v)
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, fmt.Errorf("%w: %s", ErrInfinite, v.Name)
		}
	}
	seen := map[string]bool{}
	var queue []expr.Expr
	visit := func(state expr.Expr) error {
		k := expr.Format(state)
		if seen[k] {
			return nil
		}
		if len(seen) >= limit {
			return fmt.Errorf("predabs: more than %d reachable states", limit)
		}
		seen[k] = true
		queue = append(queue, state)
		return nil
	}
	if err := b.posts(ctx, expr.AndOf(b.Init, b.Invariant), nil, visit); err != nil {
		return 0, err
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, g := range b.EGAs {
			if err := b.posts(ctx, s, g, visit); err != nil {
				return 0, err
			}
		}
	}
	return len(seen), nil
}

// posts calls visit with each state (a conjunction of x == v) reachable
// from the states satisfying pre by g (pre itself when g is nil) that
// satisfies I.
func (b *Behaviour) posts(ctx *solver.Context, pre expr.Expr, g *EGA, visit func(expr.Expr) error) error {
	primed := map[string]expr.Expr{}
	var eqs []expr.Expr
	for _, v := range b.Vars {
		p := expr.VarRef(v.Name+"'", v.Type)
		primed[v.Name] = p
		val := v.Ref()
		if g != nil {
			val = g.Assign[v.Name]
		}
		eqs = append(eqs, expr.Compare(expr.Eq, p, val))
	}
	guard := expr.True()
	if g != nil {
		guard = g.Guard
	}
	f := expr.AndOf(pre, guard, expr.AndOf(eqs...), expr.Substitute(b.Invariant, primed, nil))
	for {
		val, ok, err := ctx.Model(f)
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		var state, block []expr.Expr
		for _, v := range b.Vars {
			x, ok := val.Vars[v.Name+"'"]
			if !ok {
				return fmt.Errorf("predabs: no value for %s in a successor", v.Name)
			}
			state = append(state, expr.Compare(expr.Eq, v.Ref(), x.Expr()))
			block = append(block, expr.Compare(expr.Eq, primed[v.Name], x.Expr()))
		}
		if err := visit(expr.AndOf(state...)); err != nil {
			return err
		}
		f = expr.AndOf(f, expr.NotOf(expr.AndOf(block...)))
	}
}

// farBound is the bound Bounded checks an integer against: 2^64.
var farBound = new(big.Int).Lsh(big.NewInt(1), 64)

// Bounded reports whether the variable v takes finitely many values in
// the states satisfying I: a boolean, an enumeration or a ranged integer
// does; an integer without range does when the invariant bounds it
// (I ∧ v >= 2^64 and I ∧ v <= -2^64 are both unsatisfiable). An
// undecided query counts as unbounded.
func (b *Behaviour) Bounded(ctx *solver.Context, v *Var) (bool, error) {
	if v.Type.Kind != expr.Int || v.Range != nil {
		return true, nil
	}
	for _, far := range []expr.Expr{
		expr.Compare(expr.Ge, v.Ref(), expr.BigIntConst(farBound)),
		expr.Compare(expr.Le, v.Ref(), expr.BigIntConst(new(big.Int).Neg(farBound))),
	} {
		ok, err := ctx.Possible(expr.AndOf(b.Invariant, far))
		if err != nil || ok {
			return false, err
		}
	}
	return true, nil
}
