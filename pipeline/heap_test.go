package pipeline

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestLimitHeap: the soft limit is set, kept while the live heap stays
// small, raised (to twice the live heap) once that exceeds 4/5 of it so
// that the live heap stays under 4/5 of the limit, and restored at the
// end.
func TestLimitHeap(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	const limit = 64 << 20
	stop := limitHeap(limit)
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Fatalf("limit %d, want %d", got, limit)
	}
	runtime.GC()
	runtime.GC()
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("with a small live heap the limit became %d, want %d", got, limit)
	}
	live := make([][]byte, 0, 80)
	for i := 0; i < 80; i++ {
		live = append(live, make([]byte, 1<<20)) // 80 MiB live, over the limit
	}
	const want = 80 << 20 * 5 / 4
	// The check runs after a collection, on the cleanup goroutine, which
	// a loaded machine may schedule late: collect and yield until it has
	// run (a bounded wait, not a timing assumption).
	for i := 0; i < 1000 && debug.SetMemoryLimit(-1) < want; i++ {
		runtime.GC()
		runtime.Gosched()
		if i >= 50 {
			time.Sleep(time.Millisecond)
		}
	}
	if raised := debug.SetMemoryLimit(-1); raised < want {
		t.Errorf("with 80 MiB live the limit is %d, want at least %d", raised, want)
	}
	runtime.KeepAlive(live)
	stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("after stop the limit is %d, want %d", got, before)
	}
}
