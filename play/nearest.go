package play

import (
	"github.com/stg-tool/stg/spec/expr"
)

// maxReach bounds how far from its target nearest looks: 2^40.
const maxReach = int64(1) << 40

// nearest returns the value at an integral distance from t nearest to t
// that the assertions allow for id, looking on both sides of t in random
// order; false when there is none within maxReach (for a real id, when
// no value at an integral distance from t is allowed). It gallops and
// then bisects on the distance: about 2 log2(distance) checks.
func (c *Choice) nearest(id *expr.Ident, t expr.Value) (expr.Value, bool, error) {
	dirs := []int64{1, -1}
	if c.p.Rng.IntN(2) == 0 {
		dirs[0], dirs[1] = -1, 1
	}
	for _, dir := range dirs {
		at := func(d int64) expr.Expr { return expr.Arith(expr.Add, t.Expr(), offset(id.T, dir*d)) }
		within := func(d int64) expr.Expr { // a value between t and t+dir*d
			lo, hi := t.Expr(), at(d)
			if dir < 0 {
				lo, hi = hi, lo
			}
			return expr.AndOf(expr.Compare(expr.Ge, id, lo), expr.Compare(expr.Le, id, hi))
		}
		side := expr.Compare(expr.Ge, id, t.Expr())
		if dir < 0 {
			side = expr.Compare(expr.Le, id, t.Expr())
		}
		if ok, err := c.sat(side); err != nil || !ok {
			if err != nil {
				return expr.Value{}, false, err
			}
			continue
		}
		lo, hi := int64(-1), int64(0) // no value within lo; look up to hi
		for {
			ok, err := c.sat(within(hi))
			if err != nil {
				return expr.Value{}, false, err
			}
			if ok {
				break
			}
			if hi > maxReach {
				hi = -1
				break
			}
			lo, hi = hi, 2*hi+1
		}
		if hi < 0 {
			continue
		}
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			ok, err := c.sat(within(mid))
			if err != nil {
				return expr.Value{}, false, err
			}
			if ok {
				hi = mid
			} else {
				lo = mid
			}
		}
		v, err := expr.Eval(at(hi), expr.Valuation{})
		if err != nil {
			return expr.Value{}, false, err
		}
		return v, true, nil
	}
	return expr.Value{}, false, nil
}
