package specfile

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// annotatedTC is a test case with an analysis: section as stg generate
// --annotate writes it.
const annotatedTC = `kind: testcase
name: t
variables: {x: int, y: real}
actions:
  a: {dir: send, params: {p: int}}
  b: {dir: receive}
initial: {location: 'L,q', condition: x == 0}
verdicts: {pass: [Pass], fail: [Fail], inconc: [Inconc]}
transitions:
  - {from: 'L,q', action: a, guard: p > 0, assign: {x: p}, to: 'M,q'}
  - {from: 'M,q', action: b, guard: x > 1, to: Pass}
  - {from: 'M,q', action: b, guard: x <= 1, to: Fail}
analysis:
  domain: polyhedra
  locations:
    L,q: {reach: x == 0, coreach: x == 0}
    M,q: {reach: x >= 1 && 2.0 * y <= 1.5, coreach: x >= 2 || false}
`

// TestAnalysisRoundTrip: a test case with an analysis reads and writes
// back byte for byte, streamed or as one tree, and keeps its predicates.
func TestAnalysisRoundTrip(t *testing.T) {
	m, err := ParseModel("tc.yaml", []byte(annotatedTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := m.Analysis
	if a == nil || a.Domain != "polyhedra" || len(a.Locations) != 2 {
		t.Fatalf("analysis %+v, want polyhedra with 2 locations", a)
	}
	if la := a.Of("M,q"); la == nil || expr.Format(la.Reach) != "x >= 1 && 2.0 * y <= 1.5" || expr.Format(la.Coreach) != "x >= 2 || false" {
		t.Errorf("M,q: %+v", la)
	}
	if la := a.Of("M,q"); la.Pos.Line != 17 || la.Pos.Col != 5 {
		t.Errorf("M,q is at %s, want 17:5", la.Pos)
	}
	if a.Of("Pass") != nil || (*spec.Analysis)(nil).Of("L,q") != nil {
		t.Error("Of answers for a location it does not name")
	}
	out, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != annotatedTC {
		t.Errorf("written back:\n%s\nwant:\n%s", out, annotatedTC)
	}
	sameAsTree(t, "annotated", m)
	m.Transitions = nil // the tree form writes it too
	sameAsTree(t, "annotated, no transitions", m)
}

// TestAnalysisDroppedLocation: a location removed from the model after
// loading is not written, so that the file reads back.
func TestAnalysisDroppedLocation(t *testing.T) {
	m, err := ParseModel("tc.yaml", []byte(annotatedTC), nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Locations = []string{"L,q", "Pass", "Fail", "Inconc"}
	m.Transitions = m.Transitions[:0]
	out, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("M,q")) {
		t.Errorf("the analysis of a dropped location is written:\n%s", out)
	}
	if _, err := ParseModel("back.yaml", out, nil); err != nil {
		t.Errorf("does not read back: %v\n%s", err, out)
	}
}

func TestAnalysisErrors(t *testing.T) {
	base := annotatedTC[:strings.Index(annotatedTC, "analysis:")]
	for _, c := range []struct{ section, want string }{
		{"analysis:\n  locations:\n    N,q: {reach: true, coreach: true}\n", "tc.yaml:15:5: analysis of N,q, which is not a location of the test case"},
		{"analysis:\n  locations:\n    L,q: {reach: true}\n", "tc.yaml:15:10: the analysis of L,q needs reach and coreach"},
		{"analysis:\n  locations:\n    L,q: {reach: z > 0, coreach: true}\n", "tc.yaml:15:18"},
		{"analysis:\n  locations:\n    L,q: {reach: x + 1, coreach: true}\n", "want bool"},
		{"analysis:\n  locations:\n    L,q: {reach: p > 0, coreach: true}\n", "tc.yaml:15:18"},
		{"analysis:\n  domain: octagons\n", "tc.yaml:14:11: unknown analysis domain \"octagons\""},
		{"analysis:\n  where: 1\n", "unknown key where in analysis"},
		{"analysis:\n  locations:\n    L,q: {reach: true, coreach: true, why: 1}\n", "unknown key why"},
		{"analysis: [1]\n", "analysis must be a mapping"},
	} {
		_, err := ParseModel("tc.yaml", []byte(base+c.section), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.section, err, c.want)
		}
	}
	sp := "kind: spec\nname: s\nvariables: {}\nactions: {}\ninitial: {location: A}\nanalysis: {}\n"
	if _, err := ParseModel("s.yaml", []byte(sp), nil); err == nil || !strings.Contains(err.Error(), "unknown key analysis in spec") {
		t.Errorf("a spec with analysis: %v", err)
	}
}

// TestNoAnalysisUnchanged: a test case without the section has no
// Analysis and is written without one.
func TestNoAnalysisUnchanged(t *testing.T) {
	text := annotatedTC[:strings.Index(annotatedTC, "analysis:")]
	m, err := ParseModel("tc.yaml", []byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Analysis != nil {
		t.Errorf("analysis %+v in a file without one", m.Analysis)
	}
	if out, err := Marshal(m); err != nil || string(out) != text {
		t.Errorf("written back (%v):\n%s", err, out)
	}
}

// FuzzAnalysis: whatever test case with an analysis reads, writes a
// text that reads back to the same text.
func FuzzAnalysis(f *testing.F) {
	f.Add([]byte(annotatedTC))
	f.Add([]byte(strings.Replace(annotatedTC, "x == 0, coreach", "x == 0 && y > 1 / 3, coreach", 1)))
	f.Add([]byte(strings.Replace(annotatedTC, "  domain: polyhedra\n", "", 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseModel("f.yaml", data, nil)
		if err != nil || m.Kind != spec.TestcaseKind {
			return
		}
		out, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseModel("back.yaml", out, nil)
		if err != nil {
			t.Fatalf("written text does not read back: %v\n%s", err, out)
		}
		out2, err := Marshal(m2)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("write/read/write differs (%v):\n%s\n---\n%s", err, out, out2)
		}
	})
}
