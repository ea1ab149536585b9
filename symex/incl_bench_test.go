package symex

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// BenchmarkInclusion unfolds the tree restricted by inclusion of
// examples/EX/spec.yaml with the default node bound of stg symex (2,000)
// and reports nodes, cuts and whether the bound was reached.
//
//	go test ./symex -run XXX -bench Inclusion -benchtime 1x
func BenchmarkInclusion(b *testing.B) {
	for _, ex := range []string{"account", "atm-paper", "atm", "buffer", "cmp", "jobs", "lucky", "quidonc", "retry", "tank", "vending"} {
		m, err := specfile.LoadFile(filepath.Join("..", "examples", ex, "spec.yaml"), nil)
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

// BenchmarkATMPaperHeight unfolds examples/atm-paper to height 10 and
// 12 (154,005 nodes), each child checked in one-shot queries (height 10
// only) or by the executor's default (incremental), and reports the
// time per node and the solver's queries per node. After each unfolding
// by default, "floor" walks the same tree depth-first with one solver:
// at each node one push, the node's new conjuncts asserted, one check,
// its children, one pop. That is the incremental-check floor per node
// (issue 25), measured in the same run as the executor.
//
//	go test ./symex -run XXX -bench ATMPaperHeight -benchtime 1x
func BenchmarkATMPaperHeight(b *testing.B) {
	m, err := specfile.LoadFile(filepath.Join("..", "examples", "atm-paper", "spec.yaml"), nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		h       int
		oneShot bool
	}{{10, true}, {10, false}, {12, false}} {
		name := fmt.Sprintf("height%d/incremental", c.h)
		if c.oneShot {
			name = fmt.Sprintf("height%d/one-shot", c.h)
		}
		var tr *Tree
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				z := newContext(b)
				tr = execute(b, z, m, Options{Depth: c.h, MaxNodes: 200000, NoIncremental: c.oneShot})
			}
			b.ReportMetric(float64(tr.Stats.Nodes), "nodes")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(tr.Stats.Nodes)/1000, "µs/node")
			b.ReportMetric(float64(tr.Stats.Queries)/float64(tr.Stats.Nodes), "queries/node")
		})
		if c.oneShot || tr == nil {
			continue
		}
		b.Run(fmt.Sprintf("height%d/floor", c.h), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s := newContext(b).NewSolver()
				if err := s.Assert(tr.Root.State.PC); err != nil {
					b.Fatal(err)
				}
				if err := walkFloor(s, tr.Root); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(tr.Stats.Nodes)/1000, "µs/node")
		})
	}
}

// walkFloor checks n's children depth-first, each in a scope of its own
// holding its new conjuncts, nested along the path.
func walkFloor(s *solver.Solver, n *Node) error {
	for _, c := range n.Children {
		s.Push()
		if err := s.Assert(expr.AndOf(addedTo(c.State.PC, n.State.PC)...)); err != nil {
			return err
		}
		if r, err := s.Check(); err != nil || r == solver.Unsat {
			return fmt.Errorf("%s: %v %v", c.PathString(), r, err)
		}
		if err := walkFloor(s, c); err != nil {
			return err
		}
		s.Pop(1)
	}
	return nil
}
