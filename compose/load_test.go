package compose

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
)

// TestReadModel: a system file reads as its flat spec, a spec as
// itself, and a file that cannot be read says so.
func TestReadModel(t *testing.T) {
	slot := filepath.Join("..", "examples", "slot")
	for _, tt := range []struct {
		file, name string
		system     bool
		err        string
	}{
		{filepath.Join(slot, "system.yaml"), "slot", true, ""},
		{filepath.Join(slot, "sm.yaml"), "", false, ""},
		{filepath.Join(slot, "none.yaml"), "", false, "none.yaml: cannot read: "},
	} {
		m, err := ReadModel(tt.file, nil)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want %q", tt.file, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if IsSystemFile(tt.file) != tt.system || m.Kind != spec.SpecKind || tt.system && (m.Name != tt.name || !strings.Contains(m.Locations[0], ",")) {
			t.Errorf("%s: %s %q, locations %v", tt.file, m.Kind, m.Name, m.Locations)
		}
	}
	sys, m, err := Load(filepath.Join(slot, "system.yaml"))
	if err != nil || len(sys.Components) != 2 || m.File != filepath.Join(slot, "system.yaml") {
		t.Errorf("Load: %v, %v", sys, err)
	}
}
