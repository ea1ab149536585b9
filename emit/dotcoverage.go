package emit

import (
	"fmt"
	"math"

	"github.com/emicklei/dot"
	"github.com/stg-tool/stg/spec"
)

// EdgeCoverage is what a campaign of runs (stg run --report-json) tells
// of a transition of a testcase, for a drawing coloured by coverage
// (DrawOptions.Coverage).
type EdgeCoverage struct {
	Taken int // times the runs took it
	// Unreachable: never taken, and proved unreachable within the
	// search depth (no path of at most that many steps takes it).
	Unreachable bool
	Depth       int // the search depth of Unreachable
}

// coverEdge colours the edge of a transition by how often it was taken:
// never taken grey (red and dotted when proved unreachable), taken blue,
// darker and thicker the more often (on a logarithmic scale up to most,
// the count of the most taken transition). The count joins the label.
func coverEdge(e dot.Edge, label string, c EdgeCoverage, most int) {
	switch {
	case c.Taken == 0 && c.Unreachable:
		e.Attr("color", "red3").Attr("fontcolor", "red3").Dotted()
		e.Label(fmt.Sprintf("%s\n(never: unreachable in ≤ %d steps)", label, c.Depth))
	case c.Taken == 0:
		e.Attr("color", "gray60").Attr("fontcolor", "gray45")
		e.Label(label + "\n(never taken)")
	default:
		share := 1.0
		if most > 1 {
			share = math.Log(float64(c.Taken)+1) / math.Log(float64(most)+1)
		}
		// From a light to a dark blue (HSV: hue 0.6, value 0.85 to 0.35).
		e.Attr("color", fmt.Sprintf("0.600 0.900 %.3f", 0.85-0.5*share))
		e.Attr("penwidth", fmt.Sprintf("%.2f", 1+3*share))
		e.Label(fmt.Sprintf("%s\n×%d", label, c.Taken))
	}
}

// mostTaken returns the largest count of cov.
func mostTaken(cov map[*spec.Transition]EdgeCoverage) int {
	most := 0
	for _, c := range cov {
		most = max(most, c.Taken)
	}
	return most
}
