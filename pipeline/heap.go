package pipeline

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A heapLimit keeps a soft limit on the Go heap (debug.SetMemoryLimit)
// while the live heap leaves room under it, and gives it up when it does
// not. Under the limit the collector runs before the heap would double
// (GOGC=100), which keeps the peak of a large generation down; but a
// limit that the live heap approaches makes the collector run without
// end. So after each collection, once the live heap exceeds 4/5 of the
// limit, the limit is raised to twice the live heap (where the default
// collector would let the heap grow) and never lowered again.
type heapLimit struct {
	mu      sync.Mutex
	limit   int64
	prev    int64 // the limit before, restored by stop
	stopped bool
	sample  []metrics.Sample
}

// limitHeap sets the soft limit of the Go heap to limit until the
// returned function is called, which restores the previous limit.
func limitHeap(limit int64) (stop func()) {
	h := &heapLimit{limit: limit, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	h.prev = debug.SetMemoryLimit(limit)
	h.arm()
	return h.stop
}

// arm registers a check to run after the next collection: the cleanup
// of an object that nothing references runs once a collection has
// found it unreachable.
func (h *heapLimit) arm() {
	sentinel := new([4]int64) // not a tiny allocation, which may never be reclaimed alone
	runtime.AddCleanup(sentinel, func(h *heapLimit) { h.afterGC() }, h)
}

// afterGC raises the limit when the live heap approaches it, and arms
// the next check.
func (h *heapLimit) afterGC() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.stopped {
		return
	}
	metrics.Read(h.sample)
	if v := h.sample[0].Value; v.Kind() == metrics.KindUint64 {
		if live := int64(v.Uint64()); live > h.limit/5*4 {
			h.limit = 2 * live
			debug.SetMemoryLimit(h.limit)
		}
	}
	h.arm()
}

func (h *heapLimit) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopped = true
	debug.SetMemoryLimit(h.prev)
}
