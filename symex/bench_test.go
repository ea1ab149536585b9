package symex

import (
	"fmt"
	"testing"

	"github.com/stg-tool/stg/summary"
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

// BenchmarkMicrogrid builds the trees of the rows of Tables 2 and 4 of
// the function-summaries paper on examples/microgrid (height 15, no
// quiescence, the reference implementation in process) and the
// uninterpreted baseline, reporting states, coverage and rows.
//
//	go test ./symex -run XXX -bench Microgrid -benchtime 10x
func BenchmarkMicrogrid(b *testing.B) {
	z := newContext(b)
	for _, c := range []struct {
		name   string
		tables string
		m      int
		funcs  Functions
	}{
		{"table1-m0", "", 0, Summaries},
		{"table1-m1", "", 1, Summaries},
		{"table1-m2", "", 2, Summaries},
		{"table3-m0", "tables-3.yaml", 0, Summaries},
		{"uninterpreted", "", 0, Uninterpreted},
	} {
		b.Run(c.name, func(b *testing.B) {
			var tr *Tree
			var e *Executor
			for i := 0; i < b.N; i++ {
				var err error
				e, err = NewExecutor(z, microgridExample(b, c.tables), Options{Depth: 15, NoDelta: true, Functions: c.funcs,
					Summary: summary.Options{M: c.m, Exec: microgridExec(new(int))}})
				if err != nil {
					b.Fatal(err)
				}
				if tr, err = e.Execute(nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(tr.Stats.Nodes), "states")
			b.ReportMetric(tr.Coverage.Percent(), "%coverage")
			if tab := e.Tab(); tab != nil {
				b.ReportMetric(float64(len(tab["INTGR"])), "INTGR-rows")
				b.ReportMetric(float64(len(tab["RISE"])), "RISE-rows")
			}
		})
	}
}
