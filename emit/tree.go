package emit

import (
	"fmt"

	"github.com/emicklei/dot"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// TreeDOT returns a drawing of part of a symbolic execution tree: one box
// per node (its location, variables and path condition), one edge per
// symbolic transition labelled "name: amount?v@1" (inputs solid, outputs
// and quiescence dashed). Nodes cut by inclusion are grey, with a dotted
// edge to the node that includes them. With a purpose (label not nil),
// accept nodes are green, skip nodes white and ⊥ nodes grey-blue.
func TreeDOT(name string, nodes []*symex.Node, vars []*spec.Variable, label func(*symex.Node) symex.Label) *dot.Graph {
	g := dot.NewGraph(dot.Directed)
	g.ID(quoteID(name))
	g.Attr("label", name)
	g.Attr("labelloc", "t")
	ids := map[*symex.Node]dot.Node{}
	for i, n := range nodes {
		d := g.Node(nodeID(i)).Label(treeLabel(n, vars)).Attr("shape", "box").Attr("fontsize", "10")
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
	for _, n := range nodes {
		if p, ok := ids[n.Parent]; ok && n.Parent != nil {
			e := g.Edge(p, ids[n]).Label(n.Name + ": " + n.Label())
			if n.Action != nil && n.Action.Dir != spec.Input {
				e.Attr("style", "dashed")
			}
		}
		if c, ok := ids[n.CutBy]; ok && n.CutBy != nil {
			g.Edge(ids[n], c).Attr("style", "dotted").Attr("constraint", "false").Label("⊆")
		}
	}
	return g
}

func treeLabel(n *symex.Node, vars []*spec.Variable) string {
	loc := n.State.Loc
	if n.Sink {
		loc = "qδ"
	}
	s := fmt.Sprintf("%s %s\n%s", loc, n.PathString(), n.State.VarsString(vars))
	if !spec.IsTrue(n.State.PC) {
		s += "\n" + spec.Format(n.State.PC)
	}
	return s
}
