package tour

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// checkTour asserts what a covering tour of g must be, whatever its
// length: every path is a walk from the initial node to a final node,
// every coverable edge is traversed, and the partition into coverable and
// uncoverable edges is the one an independent search gives.
func checkTour(t *testing.T, g *Graph, tr *Tour) {
	t.Helper()
	covered := make([]bool, len(g.Edges))
	for k, p := range tr.Paths {
		if len(p) == 0 {
			t.Fatalf("path %d is empty", k)
		}
		at := g.Initial
		for _, e := range p {
			if g.Edges[e].From != at {
				t.Fatalf("path %d: edge %d leaves %d, the walk is at %d", k, e, g.Edges[e].From, at)
			}
			at = g.Edges[e].To
			covered[e] = true
		}
		if !g.isFinal(at) {
			t.Fatalf("path %d ends at %d, not a final node", k, at)
		}
	}
	want := bruteCoverable(g)
	for i := range g.Edges {
		if want[i] && !covered[i] {
			t.Fatalf("coverable edge %d (%v) is not covered by %v", i, g.Edges[i], tr.Paths)
		}
		if !want[i] && covered[i] {
			t.Fatalf("edge %d (%v) lies on no initial-final path yet is covered", i, g.Edges[i])
		}
	}
	if len(tr.Coverable)+len(tr.Uncoverable) != len(g.Edges) {
		t.Fatalf("coverable %v + uncoverable %v do not partition %d edges", tr.Coverable, tr.Uncoverable, len(g.Edges))
	}
	for _, i := range tr.Coverable {
		if !want[i] {
			t.Fatalf("edge %d reported coverable", i)
		}
	}
}

// bruteCoverable marks the edges on some walk from the initial node to a
// final node, by checking every edge with a fresh search each way.
func bruteCoverable(g *Graph) []bool {
	r := make([]bool, len(g.Edges))
	for i, e := range g.Edges {
		r[i] = reaches(g, g.Initial, e.From) && reachesFinal(g, e.To)
	}
	return r
}

func reaches(g *Graph, from, to int) bool {
	seen := map[int]bool{from: true}
	for changed := true; changed; {
		changed = false
		for _, e := range g.Edges {
			if seen[e.From] && !seen[e.To] {
				seen[e.To], changed = true, true
			}
		}
	}
	return seen[to]
}

func reachesFinal(g *Graph, from int) bool {
	for _, f := range g.Final {
		if reaches(g, from, f) {
			return true
		}
	}
	return false
}

// bruteOptimum is the least total length of a set of initial-to-final
// walks covering the coverable edges: a shortest path, by breadth-first
// search with 0-cost resets, over (node, set of covered edges), where a
// reset from a final node back to the initial node separates two walks.
// It returns 0 when nothing is coverable.
func bruteOptimum(g *Graph) int {
	want := bruteCoverable(g)
	full := 0
	for i, w := range want {
		if w {
			full |= 1 << i
		}
	}
	if full == 0 {
		return 0
	}
	type state struct{ node, mask int }
	dist := map[state]int{{g.Initial, 0}: 0}
	deque := []state{{g.Initial, 0}}
	for len(deque) > 0 {
		s := deque[0]
		deque = deque[1:]
		d := dist[s]
		if s.mask == full && g.isFinal(s.node) {
			return d
		}
		if g.isFinal(s.node) {
			r := state{g.Initial, s.mask}
			if old, ok := dist[r]; !ok || d < old {
				dist[r] = d
				deque = append([]state{r}, deque...)
			}
		}
		for i, e := range g.Edges {
			if e.From != s.node || !want[i] {
				continue
			}
			n := state{e.To, s.mask | 1<<i}
			if old, ok := dist[n]; !ok || d+1 < old {
				dist[n] = d + 1
				deque = append(deque, n)
			}
		}
	}
	panic("coverable edges but no covering walk")
}

