package emit

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// TestDrawGolden compares the drawings of two real test cases
// (stg generate examples/buffer/spec.yaml examples/buffer/purpose-fifo.yaml,
// and retry's purpose-stale-ack), by default and with every edge, with
// golden files.
func TestDrawGolden(t *testing.T) {
	for _, name := range []string{"buffer-fifo", "retry-stale-ack"} {
		tc, err := specfile.LoadFile(filepath.Join("testdata", name+".tc.yaml"), nil)
		if err != nil {
			t.Fatal(err)
		}
		for suffix, o := range map[string]DrawOptions{".dot": {}, ".all-edges.dot": {AllEdges: true}} {
			checkGolden(t, filepath.Join("testdata", name+suffix), DrawDOT(tc, o).String())
		}
	}
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if updateGolden() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("drawing differs from %s (run go test -update if the change is right):\n%s", path, got)
	}
}

// TestDrawNotes checks what the notes of a testcase's locations say and
// stand for, and that a verdict no drawn edge reaches is left out.
func TestDrawNotes(t *testing.T) {
	tc := mustParse(t, `kind: testcase
name: tc
variables: {x: int}
actions:
  in:    {dir: send}
  a:     {dir: receive, params: {p: int}}
  b:     {dir: receive}
  c:     {dir: receive}
  delta: {dir: receive}
initial: {location: "S,P"}
verdicts: {pass: [Pass], fail: [Fail], inconc: [Inconc]}
transitions:
  - {from: "S,P", action: in, to: "T,P"}
  - {from: "S,P", action: a, to: Fail}
  - {from: "S,P", action: b, to: Fail}
  - {from: "S,P", action: c, to: Fail}
  - {from: "S,P", action: delta, to: "S,P"}
  - {from: "T,P", action: a, guard: "p == 1", to: Pass}
  - {from: "T,P", action: a, guard: "p != 1", to: Fail}
  - {from: "T,P", action: b, to: Fail}
  - {from: "T,P", action: c, to: Fail}
  - {from: "T,P", action: delta, to: Fail}
  - {from: "U,P", action: b, to: Fail}
  - {from: "U,P", action: in, to: "S,P"}
`, nil)
	d := newDrawing(tc, DrawOptions{})
	for l, want := range map[string]string{
		"S,P": "any output → Fail",
		"T,P": "any other output or quiescence → Fail",
		"U,P": "?b → Fail", // a and c have no transition here: not "any"
	} {
		if got := d.notes[l]; got != want {
			t.Errorf("note of %s: %q, want %q", l, got, want)
		}
	}
	if len(d.edges) != 5 {
		t.Errorf("%d edges drawn, want 5", len(d.edges))
	}
	if strings.Contains(strings.Join(d.locations, " "), "Inconc") {
		t.Errorf("the unreachable Inconc is drawn: %v", d.locations)
	}
	all := newDrawing(tc, DrawOptions{AllEdges: true})
	if len(all.edges) != len(tc.Transitions) || len(all.notes) != 0 {
		t.Errorf("--all-edges: %d edges, %d notes", len(all.edges), len(all.notes))
	}
	// A spec is drawn whole.
	sp := mustParse(t, strings.Replace(testSpec, "variables: {x: int}", "variables: {x: int, y: int}", 1), nil)
	if d := newDrawing(sp, DrawOptions{}); len(d.edges) != len(sp.Transitions) {
		t.Errorf("spec: %d edges of %d", len(d.edges), len(sp.Transitions))
	}
}

func TestWrapGuard(t *testing.T) {
	for in, want := range map[string]string{
		"[x > 0]": "[x > 0]",
		"[(l == partial && count >= 1 && count < 3 || l == drained) && count == 0 && a == 0 && b == 0]": "[(l == partial && count >= 1 && count < 3 || l == drained)\n&& count == 0 && a == 0 && b == 0]",
		"[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa || bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb]":                   "[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n|| bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb]",
	} {
		if got := wrapGuard(in); got != want {
			t.Errorf("wrapGuard(%q) =\n%s\nwant\n%s", in, got, want)
		}
	}
}

// TestLargeShortLabels: in a large drawing every edge carries its action
// and index only, and the legend the full label of those with a guard or
// assignments, so that labels do not overprint one another.
func TestLargeShortLabels(t *testing.T) {
	tc, err := specfile.LoadFile(filepath.Join("testdata", "retry-stale-ack.tc.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := DrawDOT(tc, DrawOptions{AllEdges: true}).String()
	short := regexp.MustCompile(`^[?!]?[A-Za-z_]\w* t\d+$`)
	for _, m := range regexp.MustCompile(`n\d+->n\d+\[[^\]]*label="([^"]*)"`).FindAllStringSubmatch(out, -1) {
		if !short.MatchString(m[1]) && !strings.Contains(m[1], "==") { // the initial condition
			t.Errorf("edge label %q is not short", m[1])
		}
	}
	for i, tr := range tc.Transitions {
		row := fmt.Sprintf(`<TD ALIGN="LEFT">t%d</TD>`, i)
		if has := strings.Contains(out, row); has != (tr.Guard != nil && !expr.IsTrue(tr.Guard) || len(tr.Assign) > 0) {
			t.Errorf("t%d (%s): in the legend %v", i, tr.Label(), has)
		}
	}
	if strings.Contains(out, "subgraph cluster") {
		t.Error("clusters drawn without DrawOptions.Clusters")
	}
	if !strings.Contains(DrawDOT(tc, DrawOptions{Clusters: true}).String(), "subgraph cluster") {
		t.Error("no cluster with DrawOptions.Clusters")
	}
}
