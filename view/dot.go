package view

import (
	"fmt"
	"strings"
)

// largeNodes is the size above which a graph that is not a tree is laid
// out left to right.
const largeNodes = 6

// DOT returns the Graphviz text of g as the page lays it out: node and
// edge ids are the graph's (Graphviz keeps them as the ids of the SVG
// groups), edge labels short, classes telling verdicts, coverage and
// folded edges apart. With folded, the Fail edges are left out (but
// those a campaign took), and so are the nodes only they reach.
func DOT(g *Graph, folded bool) string { return dotText(g, folded, "") }

// dotText is DOT with every id prefixed, so that two drawings of one
// graph can sit in one page.
func dotText(g *Graph, folded bool, prefix string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", quote(g.Title))
	fmt.Fprintf(&b, "  graph [id=%s]\n", quote(prefix+"graph"))
	b.WriteString("  graph [fontname=\"Helvetica\" fontsize=12 nodesep=0.35 ranksep=0.5 forcelabels=true")
	if !g.TopDown && len(g.Nodes) > largeNodes {
		b.WriteString(" rankdir=LR")
	}
	b.WriteString("]\n  node [fontname=\"Helvetica\" fontsize=12]\n  edge [fontname=\"Helvetica\" fontsize=10]\n")
	shown := shownEdges(g, folded)
	reached := map[string]bool{}
	for _, e := range shown {
		reached[e.From], reached[e.To] = true, true
	}
	for _, n := range g.Nodes {
		if folded && n.Class == "fail" && !reached[n.ID] {
			continue
		}
		writeNode(&b, n, prefix)
		if n.Initial {
			s := quote(prefix + "start_" + n.ID)
			fmt.Fprintf(&b, "  %s [id=%s shape=point style=invis label=\"\"]\n  %s -> %s [id=%s class=\"start\"]\n",
				s, s, s, quote(n.ID), quote(prefix+"start_edge_"+n.ID))
		}
	}
	stagger := map[*Edge]int{}
	if g.TopDown {
		stagger = leafRanks(shown)
	}
	for _, e := range shown {
		writeEdge(&b, e, prefix, stagger[e])
	}
	b.WriteString("}\n")
	return b.String()
}

// shownEdges returns the edges drawn: all, or with folded those not into
// Fail and those into Fail a campaign took.
func shownEdges(g *Graph, folded bool) []*Edge {
	var out []*Edge
	for _, e := range g.Edges {
		if folded && e.Fail && !e.Keep && (e.Cov == nil || e.Cov.Taken == 0) {
			continue
		}
		out = append(out, e)
	}
	return out
}

func writeNode(b *strings.Builder, n *Node, prefix string) {
	attrs := []string{"id=" + quote(prefix+n.ID), "label=" + quote(n.Label), "class=" + quote(strings.TrimSpace("loc "+n.Class))}
	switch n.Class {
	case "pass", "fail", "inconc":
		color := map[string]string{"pass": "palegreen", "fail": "lightcoral", "inconc": "orange"}[n.Class]
		attrs = append(attrs, "shape=box", `style="filled,rounded"`, "fillcolor="+color)
	case "accept":
		attrs = append(attrs, "shape=doublecircle")
	case "cut":
		attrs = append(attrs, "shape=box", "style=filled", "fillcolor=lightgrey")
	case "bottom":
		attrs = append(attrs, "shape=box", "style=filled", "fillcolor=lightsteelblue")
	case "box", "treeaccept":
		attrs = append(attrs, "shape=box")
		if n.Class == "treeaccept" {
			attrs = append(attrs, "style=filled", "fillcolor=palegreen")
		}
	default:
		attrs = append(attrs, "shape=ellipse")
	}
	fmt.Fprintf(b, "  %s [%s]\n", quote(n.ID), strings.Join(attrs, " "))
}

func writeEdge(b *strings.Builder, e *Edge, prefix string, minlen int) {
	class := "tr"
	if e.Fail {
		class += " failedge"
	}
	label := e.Label
	attrs := []string{"id=" + quote(prefix+e.ID), "style=" + e.Style}
	if c := e.Cov; c != nil {
		class += " cov-" + c.Class
		switch c.Class {
		case "taken":
			label += fmt.Sprintf(" ×%d", c.Taken)
			attrs = append(attrs, "color=\"0.600 0.900 0.550\"", "penwidth=2")
		case "unreachable":
			label += " never"
			attrs = append(attrs, "color=red3", "fontcolor=red3", "style=dotted")
		default:
			label += " never"
			attrs = append(attrs, "color=gray60", "fontcolor=gray45")
		}
	}
	if e.From == e.To {
		// Graphviz draws a node's self-loops nested on one side, their
		// labels side by side: spaces keep them apart. (Loops given
		// ports have their labels drawn over other labels.)
		label = "  " + label + "  "
	}
	attrs = append(attrs, "label="+quote(label), "class="+quote(class))
	if minlen > 1 {
		attrs = append(attrs, fmt.Sprintf("minlen=%d", minlen))
	}
	fmt.Fprintf(b, "  %s -> %s [%s]\n", quote(e.From), quote(e.To), strings.Join(attrs, " "))
}

// quote makes a DOT string of s.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// leafRanks returns how many ranks below its source each edge to a leaf
// goes in a tree: the leaves of one node 1, 2, 3, 1, ... when it has at
// least three children (as Graphviz's unflatten -l 3), so that a wide
// tree stays readable.
func leafRanks(edges []*Edge) map[*Edge]int {
	children := map[string][]*Edge{}
	for _, e := range edges {
		if e.Style != "dotted" || e.Label != "⊆" {
			children[e.From] = append(children[e.From], e)
		}
	}
	out := map[*Edge]int{}
	for _, es := range children {
		if len(es) < 3 {
			continue
		}
		k := 0
		for _, e := range es {
			if len(children[e.To]) == 0 {
				out[e] = 1 + k%3
				k++
			}
		}
	}
	return out
}
