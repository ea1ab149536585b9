package selection

import (
	"math/big"

	"github.com/stg-tool/stg/abstraction"
)

// A blocks value is a conjunction of polyhedra over disjoint sets of
// dimensions, the decomposition of the ELINA library (Singh, Püschel
// and Vechev, "Fast Polyhedra Abstract Domain", POPL 2017): constraints
// that share no variable, even through others, are kept in separate
// polyhedra. The generator system of a product of independent
// constraints is the product of theirs (a box over k variables has 2^k
// vertices as one polyhedron, 2 per block as k blocks), so that the
// questions of a spec with many independent variables stay cheap.
//
// Each block is a polyhedron of the whole space that constrains only
// the dimensions of its block; the value is their intersection, empty
// when one of them is. Values are immutable.
type blocks struct {
	space    *abstraction.Space
	universe abstraction.Value   // of the space, shared (values are immutable)
	owner    []int               // the block of each dimension, -1 when free
	polys    []abstraction.Value // by block; nil for a block merged into another
	empty    bool
}

func universeBlocks(sp *abstraction.Space) *blocks {
	b := &blocks{space: sp, universe: abstraction.Polyhedra().Universe(sp), owner: make([]int, sp.Dim())}
	for i := range b.owner {
		b.owner[i] = -1
	}
	return b
}

func (b *blocks) clone() *blocks {
	return &blocks{space: b.space, universe: b.universe, owner: append([]int(nil), b.owner...), polys: append([]abstraction.Value(nil), b.polys...)}
}

// maxBlockDims bounds the dimensions of one block: the generators of
// a polyhedron can number 2^dims (a box), and past about ten dimensions
// one question would cost more than the solver takes for it.
const maxBlockDims = 10

// meet returns b ∧ cs (tightened on integer dimensions, as
// abstraction's MeetConstraints does), or false when a block would
// link more than maxBlockDims dimensions.
func (b *blocks) meet(cs []abstraction.Constraint) (*blocks, bool) {
	if b.empty || len(cs) == 0 {
		return b, true
	}
	r := b.clone()
	universe := r.universe
	// Join the blocks that a constraint links, and the free dimensions
	// it reads; then add each constraint to its block.
	for _, c := range cs {
		dims := c.Expr.Dims()
		if len(dims) == 0 {
			if universe.MeetConstraints([]abstraction.Constraint{c}).IsEmpty() {
				return &blocks{space: r.space, universe: r.universe, empty: true}, true
			}
			continue
		}
		target := -1
		for _, d := range dims {
			switch o := r.owner[d]; {
			case o < 0:
			case target < 0:
				target = o
			case o != target:
				r.merge(target, o)
			}
		}
		if target < 0 {
			target = len(r.polys)
			r.polys = append(r.polys, universe)
		}
		for _, d := range dims {
			r.owner[d] = target
		}
	}
	byBlock := map[int][]abstraction.Constraint{}
	var order []int
	for _, c := range cs {
		dims := c.Expr.Dims()
		if len(dims) == 0 {
			continue
		}
		o := r.owner[dims[0]]
		if _, ok := byBlock[o]; !ok {
			order = append(order, o)
		}
		byBlock[o] = append(byBlock[o], c)
	}
	size := map[int]int{}
	for _, o := range r.owner {
		if size[o]++; o >= 0 && size[o] > maxBlockDims {
			return nil, false
		}
	}
	for _, o := range order {
		r.polys[o] = r.polys[o].MeetConstraints(byBlock[o])
		if r.polys[o].IsEmpty() {
			return &blocks{space: r.space, universe: r.universe, empty: true}, true
		}
	}
	return r, true
}

// merge moves block o into block a.
func (b *blocks) merge(a, o int) {
	b.polys[a] = b.polys[a].Meet(b.polys[o])
	b.polys[o] = nil
	for d, x := range b.owner {
		if x == o {
			b.owner[d] = a
		}
	}
}

// maxTries bounds the points a leaf tries as models.
const maxTries = 8

// points yields points of b made of a vertex of each block, integral on
// the integer dimensions (free dimensions are 0): first the first
// vertex of every block, then, one block at a time, its other vertices
// (at most maxTries in all).
func (b *blocks) points(yield func([]*big.Rat) bool) {
	if b.empty {
		return
	}
	var live []int
	firsts := map[int][]*big.Rat{}
	for o, p := range b.polys {
		if p == nil {
			continue
		}
		for pt := range abstraction.Vertices(p, true) {
			firsts[o] = pt
			break
		}
		if firsts[o] == nil {
			return // no integral vertex in this block
		}
		live = append(live, o)
	}
	compose := func(o int, v []*big.Rat) []*big.Rat {
		pt := make([]*big.Rat, len(b.owner))
		for d, x := range b.owner {
			switch {
			case x < 0:
				pt[d] = new(big.Rat)
			case x == o:
				pt[d] = v[d]
			default:
				pt[d] = firsts[x][d]
			}
		}
		return pt
	}
	if !yield(compose(-1, nil)) {
		return
	}
	tries := 1
	for _, o := range live {
		first := true
		for v := range abstraction.Vertices(b.polys[o], true) {
			if first {
				first = false
				continue
			}
			if tries++; tries > maxTries || !yield(compose(o, v)) {
				return
			}
		}
	}
}
