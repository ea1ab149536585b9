package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/specfile"
)

// TestPurposesSplitNames: stg purposes --split names its purposes with
// names every command accepts: repeats of an unnamed transition are
// from-action-to-2 (they were from-action-to#2, which the sympurpose name
// check refused, exit 3 after some files were written), and locations
// with spaces or # give _ in the name.
func TestPurposesSplitNames(t *testing.T) {
	odd := writeFile(t, "odd.yaml", `kind: spec
name: odd
variables: {}
actions:
  go: {dir: input}
  ok: {dir: output}
initial: {location: "A #1"}
transitions:
  - {from: "A #1", action: go, to: "B, c"}
  - {from: "A #1", action: go, to: "B, c"}
  - {from: "B, c", action: ok, to: "A #1"}
`)
	valid := regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.\-]*$`)
	for _, sp := range []string{filepath.Join("..", "..", "examples", "vending", "spec.yaml"), odd} {
		dir := t.TempDir()
		code, _, errOut := stg(t, "purposes", sp, "--length", "3", "--split", "-o", dir)
		if code != exitPass {
			t.Fatalf("%s: exit %d: %s", sp, code, errOut)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) == 0 {
			t.Fatalf("%s: no purpose written", sp)
		}
		repeat := false
		for _, e := range entries {
			name := strings.TrimSuffix(e.Name(), ".yaml")
			if !valid.MatchString(name) {
				t.Errorf("file %s: not a valid name", e.Name())
			}
			repeat = repeat || strings.Contains(name, "-2-")
			file := filepath.Join(dir, e.Name())
			p, err := specfile.LoadSymPurpose(file)
			if err != nil {
				t.Errorf("%s: %v", e.Name(), err)
				continue
			}
			if p.Name != name {
				t.Errorf("%s: sympurpose name %s", e.Name(), p.Name)
			}
			if code, _, errOut := stg(t, "dot", file); code != exitPass {
				t.Errorf("stg dot %s: exit %d: %s", e.Name(), code, errOut)
			}
		}
		if !repeat {
			t.Errorf("%s: no purpose through a repeated transition (-2)", sp)
		}
	}
}
