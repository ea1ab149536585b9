package abstraction

import (
	"iter"
	"math/big"
)

// Vertices yields the points among the generators of a polyhedron (its
// vertices when it has no lines), one coordinate per dimension of its
// space, in the order of its generator system. Each is a point of the
// value. With integral set, only the points whose coordinates on the
// integer dimensions of the space are integers are yielded. It yields
// nothing for an empty value and for a value of another domain.
//
// A caller that needs a point of the integer dimensions (a model of a
// linear formula over the integers) may look for one among them; the
// tightening of MeetConstraints often makes the vertices integral.
func Vertices(v Value, integral bool) iter.Seq[[]*big.Rat] {
	return func(yield func([]*big.Rat) bool) {
		p, ok := v.(*poly)
		if !ok || p.empty {
			return
		}
		var q, r big.Int
		for _, g := range p.rays {
			if g[0].Sign() <= 0 {
				continue // a ray, not a point
			}
			if integral && !integralPoint(p.sp, g, &q, &r) {
				continue
			}
			pt := make([]*big.Rat, len(g)-1)
			for i := range pt {
				pt[i] = new(big.Rat).SetFrac(&g[i+1], &g[0])
			}
			if !yield(pt) {
				return
			}
		}
	}
}

// integralPoint reports whether the point g[1:]/g[0] has integer
// coordinates on the integer dimensions of sp.
func integralPoint(sp *Space, g vec, q, r *big.Int) bool {
	one := g[0].IsInt64() && g[0].Int64() == 1
	for i := 1; i < len(g); i++ {
		if one || !sp.isInt(i-1) {
			continue
		}
		if x, ok := small(&g[i]); ok {
			if y, ok := small(&g[0]); ok {
				if x%y != 0 {
					return false
				}
				continue
			}
		}
		if q.QuoRem(&g[i], &g[0], r); r.Sign() != 0 {
			return false
		}
	}
	return true
}
