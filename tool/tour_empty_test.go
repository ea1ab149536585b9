package tool

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/play"
)

// TestTourWithoutPathIsAnError: a purpose written for stg generate (one
// transition, no self-loops) gives stg tour a product without a path to
// a final state; the command says why and how to write the purpose,
// instead of writing no test and exiting 0.
func TestTourWithoutPathIsAnError(t *testing.T) {
	dir := t.TempDir()
	specPath, purposePath := filepath.Join(dir, "spec.yaml"), filepath.Join(dir, "purpose.yaml")
	files := map[string]string{
		specPath: `kind: spec
name: bell
variables: {n: int}
actions:
  press: {dir: input}
  ring:  {dir: output}
locations: [Idle, Ringing]
initial: {location: Idle, condition: n == 0}
transitions:
  - {from: Idle, action: press, assign: {n: n + 1}, to: Ringing}
  - {from: Ringing, action: ring, to: Idle}
`,
		purposePath: `kind: purpose
name: bell-ring
variables: {}
initial: {location: Wait}
accept: [Accept]
transitions:
  - {from: Wait, action: ring, to: Accept}
`,
	}
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := Tour(TourOptions{Spec: specPath, Purpose: purposePath}, &bytes.Buffer{})
	if Code(err) != play.ExitError || err == nil || !strings.Contains(err.Error(), "{from: Wait, action: {except: [A]}, to: Wait}") {
		t.Fatalf("err = %v", err)
	}
	lts := strings.Replace(files[purposePath], "transitions:\n", "transitions:\n  - {from: Wait, action: {except: [ring]}, to: Wait}\n", 1)
	if err := os.WriteFile(purposePath, []byte(lts), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Tour(TourOptions{Spec: specPath, Purpose: purposePath}, &out); err != nil {
		t.Fatalf("with the self-loop: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "t1  press ring") {
		t.Errorf("tour:\n%s", out.String())
	}
}
