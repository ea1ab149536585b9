package emit

import (
	"fmt"
	"strings"

	"github.com/emicklei/dot"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// TreeDOT returns a drawing of part of a symbolic execution tree, top
// down: one box per node (its location, path, variables and path
// condition, the long lines broken), one edge per symbolic transition
// labelled "name\namount?v@1" in a smaller font than the nodes' (inputs
// solid, outputs and quiescence dashed). Nodes cut by inclusion are
// grey, with a dotted edge to the node that includes them. With a
// purpose (label not nil), accept nodes are green, skip nodes white and
// ⊥ nodes grey-blue. The leaves of a node with several are staggered
// over successive ranks (as Graphviz's unflatten -l 3 does), so that a
// wide tree stays readable.
func TreeDOT(name string, nodes []*symex.Node, vars []*spec.Variable, label func(*symex.Node) symex.Label) *dot.Graph {
	g := dot.NewGraph(dot.Directed)
	g.ID(quoteID(name))
	g.Attr("label", name)
	g.Attr("labelloc", "t")
	g.Attr("rankdir", "TB")
	g.Attr("nodesep", "0.2")
	g.Attr("ranksep", "0.4")
	ids := map[*symex.Node]dot.Node{}
	for i, n := range nodes {
		d := g.Node(nodeID(i)).Label(treeLabel(n, vars)).Attr("shape", "box").Attr("fontsize", "12")
		switch {
		case label != nil && label(n) == symex.Accept:
			d.Attr("style", "filled").Attr("fillcolor", "palegreen")
		case label != nil && label(n) == symex.Bottom:
			d.Attr("style", "filled").Attr("fillcolor", "lightsteelblue")
		case n.CutBy != nil:
			d.Attr("style", "filled").Attr("fillcolor", "lightgrey")
		}
		ids[n] = d
	}
	stagger := leafRanks(nodes, ids)
	for _, n := range nodes {
		if p, ok := ids[n.Parent]; ok && n.Parent != nil {
			e := g.Edge(p, ids[n]).Label(n.Name+"\n"+n.Label()).Attr("fontsize", "9")
			if n.Action != nil && n.Action.Dir != spec.Input {
				e.Attr("style", "dashed")
			}
			if k := stagger[n]; k > 1 {
				e.Attr("minlen", fmt.Sprint(k))
			}
		}
		if c, ok := ids[n.CutBy]; ok && n.CutBy != nil {
			g.Edge(ids[n], c).Attr("style", "dotted").Attr("constraint", "false").Label("⊆").Attr("fontsize", "9")
		}
	}
	return g
}

// leafRanks returns how many ranks below its parent each drawn leaf
// goes: the leaves of one parent 1, 2, 3, 1, 2, 3, ... when it has at
// least three children.
func leafRanks(nodes []*symex.Node, ids map[*symex.Node]dot.Node) map[*symex.Node]int {
	children := map[*symex.Node][]*symex.Node{}
	for _, n := range nodes {
		if _, ok := ids[n.Parent]; ok && n.Parent != nil {
			children[n.Parent] = append(children[n.Parent], n)
		}
	}
	out := map[*symex.Node]int{}
	for _, cs := range children {
		if len(cs) < 3 {
			continue
		}
		k := 0
		for _, c := range cs {
			if len(children[c]) == 0 {
				out[c] = 1 + k%3
				k++
			}
		}
	}
	return out
}

// treeLabel is a node's text: location and path, the variables (about
// guardWidth characters a line) and the path condition broken at its
// top-level && and ||.
func treeLabel(n *symex.Node, vars []*spec.Variable) string {
	loc := n.State.Loc
	if n.Sink {
		loc = "qδ"
	}
	lines := []string{loc + " " + n.PathString()}
	var parts []string
	for _, v := range vars {
		if e, ok := n.State.Vars[v.Name]; ok {
			parts = append(parts, v.Name+"="+expr.Format(e))
		}
	}
	if vars == nil {
		parts = strings.Fields(n.State.VarsString(nil))
	}
	lines = append(lines, packWords(parts, guardWidth)...)
	if !expr.IsTrue(n.State.PC) {
		lines = append(lines, wrapGuard(expr.Format(n.State.PC)))
	}
	return strings.Join(lines, "\n")
}

// packWords joins words into lines of about width characters, with two
// spaces between them.
func packWords(words []string, width int) []string {
	var lines []string
	for _, w := range words {
		if n := len(lines); n > 0 && len(lines[n-1])+2+len(w) <= width {
			lines[n-1] += "  " + w
			continue
		}
		lines = append(lines, w)
	}
	return lines
}
