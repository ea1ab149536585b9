package tool

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/play"
)

var (
	cmpSpec    = filepath.Join("..", "examples", "cmp", "spec.yaml")
	slotSystem = filepath.Join("..", "examples", "slot", "system.yaml")
	atmSpec    = filepath.Join("..", "examples", "atm-paper", "spec.yaml")
)

// TestCommandsAsFunctions: the commands run from Go, their options'
// zero values taking the command line's defaults, print what stg
// prints, and give their exit code in the error.
func TestCommandsAsFunctions(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := Symex(SymexOptions{Spec: cmpSpec, Depth: 2, Stats: true, Format: "json"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var fig map[string]any
	if err := json.Unmarshal(out.Bytes(), &fig); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"nodes", "transitions", "states", "coverage", "time_ms"} {
		if _, ok := fig[k]; !ok {
			t.Errorf("symex --stats --format json has no %q: %v", k, fig)
		}
	}
	out.Reset()
	if err := Compose(ComposeOptions{System: slotSystem, Stats: true}, &out); err != nil || !strings.HasPrefix(out.String(), "components: 2\n") {
		t.Errorf("compose --stats: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := Purposes(PurposesOptions{Spec: atmSpec, Length: 2, Stats: true}, &out, &errOut); err != nil || !strings.HasPrefix(out.String(), "criterion: length 2\nnodes: 18\naccept: 10\n") {
		t.Errorf("purposes --length 2 --stats: %v\n%s", err, out.String())
	}
	for _, err := range []error{
		Symex(SymexOptions{Spec: cmpSpec, Format: "svg"}, &out, &errOut),
		Compose(ComposeOptions{System: filepath.Join("..", "examples", "none.yaml")}, &out),
		Project(ProjectOptions{Projection: Projection{System: slotSystem, Path: -1}}, &out),
	} {
		if Code(err) != play.ExitError {
			t.Errorf("%v: exit %d, want %d", err, Code(err), play.ExitError)
		}
	}
}
