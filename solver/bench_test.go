package solver

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/spec/expr"
)

// step returns the i-th of a family of related linear constraints over
// three ints, like a bounded planner's.
func step(t testing.TB, i int) expr.Expr {
	return parse(t, fmt.Sprintf("x + %d*y - z >= %d && y <= x + %d", i%7, i%13, i%5))
}

// TestMemory runs 10k incremental queries (100k, a soak, with
// STG_LONG=1) and checks that neither our references, nor the Go heap,
// nor Z3's own allocation grow without bound.
func TestMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("10k checks")
	}
	c := newContext(t)
	s := c.NewSolver()
	defer s.Close()
	if err := s.Assert(parse(t, "x >= 0 && y >= 0 && z >= 0")); err != nil {
		t.Fatal(err)
	}
	n := testlong.Runs(10000, 100000)
	cons := make([]expr.Expr, 64)
	for i := range cons {
		cons[i] = step(t, i)
	}
	query := func(i int) {
		s.Push()
		if err := s.Assert(cons[i%len(cons)]); err != nil {
			t.Fatal(err)
		}
		if r, err := s.Check(); r != Sat || err != nil {
			t.Fatalf("check %d: %v %v", i, r, err)
		}
		s.Pop(1)
	}
	for i := range 1000 { // warm up caches
		query(i)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	z3Before, refsBefore := estimatedAlloc(), c.refs
	start := time.Now()
	progress := testlong.NewProgress(t, "checks", n)
	for i := range n {
		query(i)
		progress.Add(1)
	}
	elapsed := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	z3After := estimatedAlloc()
	t.Logf("%d checks in %v (%v each); Go heap %d -> %d bytes; Z3 %d -> %d bytes; refs %d -> %d",
		n, elapsed, elapsed/time.Duration(n), before.HeapAlloc, after.HeapAlloc, z3Before, z3After, refsBefore, c.refs)
	if c.refs != refsBefore {
		t.Errorf("references grew from %d to %d", refsBefore, c.refs)
	}
	if grow := int64(after.HeapAlloc) - int64(before.HeapAlloc); grow > 4<<20 {
		t.Errorf("Go heap grew by %d bytes", grow)
	}
	// The notes measured ~70 bytes per check for a long-lived solver.
	if grow := int64(z3After) - int64(z3Before); grow > 32<<20 {
		t.Errorf("Z3 allocation grew by %d bytes", grow)
	}
}

func benchIncremental(b *testing.B, simple bool) {
	c := newContext(b)
	s := c.newSolver(simple)
	defer s.Close()
	if err := s.Assert(parse(b, "x >= 0 && y >= 0 && z >= 0")); err != nil {
		b.Fatal(err)
	}
	cons := make([]expr.Expr, 64)
	for i := range cons {
		cons[i] = step(b, i)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s.Push()
		s.Assert(cons[i%len(cons)])
		if r, err := s.Check(); r != Sat || err != nil {
			b.Fatal(r, err)
		}
		s.Pop(1)
	}
}

// BenchmarkIncrementalCheck: push, assert two linear constraints over
// three ints, check, pop.
func BenchmarkIncrementalCheck(b *testing.B) {
	b.Run("simple", func(b *testing.B) { benchIncremental(b, true) })
	b.Run("default", func(b *testing.B) { benchIncremental(b, false) })
}

// BenchmarkNewSolver: making a solver, asserting and checking once.
func BenchmarkNewSolver(b *testing.B) {
	for _, simple := range []bool{true, false} {
		b.Run(map[bool]string{true: "simple", false: "default"}[simple], func(b *testing.B) {
			c := newContext(b)
			e := step(b, 3)
			for b.Loop() {
				s := c.newSolver(simple)
				s.Assert(e)
				s.Check()
				s.Close()
			}
		})
	}
}

// BenchmarkSat: a fresh one-shot query in a warm context.
func BenchmarkSat(b *testing.B) {
	c := newContext(b)
	e := parse(b, "x + 2*y - z >= 3 && y <= x + 1 && z > 0 && c != Red && (f || x % 3 == 1)")
	for b.Loop() {
		if r, err := c.Sat(e); r != Sat || err != nil {
			b.Fatal(r, err)
		}
	}
}

func BenchmarkEliminateExists(b *testing.B) {
	c := newContext(b)
	ids := []*expr.Ident{param("p", expr.IntType)}
	e := parse(b, "!(p == 2 && x >= 3) && p == y - x && p >= 2")
	for b.Loop() {
		if _, err := c.EliminateExists(ids, e); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSimplify(b *testing.B) {
	c := newContext(b)
	e := parse(b, "!(p == 2 && x >= 3) && p == y - x && p >= 2 && x > 3 && x > 5")
	for b.Loop() {
		if _, err := c.Simplify(e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSatLimited: one-shot queries as the tools ask them, with a
// solver limit set (the resource limit and the watchdog) and the memo
// off, so that every question reaches Z3.
func BenchmarkSatLimited(b *testing.B) {
	c := newContext(b)
	c.SetMemo(false)
	c.SetTimeout(2 * time.Second)
	cons := make([]expr.Expr, 64)
	for i := range cons {
		cons[i] = step(b, i)
	}
	for i := 0; b.Loop(); i++ {
		if r, err := c.Sat(cons[i%len(cons)]); r != Sat || err != nil {
			b.Fatal(r, err)
		}
	}
}