func TestCoverHand(t *testing.T) {
	tests := []struct {
		name   string
		g      Graph
		length int
		paths  int
	}{
		{"single edge", Graph{Nodes: 2, Edges: []Edge{{0, 1}}, Final: []int{1}}, 1, 1},
		{"diamond", Graph{Nodes: 4, Edges: []Edge{{0, 1}, {0, 2}, {1, 3}, {2, 3}}, Final: []int{3}}, 4, 2},
		// 0 -> 1 -> 2 (final) and 2 -> 0: the back edge must be followed by 0 -> 1 -> 2 again.
		{"cycle through the final", Graph{Nodes: 3, Edges: []Edge{{0, 1}, {1, 2}, {2, 0}}, Final: []int{2}}, 5, 1},
		// the initial node is final: one closed walk suffices.
		{"initial final", Graph{Nodes: 2, Edges: []Edge{{0, 1}, {1, 0}}, Final: []int{0}}, 2, 1},
		// a loop on the way, parallel edges, and a dead end that is not covered.
		{"loop, parallel, dead end", Graph{Nodes: 4, Edges: []Edge{{0, 1}, {1, 1}, {1, 2}, {1, 2}, {1, 3}}, Final: []int{2}}, 5, 2},
		{"unreachable final", Graph{Nodes: 3, Edges: []Edge{{1, 2}}, Final: []int{2}}, 0, 0},
		{"two finals", Graph{Nodes: 4, Edges: []Edge{{0, 1}, {1, 2}, {1, 3}, {2, 3}}, Final: []int{2, 3}}, 5, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Cover(&tt.g)
			if err != nil {
				t.Fatal(err)
			}
			checkTour(t, &tt.g, tr)
			if tr.Length() != tt.length || len(tr.Paths) != tt.paths {
				t.Errorf("got %d paths of total length %d: %v; want %d paths, length %d", len(tr.Paths), tr.Length(), tr.Paths, tt.paths, tt.length)
			}
			if opt := bruteOptimum(&tt.g); opt != tt.length {
				t.Errorf("brute force optimum %d, table says %d", opt, tt.length)
			}
		})
	}
}

func TestCoverDeterministic(t *testing.T) {
	g := &Graph{Nodes: 4, Edges: []Edge{{0, 1}, {1, 1}, {1, 2}, {2, 1}, {1, 3}, {3, 0}}, Final: []int{3}}
	a, _ := Cover(g)
	b, _ := Cover(g)
	if fmt.Sprint(a.Paths) != fmt.Sprint(b.Paths) {
		t.Errorf("two runs differ: %v and %v", a.Paths, b.Paths)
	}
}

func TestCoverErrors(t *testing.T) {
	for _, g := range []Graph{
		{Nodes: 0},
		{Nodes: 2, Initial: 2},
		{Nodes: 2, Final: []int{-1}},
		{Nodes: 2, Edges: []Edge{{0, 5}}},
	} {
		if _, err := Cover(&g); err == nil {
			t.Errorf("Cover(%+v): no error", g)
		}
	}
}

// TestCoverOptimal is the property test: on random graphs of at most 5
// nodes and 8 edges, the tour is a valid covering tour and its length is
// the brute-force optimum.
func TestCoverOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	for i := 0; i < 3000; i++ {
		n := 1 + rng.IntN(5)
		g := &Graph{Nodes: n, Initial: rng.IntN(n)}
		for k := rng.IntN(9); k > 0; k-- {
			g.Edges = append(g.Edges, Edge{rng.IntN(n), rng.IntN(n)})
		}
		for v := 0; v < n; v++ {
			if rng.IntN(3) == 0 {
				g.Final = append(g.Final, v)
			}
		}
		tr, err := Cover(g)
		if err != nil {
			t.Fatalf("graph %+v: %v", g, err)
		}
		checkTour(t, g, tr)
		if got, want := tr.Length(), bruteOptimum(g); got != want {
			t.Fatalf("graph %+v: tour %v of length %d, optimum %d", g, tr.Paths, got, want)
		}
	}
}

// TestCoverLarger: on larger random graphs (up to 12 nodes, 40 edges),
// where brute force is out of reach, the tour is still a valid covering
// tour, no shorter than the number of coverable edges.
func TestCoverLarger(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	for i := 0; i < 300; i++ {
		n := 1 + rng.IntN(12)
		g := &Graph{Nodes: n, Initial: rng.IntN(n), Final: []int{rng.IntN(n)}}
		for k := rng.IntN(41); k > 0; k-- {
			g.Edges = append(g.Edges, Edge{rng.IntN(n), rng.IntN(n)})
		}
		tr, err := Cover(g)
		if err != nil {
			t.Fatalf("graph %+v: %v", g, err)
		}
		checkTour(t, g, tr)
		if tr.Length() < len(tr.Coverable) {
			t.Fatalf("graph %+v: length %d below %d coverable edges", g, tr.Length(), len(tr.Coverable))
		}
	}
}
