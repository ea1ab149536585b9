package coreach_test

import (
	"fmt"
	"testing"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/internal/ring"
	"github.com/stg-tool/stg/spec/specfile"
)

// BenchmarkAnalyzeRing measures the polyhedra analysis alone (reach,
// coreach, descending iterations) on the ring family (internal/ring),
// the product built once beforehand.
func BenchmarkAnalyzeRing(b *testing.B) {
	for _, n := range []int{100, 400} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			s, err := specfile.ParseModel("ring2.yaml", []byte(ring.Spec(n)), nil)
			if err != nil {
				b.Fatal(err)
			}
			tp, err := specfile.ParseModel("big.yaml", []byte(ring.Purpose(n)), s)
			if err != nil {
				b.Fatal(err)
			}
			p := buildModels(b, newContext(b), s, tp)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, err := coreach.Analyze(p, abstraction.Polyhedra(), coreach.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
