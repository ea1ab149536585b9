// Package emit writes models in the formats users read: Graphviz DOT
// for drawings, YAML and Go source for generated test cases.
package emit

import (
	"fmt"
	"html"
	"strings"

	"github.com/emicklei/dot"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// DrawOptions are the options of a drawing.
type DrawOptions struct {
	// AllEdges draws every transition of a testcase, also each
	// unguarded receive that goes to Fail, which is otherwise summed up
	// by a note in its source location.
	AllEdges bool
	// Coverage, when not nil, colours each edge by how often the runs
	// of a campaign took its transition (dotcoverage.go).
	Coverage map[*spec.Transition]EdgeCoverage
	// Clusters draws the product locations "l,q" of one spec location l
	// of a large drawing in one cluster. Graphviz's dot places edge
	// labels poorly around clusters (they overprint one another), so a
	// drawing has none by default.
	Clusters bool
}

// Sizes above which a drawing is large: laid out left to right, with
// clusters per spec location.
const (
	largeLocations = 6
	largeEdges     = 12
)

// DOT returns a drawing of m, a spec, purpose or testcase, with the
// default options (see DrawDOT).
func DOT(m *spec.Model) *dot.Graph { return DrawDOT(m, DrawOptions{}) }

// DrawDOT returns a drawing of m, a spec, purpose or testcase.
//
// Locations are nodes in the order of m.Locations; the initial location
// has an incoming arrow from an invisible point. A purpose's Accept
// locations are double circles; a testcase's verdict locations are
// filled: Pass green, Fail red, Inconc orange.
//
// Each transition is an edge labelled "?in(p) [guard] / x := e, y := f",
// one part a line, long guards broken at && and ||.
// The mark is the direction seen by whoever runs the model: in a spec or
// a purpose, ?a is an input of the SUT and !a an output; in a testcase it
// is the tester's mirror view, !a a send and ?a a receive. Inputs of the
// SUT (and sends) are solid edges, outputs of the SUT (and receives) are
// dashed, internal actions dotted. A purpose's "*" reads "otherwise".
//
// In a testcase, unless o.AllEdges, the unguarded receives of a location
// that go to Fail without assignment are not drawn one by one: the
// location's node carries the note "any other output → Fail" (or names
// them, and "quiescence" for delta), and a verdict location no drawn edge
// reaches is left out.
//
// A large model (more than 6 locations or 12 edges drawn) is laid out
// left to right (with o.Clusters, the product locations "l,q" with the
// same spec location l in one cluster). Its edges carry short labels,
// the action and the transition's index in m ("?result t6"), and a
// legend table gives the full label of those with a guard, assignments
// or a name.
//
// The result is the same for the same model, so that drawings can be
// compared as text.
func DrawDOT(m *spec.Model, o DrawOptions) *dot.Graph {
	d := newDrawing(m, o)
	g := dot.NewGraph(dot.Directed)
	g.ID(quoteID(m.Name))
	g.Attr("label", m.Kind.String()+" "+m.Name)
	g.Attr("labelloc", "t")
	large := len(d.locations) > largeLocations || len(d.edges) > largeEdges
	if large {
		g.Attr("rankdir", "LR")
	}
	g.Attr("nodesep", "0.3")
	g.Attr("ranksep", "0.45")
	g.Attr("fontsize", "12")
	g.Attr("forcelabels", "true")
	g.Attr("splines", "true")
	var clusters map[string]*dot.Graph
	if large && o.Clusters {
		clusters = d.clusters(g)
	}

	// The dot package prints nodes sorted by id and names them by
	// creation order; ids "L0001", "L0002", ... make both orders the
	// order of m.Locations.
	nodes := map[string]dot.Node{}
	node := func(l string) dot.Node {
		if n, ok := nodes[l]; ok {
			return n
		}
		parent := g
		if c := clusters[l]; c != nil {
			parent = c
		}
		n := parent.Node(nodeID(len(nodes) + 1))
		if note := d.notes[l]; note != "" {
			n.Attr("label", dot.HTML(html.EscapeString(l)+`<BR/><FONT POINT-SIZE="9" COLOR="red3">`+html.EscapeString(note)+`</FONT>`))
		} else {
			n.Label(l)
		}
		nodes[l] = n
		styleLocation(m, l, n)
		return n
	}
	start := g.Node(nodeID(0)).Label("").Attr("shape", "point").Attr("style", "invis")
	if m.Initial.Location != "" {
		init := node(m.Initial.Location)
		e := g.Edge(start, init)
		if c := m.Initial.Condition; c != nil && !expr.IsTrue(c) {
			e.Label(wrapGuard(expr.Format(c))).Attr("fontsize", "10")
		}
	}
	for _, l := range d.locations {
		node(l)
	}
	label := func(t *spec.Transition) string { return drawnLabel(m, t) }
	if large {
		// Long labels overprint one another in a large drawing: the
		// edges carry their action and index, a legend the full text.
		index := transitionIndex(m)
		label = func(t *spec.Transition) string { return shortLabel(m, t, index[t]) }
		legend(g, m, d.edges, index)
	}
	loops := map[string]int{}
	for _, t := range d.edges {
		e := g.Edge(node(t.From), node(t.To), label(t))
		e.Attr("fontsize", "10")
		if t.From == t.To {
			// Graphviz stacks the labels of a node's self-loops on one
			// another; loops on different sides keep them apart.
			if side := loopSides[loops[t.From]%len(loopSides)]; side != "" {
				e.Attr("tailport", side).Attr("headport", side)
			}
			loops[t.From]++
		}
		switch dir := Direction(m, t); dir {
		case spec.Output, spec.Receive:
			e.Dashed()
		case spec.Internal:
			e.Dotted()
		}
		if o.Coverage != nil {
			coverEdge(e, label(t), o.Coverage[t], mostTaken(o.Coverage))
		}
	}
	return g
}

// loopSides are the sides of a node where its successive self-loops go.
var loopSides = [...]string{"", "s", "n", "w"}

// nodeID returns the id of the i-th location: fixed width, so that
// sorting ids as strings sorts them by i.
func nodeID(i int) string { return fmt.Sprintf("L%06d", i) }

// quoteID makes a graph id that DOT accepts whatever the model's name.
func quoteID(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

func styleLocation(m *spec.Model, l string, n dot.Node) {
	switch {
	case m.Kind == spec.PurposeKind && m.IsAccept(l):
		n.Attr("shape", "doublecircle")
	case m.Kind == spec.TestcaseKind && m.Verdict(l) != "":
		color := map[string]string{"pass": "palegreen", "fail": "lightcoral", "inconc": "orange"}[m.Verdict(l)]
		n.Attr("shape", "box").Attr("style", "filled,rounded").Attr("fillcolor", color)
	default:
		n.Attr("shape", "ellipse")
	}
}

// Direction returns the direction of t's action, Internal for a
// purpose's "*" (drawn dotted), and Output (Receive in a test case) for
// quiescence in a model that does not declare it.
func Direction(m *spec.Model, t *spec.Transition) spec.Dir {
	if a := m.Action(t.Action); a != nil {
		return a.Dir
	}
	if t.Action == spec.Delta {
		if m.Kind == spec.TestcaseKind {
			return spec.Receive
		}
		return spec.Output
	}
	return spec.Internal
}

// Label returns the text of t's edge in a drawing of m, on one line:
// "?in(p) [guard] / x := e, y := f" (see DrawDOT for the marks).
func Label(m *spec.Model, t *spec.Transition) string {
	return strings.Join(labelParts(m, t), " ")
}

// drawnLabel is Label with one part a line, long guards broken.
func drawnLabel(m *spec.Model, t *spec.Transition) string {
	parts := labelParts(m, t)
	for i, p := range parts {
		if strings.HasPrefix(p, "[") {
			parts[i] = wrapGuard(p)
		}
	}
	return strings.Join(parts, "\n")
}

// labelParts returns the parts of t's label: action, [guard],
// "/ assignments", "(name)", the absent ones left out.
func labelParts(m *spec.Model, t *spec.Transition) []string {
	var b strings.Builder
	if t.IsOtherwise() && m.Kind == spec.PurposeKind {
		b.WriteString("otherwise")
	} else {
		switch Direction(m, t) {
		case spec.Input, spec.Receive:
			b.WriteString("?")
		case spec.Output, spec.Send:
			b.WriteString("!")
		}
		b.WriteString(t.Action)
		if a := m.Action(t.Action); a != nil && len(a.Params) > 0 {
			b.WriteString("(")
			for i, p := range a.Params {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(p.Name)
			}
			b.WriteString(")")
		}
	}
	parts := []string{b.String()}
	if t.Guard != nil && !expr.IsTrue(t.Guard) {
		parts = append(parts, "["+expr.Format(t.Guard)+"]")
	}
	var as []string
	for _, a := range m.AssignmentTexts(t.Assign) {
		as = append(as, a[0]+" := "+a[1])
	}
	if len(as) > 0 {
		parts = append(parts, "/ "+strings.Join(as, ", "))
	}
	if t.Name != "" {
		parts = append(parts, "("+t.Name+")")
	}
	return parts
}
