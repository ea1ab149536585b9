package emit

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// Coverage colours: taken edges blue with their count (the most taken
// thickest), never-taken ones grey, proved-unreachable ones red and
// dotted.
func TestDrawCoverage(t *testing.T) {
	m, err := specfile.LoadFile("../runner/testdata/coverage.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	cov := map[*spec.Transition]EdgeCoverage{
		m.Transitions[0]: {Taken: 20},
		m.Transitions[1]: {Unreachable: true, Depth: 8},
		m.Transitions[2]: {Taken: 10},
	}
	out := DrawDOT(m, DrawOptions{Coverage: cov, AllEdges: true}).String()
	for _, want := range []string{
		`label="!inc\n[n < 2]\n/ n := n + 1\n(inc)\n×20",penwidth="4.00"`,
		`label="!big\n[n >= 10]\n(big)\n(never: unreachable in ≤ 8 steps)",style="dotted"`,
		`?delta\n[n != 2]\n(never taken)"`,
		`color="red3"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("drawing lacks %s:\n%s", want, out)
		}
	}
	if strings.Count(out, "penwidth") != 2 {
		t.Errorf("want 2 taken edges drawn thick:\n%s", out)
	}
}
