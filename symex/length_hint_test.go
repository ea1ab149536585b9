package symex

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/specfile"
)

// TestLengthWithoutOutputSaysWhich: a length at which every path ends
// with an internal step is refused, and the error names the lengths
// that end with an output (internal steps count).
func TestLengthWithoutOutputSaysWhich(t *testing.T) {
	m, err := specfile.ParseModel("relay.yaml", []byte(`kind: spec
name: relay
variables: {}
actions:
  req:  {dir: input}
  fwd:  {dir: internal}
  back: {dir: internal}
  done: {dir: output}
initial: {location: A}
transitions:
  - {from: A, action: req, to: B}
  - {from: B, action: fwd, to: C}
  - {from: C, action: back, to: D}
  - {from: D, action: done, to: A}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewExecutor(newContext(t), m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Length(2)
	if err == nil || !strings.Contains(err.Error(), "paths of length 1 end with an output") {
		t.Errorf("Length(2): %v", err)
	}
	if _, err := e.Length(3); err != nil { // back is followed by done: accepted
		t.Errorf("Length(3): %v", err)
	}
}
