package tour

// multigraph is the graph the postman problem is solved on: the
// coverable edges (cost 1, traversed at least once) and the reset edges
// (cost 0) from the reachable final nodes to the initial node.
type multigraph struct {
	nodes   int
	initial int
	arcs    []arc
}

type arc struct {
	from, to int
	cost     int
	lower    int // least number of traversals
	edge     int // the index in Graph.Edges, or -1 for a reset
}

func (g *Graph) multigraph(coverable []int, reach []bool) *multigraph {
	m := &multigraph{nodes: g.Nodes, initial: g.Initial}
	for _, i := range coverable {
		e := g.Edges[i]
		m.arcs = append(m.arcs, arc{from: e.From, to: e.To, cost: 1, lower: 1, edge: i})
	}
	seen := make([]bool, g.Nodes)
	for _, f := range g.Final {
		if reach[f] && !seen[f] {
			seen[f] = true
			m.arcs = append(m.arcs, arc{from: f, to: g.Initial, cost: 0, edge: -1})
		}
	}
	return m
}

// augment returns how many times each arc is traversed in a cheapest
// Eulerian augmentation with at least one reset: when the initial node
// is final, its own reset (a free self-loop) is forced; otherwise each
// reset is forced in turn and the cheapest result kept.
func (m *multigraph) augment(initialFinal bool) ([]int, bool) {
	var best []int
	bestCost := -1
	for r, a := range m.arcs {
		if a.edge >= 0 || initialFinal && a.from != m.initial {
			continue
		}
		lower := make([]int, len(m.arcs))
		for i, b := range m.arcs {
			lower[i] = b.lower
		}
		lower[r] = 1
		counts, cost, ok := m.minCostFlow(lower)
		if ok && (bestCost < 0 || cost < bestCost) {
			best, bestCost = counts, cost
		}
	}
	return best, best != nil
}

// minCostFlow balances the multigraph whose arcs are traversed lower[i]
// times at least: it returns the traversal counts of a cheapest balanced
// (in-degree = out-degree everywhere) multigraph and its cost.
// Successive shortest paths on the residual graph, Bellman-Ford, from a
// super source feeding the nodes with more in- than out-traversals to a
// super sink fed by the others. Arcs are uncapacitated.
func (m *multigraph) minCostFlow(lower []int) ([]int, int, bool) {
	n := m.nodes + 2
	src, sink := m.nodes, m.nodes+1
	r := &residual{n: n, head: make([]int, n)}
	for i := range r.head {
		r.head[i] = -1
	}
	excess := make([]int, m.nodes)
	cost := 0
	for i, a := range m.arcs {
		excess[a.to] += lower[i]
		excess[a.from] -= lower[i]
		cost += lower[i] * a.cost
	}
	total := 0
	for _, x := range excess {
		if x > 0 {
			total += x
		}
	}
	arcID := make([]int, len(m.arcs))
	for i, a := range m.arcs {
		arcID[i] = r.add(a.from, a.to, total, a.cost)
	}
	for v, x := range excess {
		if x > 0 {
			r.add(src, v, x, 0)
		} else if x < 0 {
			r.add(v, sink, -x, 0)
		}
	}
	for sent := 0; sent < total; {
		pushed, c := r.augment(src, sink)
		if pushed == 0 {
			return nil, 0, false
		}
		sent += pushed
		cost += c
	}
	counts := make([]int, len(m.arcs))
	for i := range m.arcs {
		counts[i] = lower[i] + r.flow(arcID[i])
	}
	return counts, cost, true
}

// residual is a residual graph in the usual paired-edge layout: edge i
// and its reverse i^1.
type residual struct {
	n    int
	head []int
	to   []int
	cap  []int
	cost []int
	next []int
}

func (r *residual) add(u, v, capacity, cost int) int {
	id := len(r.to)
	r.to = append(r.to, v, u)
	r.cap = append(r.cap, capacity, 0)
	r.cost = append(r.cost, cost, -cost)
	r.next = append(r.next, r.head[u], r.head[v])
	r.head[u], r.head[v] = id, id+1
	return id
}

// flow returns the flow on edge id: the capacity of its reverse.
func (r *residual) flow(id int) int { return r.cap[id^1] }

// augment sends as much flow as a cheapest source-sink path of the
// residual graph carries; it returns the amount and its cost.
func (r *residual) augment(src, sink int) (int, int) {
	const inf = int(^uint(0) >> 2)
	dist := make([]int, r.n)
	via := make([]int, r.n)
	for i := range dist {
		dist[i], via[i] = inf, -1
	}
	dist[src] = 0
	for round := 0; round < r.n; round++ {
		changed := false
		for u := 0; u < r.n; u++ {
			if dist[u] == inf {
				continue
			}
			for e := r.head[u]; e >= 0; e = r.next[e] {
				if r.cap[e] > 0 && dist[u]+r.cost[e] < dist[r.to[e]] {
					dist[r.to[e]], via[r.to[e]] = dist[u]+r.cost[e], e
					changed = true
				}
			}
		}
		if !changed {
			break
		}
	}
	if dist[sink] == inf {
		return 0, 0
	}
	amount := inf
	for v := sink; v != src; v = r.to[via[v]^1] {
		amount = min(amount, r.cap[via[v]])
	}
	for v := sink; v != src; v = r.to[via[v]^1] {
		r.cap[via[v]] -= amount
		r.cap[via[v]^1] += amount
	}
	return amount, amount * dist[sink]
}
