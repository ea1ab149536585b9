package abstraction

import "math/big"

// Vertices returns the points among the generators of a polyhedron (its
// vertices when it has no lines), one coordinate per dimension of its
// space, in the order of its generator system. Each is a point of the
// value. It returns nil for an empty value and for a value of another
// domain.
//
// A caller that needs a point of the integer dimensions (a model of a
// linear formula over the integers) may look for one among them; the
// tightening of MeetConstraints often makes the vertices integral.
func Vertices(v Value) [][]*big.Rat {
	p, ok := v.(*poly)
	if !ok || p.empty {
		return nil
	}
	var pts [][]*big.Rat
	for _, g := range p.rays {
		if g[0].Sign() <= 0 {
			continue // a ray, not a point
		}
		pt := make([]*big.Rat, len(g)-1)
		for i := range pt {
			pt[i] = new(big.Rat).SetFrac(&g[i+1], &g[0])
		}
		pts = append(pts, pt)
	}
	return pts
}
