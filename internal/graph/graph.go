// Package graph holds the searches of a finite directed graph given by a
// successor function, written once for every package that walks one: the
// locations of a product (coreach), the nodes of a tour's graph (tour),
// the locations of a test case (runner). The graph is never built: next
// returns a node's successors (or, to search backwards, its
// predecessors), and a search visits each node once.
package graph

// Distances returns, for each node reachable from seeds by following
// next, the fewest edges from a seed to it: a breadth-first search, 0
// for a seed. A node that no seed reaches is not in the map.
func Distances[N comparable](seeds []N, next func(N) []N) map[N]int {
	dist := make(map[N]int, len(seeds))
	queue := make([]N, 0, len(seeds))
	for _, s := range seeds {
		if _, seen := dist[s]; !seen {
			dist[s] = 0
			queue = append(queue, s)
		}
	}
	for i := 0; i < len(queue); i++ {
		n := queue[i]
		for _, m := range next(n) {
			if _, seen := dist[m]; !seen {
				dist[m] = dist[n] + 1
				queue = append(queue, m)
			}
		}
	}
	return dist
}

// Reach returns the closure of seeds under next: the nodes reachable
// from a seed, the seeds included.
func Reach[N comparable](seeds []N, next func(N) []N) map[N]bool {
	in := map[N]bool{}
	for n := range Distances(seeds, next) {
		in[n] = true
	}
	return in
}
