package selection

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stg-tool/stg/abstraction"
)

// between returns lo <= x_d <= hi.
func between(d int, lo, hi int64) []abstraction.Constraint {
	x := abstraction.Var(d)
	return []abstraction.Constraint{
		{Expr: abstraction.Const(big.NewRat(lo, 1)).Sub(x), Op: abstraction.Le},
		{Expr: x.Sub(abstraction.Const(big.NewRat(hi, 1))), Op: abstraction.Le},
	}
}

// TestBlocks: independent bounds stay in blocks of one dimension, a
// constraint that links two of them merges their blocks, emptiness of
// one block is emptiness of the whole, and a point is made of vertices
// of every block.
func TestBlocks(t *testing.T) {
	const k = 12
	var names []string
	var ints []bool
	for i := 0; i < k; i++ {
		names, ints = append(names, fmt.Sprintf("v%d", i)), append(ints, true)
	}
	sp := abstraction.NewSpace(names, ints)
	var cs []abstraction.Constraint
	for i := 0; i < k; i++ {
		cs = append(cs, between(i, 1, 100)...)
	}
	b := mustMeet(t, universeBlocks(sp), cs)
	if n := live(b); n != k || b.empty {
		t.Fatalf("%d blocks (empty %v), want %d", n, b.empty, k)
	}
	// v0 + v1 == 150 links two blocks; the bounds of the others stay apart.
	link := abstraction.Constraint{Expr: abstraction.Var(0).Add(abstraction.Var(1)).Sub(abstraction.Const(big.NewRat(150, 1))), Op: abstraction.Eq}
	c := mustMeet(t, b, []abstraction.Constraint{link})
	if n := live(c); n != k-1 || c.owner[0] != c.owner[1] {
		t.Errorf("after the link: %d blocks, owners %v", n, c.owner)
	}
	if live(b) != k {
		t.Errorf("meet changed its receiver")
	}
	n := 0
	for pt := range c.points {
		n++
		if new(big.Rat).Add(pt[0], pt[1]).Cmp(big.NewRat(150, 1)) != 0 {
			t.Errorf("point %v does not satisfy v0 + v1 == 150", pt)
		}
		for d := 2; d < k; d++ {
			if pt[d].Cmp(big.NewRat(1, 1)) < 0 || pt[d].Cmp(big.NewRat(100, 1)) > 0 {
				t.Errorf("point %v is out of bounds at v%d", pt, d)
			}
		}
	}
	if n == 0 || n > maxTries {
		t.Errorf("%d points, want 1 to %d", n, maxTries)
	}
	// v5 >= 200 empties the block of v5, hence the value.
	if e := mustMeet(t, c, between(5, 200, 300)); !e.empty {
		t.Errorf("v5 in [1, 100] and [200, 300]: not empty")
	}
	// A constraint over maxBlockDims + 1 variables makes too large a block.
	sum := abstraction.Const(big.NewRat(-1, 1))
	for i := 0; i <= maxBlockDims; i++ {
		sum = sum.Add(abstraction.Var(i))
	}
	if _, ok := c.meet([]abstraction.Constraint{{Expr: sum, Op: abstraction.Le}}); ok {
		t.Errorf("a block of %d dimensions was made", maxBlockDims+1)
	}
}

func mustMeet(t *testing.T, b *blocks, cs []abstraction.Constraint) *blocks {
	t.Helper()
	r, ok := b.meet(cs)
	if !ok {
		t.Fatalf("meet refused")
	}
	return r
}

func live(b *blocks) int {
	n := 0
	for _, p := range b.polys {
		if p != nil {
			n++
		}
	}
	return n
}
