// Package emit writes models in the formats users read: Graphviz DOT
// for drawings, YAML and Go source for generated test cases.
package emit

import (
	"fmt"
	"strings"

	"github.com/emicklei/dot"
	"github.com/stg-tool/stg/spec"
)

// DOT returns a drawing of m, a spec, purpose or testcase.
//
// Locations are nodes in the order of m.Locations; the initial location
// has an incoming arrow from an invisible point. A purpose's Accept
// locations are double circles; a testcase's verdict locations are
// filled: Pass green, Fail red, Inconc orange.
//
// Each transition is an edge labelled "?in(p) [guard] / x := e, y := f".
// The mark is the direction seen by whoever runs the model: in a spec or
// a purpose, ?a is an input of the SUT and !a an output; in a testcase it
// is the tester's mirror view, !a a send and ?a a receive. Inputs of the
// SUT (and sends) are solid edges, outputs of the SUT (and receives) are
// dashed, internal actions dotted. A purpose's "*" reads "otherwise".
//
// The result is the same for the same model, so that drawings can be
// compared as text.
func DOT(m *spec.Model) *dot.Graph {
	g := dot.NewGraph(dot.Directed)
	g.ID(quoteID(m.Name))
	g.Attr("label", m.Kind.String()+" "+m.Name)
	g.Attr("labelloc", "t")
	g.Attr("rankdir", "LR")

	// The dot package prints nodes sorted by id and names them by
	// creation order; ids "L0001", "L0002", ... make both orders the
	// order of m.Locations.
	nodes := map[string]dot.Node{}
	node := func(l string) dot.Node {
		if n, ok := nodes[l]; ok {
			return n
		}
		n := g.Node(nodeID(len(nodes) + 1)).Label(l)
		nodes[l] = n
		styleLocation(m, l, n)
		return n
	}
	start := g.Node(nodeID(0)).Label("").Attr("shape", "point").Attr("style", "invis")
	if m.Initial.Location != "" {
		init := node(m.Initial.Location)
		e := g.Edge(start, init)
		if c := m.Initial.Condition; c != nil && !spec.IsTrue(c) {
			e.Label(spec.Format(c))
		}
	}
	for _, l := range m.Locations {
		node(l)
	}
	for _, t := range m.Transitions {
		e := g.Edge(node(t.From), node(t.To), Label(m, t))
		switch dir := direction(m, t); dir {
		case spec.Output, spec.Receive:
			e.Dashed()
		case spec.Internal:
			e.Dotted()
		}
	}
	return g
}

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

// direction returns the direction of t's action, Internal for a
// purpose's "*" (drawn dotted), and Output for quiescence in a model
// that does not declare it.
func direction(m *spec.Model, t *spec.Transition) spec.Dir {
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

// Label returns the text of t's edge in a drawing of m:
// "?in(p) [guard] / x := e, y := f" (see DOT for the marks).
func Label(m *spec.Model, t *spec.Transition) string {
	var b strings.Builder
	if t.IsOtherwise() && m.Kind == spec.PurposeKind {
		b.WriteString("otherwise")
	} else {
		switch direction(m, t) {
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
	if t.Guard != nil && !spec.IsTrue(t.Guard) {
		b.WriteString(" [" + spec.Format(t.Guard) + "]")
	}
	for i, a := range m.AssignmentTexts(t.Assign) {
		if i == 0 {
			b.WriteString(" / ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(a[0] + " := " + a[1])
	}
	if t.Name != "" {
		b.WriteString(" (" + t.Name + ")")
	}
	return b.String()
}
