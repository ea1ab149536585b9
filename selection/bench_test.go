package selection_test

import (
	"fmt"
	"testing"

	"github.com/stg-tool/stg/internal/exampletest"
	"github.com/stg-tool/stg/internal/ring"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/selection"
	"github.com/stg-tool/stg/spec/specfile"
)

// BenchmarkSelectRing measures the selection alone (Keep/Inconc and the
// readable guards) on the ring family (internal/ring), the product and
// its polyhedra analysis computed once beforehand by the pipeline.
func BenchmarkSelectRing(b *testing.B) {
	for _, n := range []int{100, 400, 1600} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			s, err := specfile.ParseModel("ring.yaml", []byte(ring.Spec(n)), nil)
			if err != nil {
				b.Fatal(err)
			}
			tp, err := specfile.ParseModel("ring-purpose.yaml", []byte(ring.Purpose(n)), s)
			if err != nil {
				b.Fatal(err)
			}
			ctx := exampletest.Context(b)
			res, err := pipeline.Models(ctx, s, tp, pipeline.Options{Domain: "polyhedra"})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := selection.Select(exampletest.Context(b), res.Product, res.Analysis); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
