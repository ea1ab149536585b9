package abstraction

import (
	"fmt"
	"math/big"
	"testing"
)

var benchDims = []int{2, 4, 8, 16, 30}

func benchSpace(n int) *Space {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("x%d", i)
	}
	return NewSpace(names, nil)
}

// benchChain returns {lo <= x0 <= x1 <= ... <= x(n-1) <= hi}, a simplex
// typical of loop invariants over ordered counters.
func benchChain(sp *Space, lo, hi int64) Value {
	n := sp.Dim()
	cs := []Constraint{{Const(big.NewRat(lo, 1)).Sub(Var(0)), Le}, {Var(n - 1).Sub(Const(big.NewRat(hi, 1))), Le}}
	for i := 1; i < n; i++ {
		cs = append(cs, Constraint{Var(i - 1).Sub(Var(i)), Le})
	}
	return Polyhedra().Universe(sp).MeetConstraints(cs)
}

// BenchmarkPolyhedraJoin joins an invariant with its image by a
// transition incrementing x0, as in one step of a fixpoint iteration.
func BenchmarkPolyhedraJoin(b *testing.B) {
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("dim=%d", n), func(b *testing.B) {
			sp := benchSpace(n)
			p := benchChain(sp, 0, 10)
			q := p.Image(map[int]LinExpr{0: Var(0).Add(Const(big.NewRat(1, 1)))})
			b.ResetTimer()
			for b.Loop() {
				p.Join(q)
			}
		})
	}
}

func BenchmarkPolyhedraInclude(b *testing.B) {
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("dim=%d", n), func(b *testing.B) {
			sp := benchSpace(n)
			p := benchChain(sp, 0, 10)
			q := benchChain(sp, 1, 9)
			b.ResetTimer()
			for b.Loop() {
				if !p.Includes(q) {
					b.Fatal("not included")
				}
			}
		})
	}
}

func BenchmarkPolyhedraForget(b *testing.B) {
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("dim=%d", n), func(b *testing.B) {
			sp := benchSpace(n)
			p := benchChain(sp, 0, 10)
			b.ResetTimer()
			for b.Loop() {
				p.Forget(n / 2)
			}
		})
	}
}

// BenchmarkPolyhedraMeet adds a cutting constraint to the invariant, as
// a guard does.
func BenchmarkPolyhedraMeet(b *testing.B) {
	for _, n := range benchDims {
		b.Run(fmt.Sprintf("dim=%d", n), func(b *testing.B) {
			sp := benchSpace(n)
			p := benchChain(sp, 0, 10)
			g := []Constraint{{Var(0).Add(Var(n - 1)).Sub(Const(big.NewRat(12, 1))), Le}}
			b.ResetTimer()
			for b.Loop() {
				p.MeetConstraints(g)
			}
		})
	}
}

func BenchmarkIntervalJoin(b *testing.B) {
	sp := benchSpace(6)
	var cs, ds []Constraint
	for i := 0; i < 6; i++ {
		cs = append(cs, Constraint{Var(i).Sub(Const(big.NewRat(int64(i), 1))), Le})
		ds = append(ds, Constraint{Const(big.NewRat(int64(-i), 1)).Sub(Var(i)), Le})
	}
	p := Intervals().Universe(sp).MeetConstraints(cs)
	q := Intervals().Universe(sp).MeetConstraints(ds)
	b.ResetTimer()
	for b.Loop() {
		p.Join(q)
	}
}

// BenchmarkPolyhedraImage applies x0 := x0 + 1 (invertible) and
// x0 := x1 (not invertible).
func BenchmarkPolyhedraImage(b *testing.B) {
	for _, n := range benchDims {
		sp := benchSpace(n)
		p := benchChain(sp, 0, 10)
		for _, a := range []struct {
			name string
			m    map[int]LinExpr
		}{
			{"inc", map[int]LinExpr{0: Var(0).Add(Const(big.NewRat(1, 1)))}},
			{"copy", map[int]LinExpr{0: Var(n - 1)}},
		} {
			b.Run(fmt.Sprintf("%s/dim=%d", a.name, n), func(b *testing.B) {
				for b.Loop() {
					p.Image(a.m)
				}
			})
		}
	}
}

