package compose

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLoad: a system file reads as the system and its flat spec, which
// names the file.
func TestLoad(t *testing.T) {
	slot := filepath.Join("..", "examples", "slot")
	sys, m, err := Load(filepath.Join(slot, "system.yaml"))
	if err != nil || len(sys.Components) != 2 || m.File != filepath.Join(slot, "system.yaml") {
		t.Errorf("Load: %v, %v", sys, err)
	}
	if _, _, err := Load(filepath.Join(slot, "none.yaml")); err == nil || !strings.Contains(err.Error(), "none.yaml: cannot read: ") {
		t.Errorf("Load of a missing file: %v", err)
	}
}
