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
			if g.sign(0) <= 0 {
				continue // a ray, not a point
			}
			if integral && !integralPoint(p.sp, g, &q, &r) {
				continue
			}
			pt := make([]*big.Rat, g.len()-1)
			for i := range pt {
				if g.b == nil {
					pt[i] = new(big.Rat).SetFrac64(g.s[i+1], g.s[0])
				} else {
					pt[i] = new(big.Rat).SetFrac(g.at(i+1, new(big.Int)), g.at(0, new(big.Int)))
				}
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
	var a, d big.Int
	one := g.b == nil && g.s[0] == 1
	for i := 1; i < g.len(); i++ {
		if one || !sp.isInt(i-1) {
			continue
		}
		if g.b == nil {
			if g.s[i]%g.s[0] != 0 {
				return false
			}
			continue
		}
		if q.QuoRem(g.at(i, &a), g.at(0, &d), r); r.Sign() != 0 {
			return false
		}
	}
	return true
}
