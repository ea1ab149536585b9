package symex

import (
	"fmt"
	"io"
	"strings"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// A TauNode is a node of the τ-reduction of a symbolic execution tree
// (Def. 13 of Faivre, Gaston and Le Gall, "Symbolic model based
// testing for component oriented systems", TestCom/FATES 2007): the
// root, or a node of the
// tree reached by a visible transition (an input, an output or
// quiescence). A chain of internal steps ending in a visible step
// becomes one step: Tau are the internal nodes between the parent's
// node and Node, in order.
//
// Internal nodes that end the tree without a visible step (a leaf, a
// node cut by inclusion or at the depth bound) are kept as TauEnds of
// the TauNode they follow, and each as a child of it marked End (Node
// is then the internal node, Tau the internal nodes before it): the
// behaviour goes on there, invisibly, and is a maximal behaviour of the
// τ-reduced tree (Leaves) like any other; Node.CutBy says when inclusion
// cut it.
type TauNode struct {
	Node     *Node
	Parent   *TauNode
	Tau      []*Node
	Children []*TauNode
	TauEnds  []*Node
	End      bool // an internal chain that ends the tree (no visible step into Node)
}

// TauReduce returns the τ-reduction of the tree under root.
func TauReduce(root *Node) *TauNode {
	r := &TauNode{Node: root}
	r.collect(root, nil)
	return r
}

// collect adds the visible descendants of n reached through the
// internal chain tau.
func (r *TauNode) collect(n *Node, tau []*Node) {
	if len(n.Children) == 0 && len(tau) > 0 {
		r.TauEnds = append(r.TauEnds, n)
		r.Children = append(r.Children, &TauNode{Node: n, Parent: r, Tau: tau[:len(tau)-1], End: true})
	}
	for _, c := range n.Children {
		chain := append(append([]*Node(nil), tau...), c)
		if c.Action != nil && c.Action.Dir == spec.Internal {
			r.collect(c, chain)
			continue
		}
		v := &TauNode{Node: c, Parent: r, Tau: chain[:len(chain)-1]}
		r.Children = append(r.Children, v)
		v.collect(c, nil)
	}
}

// Leaves returns the leaves of the τ-reduced tree under r: its maximal
// behaviours, in depth-first order.
func (r *TauNode) Leaves() []*TauNode {
	if len(r.Children) == 0 {
		return []*TauNode{r}
	}
	var ls []*TauNode
	for _, c := range r.Children {
		ls = append(ls, c.Leaves()...)
	}
	return ls
}

// Path returns the τ-reduced nodes from the root's first step to r.
func (r *TauNode) Path() []*TauNode {
	var p []*TauNode
	for ; r.Parent != nil; r = r.Parent {
		p = append([]*TauNode{r}, p...)
	}
	return p
}

// Label prints the visible action of the step into r, "" for the root;
// for an End, the internal steps it ends with: "τ^3", "τ^3 (cut)" when
// inclusion cut it.
func (r *TauNode) Label() string {
	if !r.End {
		return r.Node.Label()
	}
	l := fmt.Sprintf("τ^%d", len(r.Tau)+1)
	if r.Node.CutBy != nil {
		l += " (cut)"
	}
	return l
}

// Trace prints the visible actions from the root to r: "bet?v@1 refused!".
func (r *TauNode) Trace() string {
	var ls []string
	for _, n := range r.Path() {
		ls = append(ls, n.Label())
	}
	return strings.Join(ls, " ")
}

// TauStats counts a τ-reduced tree: its visible steps, its leaves (the
// maximal behaviours), and the Ends among them, those cut by inclusion
// apart.
type TauStats struct {
	Visible int `json:"visible"`
	Leaves  int `json:"leaves"`
	Ends    int `json:"internal_ends"`
	CutEnds int `json:"internal_ends_cut"`
}

// Stats counts the τ-reduced tree under r.
func (r *TauNode) Stats() TauStats {
	var st TauStats
	var walk func(*TauNode)
	walk = func(v *TauNode) {
		switch {
		case v.End:
			st.Ends++
			if v.Node.CutBy != nil {
				st.CutEnds++
			}
		case v.Parent != nil:
			st.Visible++
		}
		if len(v.Children) == 0 {
			st.Leaves++
		}
		for _, c := range v.Children {
			walk(c)
		}
	}
	walk(r)
	return st
}

// WriteTauText prints the τ-reduced tree depth-first, one visible step
// a line: its label, the number of internal steps it hides, its target
// state and path condition, and whether it was cut by inclusion; an
// internal chain that ends the tree prints as "τ^N (end)"; the last
// line counts the tree (Stats).
func WriteTauText(w io.Writer, r *TauNode, vars []*spec.Variable) error {
	var walk func(r *TauNode, indent string) error
	walk = func(r *TauNode, indent string) error {
		n := r.Node
		line := "init"
		switch {
		case r.End:
			line = fmt.Sprintf("τ^%d (end)", len(r.Tau)+1)
		case r.Parent != nil:
			line = r.Label()
			if len(r.Tau) > 0 {
				line = fmt.Sprintf("τ^%d %s", len(r.Tau), line)
			}
		}
		line += " -> " + n.State.Loc + "  " + n.State.VarsString(vars)
		if n.CutBy != nil {
			line += fmt.Sprintf("  (cut: included in %s)", n.CutBy.PathString())
		}
		if _, err := fmt.Fprintln(w, indent+line); err != nil {
			return err
		}
		if !expr.IsTrue(n.State.PC) {
			if _, err := fmt.Fprintln(w, indent+"    | "+expr.Format(n.State.PC)); err != nil {
				return err
			}
		}
		for _, c := range r.Children {
			if err := walk(c, indent+"  "); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(r, ""); err != nil {
		return err
	}
	st := r.Stats()
	_, err := fmt.Fprintf(w, "τ-reduced: %d visible steps, %d leaves, %d internal ends (%d cut by inclusion)\n", st.Visible, st.Leaves, st.Ends, st.CutEnds)
	return err
}
