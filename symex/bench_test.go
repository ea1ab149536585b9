package symex

import (
	"fmt"
	"testing"
)

// BenchmarkTree unfolds every example's tree to depth 4, 6, 8 and 10
// (at most 20,000 nodes) and reports its size.
//
//	go test ./symex -run XXX -bench Tree -benchtime 1x
func BenchmarkTree(b *testing.B) {
	z := newContext(b)
	for name, m := range exampleSpecs(b) {
		for _, depth := range []int{4, 6, 8, 10} {
			b.Run(fmt.Sprintf("%s/depth%d", name, depth), func(b *testing.B) {
				var tr *Tree
				for i := 0; i < b.N; i++ {
					tr = execute(b, z, m, Options{Depth: depth, MaxNodes: 20000})
				}
				b.ReportMetric(float64(tr.Stats.Nodes), "nodes")
				if tr.Stats.BoundReached {
					b.ReportMetric(1, "bounded")
				}
			})
		}
		b.Run(name+"/inclusion", func(b *testing.B) {
			var tr *Tree
			for i := 0; i < b.N; i++ {
				tr = execute(b, z, m, Options{Inclusion: true, MaxNodes: 2000})
			}
			b.ReportMetric(float64(tr.Stats.Nodes), "nodes")
			b.ReportMetric(float64(tr.Stats.CutByInclusion), "cut")
		})
	}
}
