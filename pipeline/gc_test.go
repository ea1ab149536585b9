package pipeline

import (
	"runtime/debug"
	"testing"

	"github.com/stg-tool/stg/spec/specfile"
)

// TestGenerateRestoresGC: GenerateFor applies Options.GCPercent and
// MemoryLimit for its run only.
func TestGenerateRestoresGC(t *testing.T) {
	s, err := specfile.LoadFile("../examples/cmp/spec.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	pct := debug.SetGCPercent(123)
	defer debug.SetGCPercent(pct)
	limit := debug.SetMemoryLimit(1 << 40)
	defer debug.SetMemoryLimit(limit)
	if _, err := GenerateFor(s, "../examples/cmp/purpose.yaml", Options{GCPercent: 400, MemoryLimit: 1 << 30}); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetGCPercent(123); got != 123 {
		t.Errorf("GC percent after GenerateFor: %d, want 123", got)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("memory limit after GenerateFor: %d, want %d", got, int64(1<<40))
	}
}
