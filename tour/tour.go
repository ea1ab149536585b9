package tour

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/internal/graph"
)

// Graph is a finite directed multigraph: nodes 0..Nodes-1, edges in
// order (parallel edges and self-loops allowed), an initial node and
// final nodes.
type Graph struct {
	Nodes   int
	Edges   []Edge
	Initial int
	Final   []int
}

// Edge is a directed edge From -> To.
type Edge struct{ From, To int }

// Path is a path of a tour: the indices in Graph.Edges of its edges, in
// order. It starts at the initial node and ends in a final node.
type Path []int

// Tour is a covering tour of a graph.
type Tour struct {
	Paths []Path
	// Coverable lists, in order, the edges lying on some path from the
	// initial node to a final node: the tour traverses each at least once.
	Coverable []int
	// Uncoverable lists the other edges, which no such path traverses.
	Uncoverable []int
}

// Length returns the total number of edges of the paths.
func (t *Tour) Length() int {
	n := 0
	for _, p := range t.Paths {
		n += len(p)
	}
	return n
}

// Validate checks that g is well formed: node indices in range.
func (g *Graph) Validate() error {
	if g.Nodes <= 0 {
		return errors.New("tour: a graph needs at least one node")
	}
	in := func(v int) bool { return v >= 0 && v < g.Nodes }
	if !in(g.Initial) {
		return fmt.Errorf("tour: initial node %d out of range 0..%d", g.Initial, g.Nodes-1)
	}
	for _, f := range g.Final {
		if !in(f) {
			return fmt.Errorf("tour: final node %d out of range 0..%d", f, g.Nodes-1)
		}
	}
	for i, e := range g.Edges {
		if !in(e.From) || !in(e.To) {
			return fmt.Errorf("tour: edge %d (%d -> %d) has a node out of range 0..%d", i, e.From, e.To, g.Nodes-1)
		}
	}
	return nil
}

// Cover returns a covering tour of g of minimal total length: paths from
// the initial node to final nodes traversing every coverable edge at
// least once. With no coverable edge it has no path.
func Cover(g *Graph) (*Tour, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	t := &Tour{}
	reach, coreach := g.reachable(), g.coreachable()
	for i, e := range g.Edges {
		if reach[e.From] && coreach[e.To] {
			t.Coverable = append(t.Coverable, i)
		} else {
			t.Uncoverable = append(t.Uncoverable, i)
		}
	}
	if len(t.Coverable) == 0 {
		return t, nil
	}
	m := g.multigraph(t.Coverable, reach)
	counts, ok := m.augment(g.isFinal(g.Initial))
	if !ok {
		return nil, errors.New("tour: internal error: no feasible flow on a strongly connected graph")
	}
	t.Paths = m.paths(counts)
	return t, nil
}

// reachable marks the nodes reachable from the initial node.
func (g *Graph) reachable() []bool {
	succ := make([][]int, g.Nodes)
	for _, e := range g.Edges {
		succ[e.From] = append(succ[e.From], e.To)
	}
	return search(succ, []int{g.Initial}, g.Nodes)
}

// coreachable marks the nodes from which a final node is reachable.
func (g *Graph) coreachable() []bool {
	pred := make([][]int, g.Nodes)
	for _, e := range g.Edges {
		pred[e.To] = append(pred[e.To], e.From)
	}
	return search(pred, g.Final, g.Nodes)
}

// search marks the nodes reachable from the nodes from by following
// next (indexed by node), from included.
func search(next [][]int, from []int, n int) []bool {
	in := graph.Reach(from, func(v int) []int { return next[v] })
	seen := make([]bool, n)
	for v := range in {
		seen[v] = true
	}
	return seen
}

func (g *Graph) isFinal(v int) bool {
	for _, f := range g.Final {
		if f == v {
			return true
		}
	}
	return false
}
