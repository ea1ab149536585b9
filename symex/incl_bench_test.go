package symex

import (
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/spec"
)

// BenchmarkInclusion unfolds the tree restricted by inclusion of
// examples/EX/spec.yaml with the default node bound of stg symex (2,000)
// and reports nodes, cuts and whether the bound was reached.
//
//	go test ./symex -run XXX -bench Inclusion -benchtime 1x
func BenchmarkInclusion(b *testing.B) {
	for _, ex := range []string{"atm-paper", "atm", "buffer", "cmp", "jobs", "quidonc", "retry", "tank", "vending"} {
		m, err := spec.LoadFile(filepath.Join("..", "examples", ex, "spec.yaml"), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(ex, func(b *testing.B) {
			var tr *Tree
			for i := 0; i < b.N; i++ {
				z := newContext(b) // fresh: no memo across iterations
				tr = execute(b, z, m, Options{Inclusion: true, MaxNodes: maxNodesBench})
			}
			b.ReportMetric(float64(tr.Stats.Nodes), "nodes")
			b.ReportMetric(float64(tr.Stats.CutByInclusion), "cut")
			if tr.Stats.BoundReached {
				b.ReportMetric(1, "bounded")
			}
		})
	}
}

var maxNodesBench = 2000