func BenchmarkPolyhedraPreimage(b *testing.B) {
	for _, n := range benchDims {
		sp := benchSpace(n)
		p := benchChain(sp, 0, 10)
		m := map[int]LinExpr{0: Var(0).Add(Const(big.NewRat(1, 1)))}
		b.Run(fmt.Sprintf("inc/dim=%d", n), func(b *testing.B) {
			for b.Loop() {
				p.Preimage(m)
			}
		})
	}
}

// BenchmarkPolyhedraFixpoint runs a forward reachability fixpoint over a
// synthetic system of 800 locations and 6 variables: location l has a
// transition to l+1 (guard x[l%6] <= x[(l+1)%6] + 50, x[l%6] := x[l%6] + 1)
// and every 10th location a back edge to l-9 (guard x0 <= 1000,
// x[l%6] := x[(l+3)%6]), with widening (delay 2) at back edge targets.
// It is the scale the fixpoint engine is expected to handle.
func BenchmarkPolyhedraFixpoint(b *testing.B) {
	const nloc, nvar = 800, 6
	sp := benchSpace(nvar)
	type edge struct {
		to     int
		guard  []Constraint
		assign map[int]LinExpr
	}
	edges := make([][]edge, nloc)
	head := make([]bool, nloc)
	for l := 0; l < nloc; l++ {
		i, j := l%nvar, (l+1)%nvar
		if l+1 < nloc {
			edges[l] = append(edges[l], edge{l + 1,
				[]Constraint{{Var(i).Sub(Var(j)).Sub(Const(big.NewRat(50, 1))), Le}},
				map[int]LinExpr{i: Var(i).Add(Const(big.NewRat(1, 1)))}})
		}
		if l%10 == 9 {
			edges[l] = append(edges[l], edge{l - 9,
				[]Constraint{{Var(0).Sub(Const(big.NewRat(1000, 1))), Le}},
				map[int]LinExpr{i: Var((l + 3) % nvar)}})
			head[l-9] = true
		}
	}
	var init []Constraint
	for v := 0; v < nvar; v++ {
		init = append(init, Constraint{Var(v), Eq})
	}
	for b.Loop() {
		val := make([]Value, nloc)
		visits := make([]int, nloc)
		for l := range val {
			val[l] = Polyhedra().Empty(sp)
		}
		val[0] = Polyhedra().Universe(sp).MeetConstraints(init)
		work := []int{0}
		inWork := make([]bool, nloc)
		inWork[0] = true
		steps := 0
		for len(work) > 0 {
			l := work[0]
			work = work[1:]
			inWork[l] = false
			for _, e := range edges[l] {
				post := val[l].MeetConstraints(e.guard).Image(e.assign)
				old := val[e.to]
				if old.Includes(post) {
					continue
				}
				nv := old.Join(post)
				if head[e.to] {
					if visits[e.to]++; visits[e.to] > 2 {
						nv = old.Widen(nv, nil)
					}
				}
				val[e.to] = nv
				steps++
				if !inWork[e.to] {
					inWork[e.to] = true
					work = append(work, e.to)
				}
			}
		}
		b.ReportMetric(float64(steps), "updates")
	}
}

// BenchmarkPolyhedraJoinBig is BenchmarkPolyhedraJoin with bounds
// beyond 2^62 and an increment beyond 2^40: the vectors leave the
// machine integers and the conversions take the math/big path.
func BenchmarkPolyhedraJoinBig(b *testing.B) {
	for _, n := range []int{2, 8} {
		b.Run(fmt.Sprintf("dim=%d", n), func(b *testing.B) {
			sp := benchSpace(n)
			p := benchChain(sp, -(1 << 62), 1<<62+3)
			q := p.Image(map[int]LinExpr{0: Var(0).Add(Const(big.NewRat(1<<40+1, 1)))})
			b.ResetTimer()
			for b.Loop() {
				p.Join(q)
			}
		})
	}
}
