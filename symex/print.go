package symex

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/summary"
)

// WriteText writes the nodes as an indented tree, one node a line:
//
//	[ask] amount?v@1 -> q1  x=v@1 m=m@0 t=t@0 cp=cp@0 + 1
//	    | ...path condition...
//
// labels, when not nil, marks each node with its purpose label. vars
// fixes the order of the variables.
func WriteText(w io.Writer, nodes []*Node, vars []*spec.Variable, labels func(*Node) string) error {
	for _, n := range preorder(nodes) {
		indent := strings.Repeat("  ", n.Depth)
		head := "init"
		if n.Parent != nil {
			head = n.Name + ": " + n.Label()
		}
		line := fmt.Sprintf("%s%s -> %s  %s", indent, head, location(n), n.State.VarsString(vars))
		if labels != nil {
			line += "  [" + labels(n) + "]"
		}
		switch {
		case n.CutBy != nil:
			line += "  (cut: included in " + n.CutBy.PathString() + ")"
		case n.Unknown:
			line += "  (undecided: kept)"
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
		if !expr.IsTrue(n.State.PC) {
			if _, err := fmt.Fprintf(w, "%s    | %s\n", indent, expr.Format(n.State.PC)); err != nil {
				return err
			}
		}
		for _, cl := range newCalls(n) {
			if _, err := fmt.Fprintf(w, "%s    κ %s\n", indent, cl); err != nil {
				return err
			}
		}
	}
	return nil
}

// newCalls returns the call records n's state has and its parent's has
// not (with function summaries): the calls of the transition into n.
func newCalls(n *Node) []*summary.Call {
	if n.Parent == nil {
		return n.State.Calls
	}
	return n.State.Calls[min(len(n.Parent.State.Calls), len(n.State.Calls)):]
}

func location(n *Node) string {
	if n.Sink {
		return "qδ"
	}
	return n.State.Loc
}

// JSONNode is a node as stg symex --format json writes it.
type JSONNode struct {
	ID       int               `json:"id"`
	Path     []string          `json:"path"`
	Label    string            `json:"label,omitempty"`
	Location string            `json:"location"`
	Vars     map[string]string `json:"vars"`
	PC       string            `json:"pc"`
	Parent   *int              `json:"parent,omitempty"`
	CutBy    []string          `json:"cut_by,omitempty"`
	Sink     bool              `json:"sink,omitempty"`
	Unknown  bool              `json:"undecided,omitempty"`
	Purpose  string            `json:"purpose,omitempty"`
	Calls    []string          `json:"calls,omitempty"` // κ, with function summaries
}

// WriteJSON writes the nodes and the stats as one JSON object.
func WriteJSON(w io.Writer, nodes []*Node, stats any, labels func(*Node) string) error {
	out := struct {
		Stats any        `json:"stats"`
		Nodes []JSONNode `json:"nodes"`
	}{Stats: stats}
	for _, n := range nodes {
		j := JSONNode{ID: n.ID, Path: n.Path(), Label: n.Label(), Location: location(n), Vars: map[string]string{},
			PC: expr.Format(n.State.PC), Sink: n.Sink, Unknown: n.Unknown}
		if j.Path == nil {
			j.Path = []string{}
		}
		for k, v := range n.State.Vars {
			j.Vars[k] = expr.Format(v)
		}
		if n.Parent != nil {
			id := n.Parent.ID
			j.Parent = &id
		}
		if n.CutBy != nil {
			j.CutBy = n.CutBy.Path()
			if j.CutBy == nil {
				j.CutBy = []string{}
			}
		}
		if labels != nil {
			j.Purpose = labels(n)
		}
		for _, cl := range n.State.Calls {
			j.Calls = append(j.Calls, cl.String())
		}
		out.Nodes = append(out.Nodes, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// preorder returns nodes in depth-first order from their first node (the
// root), each before its children.
func preorder(nodes []*Node) []*Node {
	if len(nodes) == 0 {
		return nil
	}
	in := make(map[*Node]bool, len(nodes))
	for _, n := range nodes {
		in[n] = true
	}
	out := make([]*Node, 0, len(nodes))
	var walk func(n *Node)
	walk = func(n *Node) {
		out = append(out, n)
		for _, c := range n.Children {
			if in[c] {
				walk(c)
			}
		}
	}
	walk(nodes[0])
	return out
}
