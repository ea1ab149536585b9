package tour

// paths builds an Euler circuit of the multigraph in which arc i is
// traversed counts[i] times (Hierholzer's algorithm, from the initial
// node), rotates it to end with a reset and cuts it at the resets into
// paths of original edges. Empty paths (two resets in a row) are dropped.
func (m *multigraph) paths(counts []int) []Path {
	circuit := m.circuit(counts)
	last := -1
	for i, a := range circuit {
		if m.arcs[a].edge < 0 {
			last = i
		}
	}
	circuit = append(circuit[last+1:], circuit[:last+1]...)
	var paths []Path
	var cur Path
	for _, a := range circuit {
		if e := m.arcs[a].edge; e >= 0 {
			cur = append(cur, e)
			continue
		}
		if len(cur) > 0 {
			paths = append(paths, cur)
		}
		cur = nil
	}
	return paths
}

// circuit returns the arcs of an Euler circuit from the initial node, in
// order; arcs leave a node in the order they were added.
func (m *multigraph) circuit(counts []int) []int {
	out := make([][]int, m.nodes) // arc instances leaving each node
	for i, a := range m.arcs {
		for k := 0; k < counts[i]; k++ {
			out[a.from] = append(out[a.from], i)
		}
	}
	used := make([]int, m.nodes)
	type frame struct{ node, arc int }
	stack := []frame{{m.initial, -1}}
	var rev []int
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if used[top.node] < len(out[top.node]) {
			a := out[top.node][used[top.node]]
			used[top.node]++
			stack = append(stack, frame{m.arcs[a].to, a})
			continue
		}
		stack = stack[:len(stack)-1]
		if top.arc >= 0 {
			rev = append(rev, top.arc)
		}
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
