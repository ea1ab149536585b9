package specfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
)

// TestWriteStreamsAsTree: Write, which encodes the transitions one at
// a time, writes byte for byte what the tree of the whole model gives
// (writeTree), on every example (specs, purposes), on the generator's
// test cases of the golden files, and on models whose guards and
// names need quoting or line breaks.
func TestWriteStreamsAsTree(t *testing.T) {
	n := 0
	for _, f := range writtenModels(t) {
		m := loadForWrite(t, f)
		if m == nil {
			continue
		}
		n++
		sameAsTree(t, f, m)
	}
	if n < 10 {
		t.Fatalf("only %d models compared", n)
	}
	for i, text := range streamCases() {
		m, err := ParseModel(fmt.Sprintf("case%d.yaml", i), []byte(text), nil)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		sameAsTree(t, fmt.Sprintf("case %d", i), m)
	}
}

// writtenModels returns the model files of the examples and of the golden
// test cases.
func writtenModels(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"../../examples/*/*.yaml", "../../pipeline/testdata/*.yaml", "../../examples/*/testdata/*.yaml"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	return files
}

// loadForWrite loads a spec, a test case, or a purpose with the spec
// of its directory; nil for other files (tables, systems).
func loadForWrite(t *testing.T, f string) *spec.Model {
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	k, err := PeekKind(f, data)
	if err != nil {
		return nil
	}
	var s *spec.Model
	switch k {
	case spec.SpecKind, spec.TestcaseKind:
	case spec.PurposeKind:
		if s, err = LoadFile(filepath.Join(filepath.Dir(f), "spec.yaml"), nil); err != nil {
			return nil
		}
	default:
		return nil
	}
	m, err := ParseModel(f, data, s)
	if err != nil {
		return nil
	}
	return m
}

func sameAsTree(t *testing.T, what string, m *spec.Model) {
	t.Helper()
	var got, want bytes.Buffer
	if err := Write(&got, m); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := writeTree(&want, m); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Errorf("%s: streamed YAML differs from the tree's:\n%s\n---\n%s", what, got.String(), want.String())
	}
}

// streamCases are specs whose transitions need quoting (names with
// commas, colons, quotes, leading symbols), long guards (beyond the
// emitter's 80 columns) and names with line breaks.
func streamCases() []string {
	long := strings.Repeat("x + ", 40) + "x"
	return []string{
		`kind: spec
name: q
variables: {x: int}
actions: {a: {dir: input, params: {p: int}}}
initial: {location: 'L,1'}
transitions:
  - {from: 'L,1', action: a, guard: "p == ` + long + `", to: "M: 2"}
  - {from: "M: 2", action: a, guard: "p >= 0 && p <= 100 && x != p && (x < 3 || x > ` + long + `)", assign: {x: p}, to: "'q'"}
  - {name: "t\"1", from: "'q'", action: a, to: '- r'}
`,
	}
}

// TestWriteStreamsOddNames: names the loader would refuse (line breaks,
// comment signs, long lines), set on a loaded model, stream as the tree
// writes them.
func TestWriteStreamsOddNames(t *testing.T) {
	m, err := ParseModel("odd.yaml", []byte(streamCases()[0]), nil)
	if err != nil {
		t.Fatal(err)
	}
	odd := []string{"A\nB", "C #c", "multi\nline\n", strings.Repeat("long ", 30), "|", "", "'"}
	for i, s := range odd {
		tr := m.Transitions[i%len(m.Transitions)]
		tr.Name, tr.To = s, odd[(i+1)%len(odd)]
		m.Name = s
		sameAsTree(t, fmt.Sprintf("odd name %q", s), m)
	}
}
