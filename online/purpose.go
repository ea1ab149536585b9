package online

import (
	"fmt"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// A Label is what a symbolic test purpose says of a node of the
// symbolic execution tree (Def. 13).
type Label int

const (
	Bot    Label = iota // ⊥: no accept node is reachable from the node
	Skip                // an accept node is reachable from the node
	Accept              // an accept node
)

func (l Label) String() string {
	switch l {
	case Skip:
		return "skip"
	case Accept:
		return "accept"
	}
	return "⊥"
}

// A Purpose is the labelling TP of the symbolic execution tree of a
// spec defined by a symbolic purpose file (Def. 13, finite form): the
// accept nodes are those whose path is an accept path, the skip nodes
// the ancestors of an accept node, and every other node, in particular
// every node outside the paths of the purpose, is ⊥. Nodes are
// expanded on demand by the Executor the Purpose was made with, so the
// tree, and the labels, are shared by every run that uses it.
type Purpose struct {
	Name string
	x    *symex.Executor
	root *symex.Node

	accept map[*symex.Node]bool
	below  map[*symex.Node][]*symex.Node // the accept nodes strictly below a node
	// Infeasible are the accept paths that name no node of the tree:
	// their path condition is unsatisfiable.
	Infeasible []spec.AcceptPath
}

// NewPurpose checks the accept paths of sp against x's spec (names,
// chaining, outputs, no accept ancestor: spec.SymPurpose.Check), and
// finds their nodes in the tree, expanding it along the paths. An
// accept path whose path condition is unsatisfiable names no node: it
// is listed in Infeasible. It is an error that every accept path is
// infeasible.
func NewPurpose(x *symex.Executor, sp *spec.SymPurpose) (*Purpose, error) {
	if err := sp.Check(x.Spec(), x.Name); err != nil {
		return nil, err
	}
	root, err := x.Root()
	if err != nil {
		return nil, err
	}
	p := &Purpose{Name: sp.Name, x: x, root: root, accept: map[*symex.Node]bool{}, below: map[*symex.Node][]*symex.Node{}}
	for _, a := range sp.Accept {
		n, err := p.find(a.Names)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a.Pos, err)
		}
		if n == nil {
			p.Infeasible = append(p.Infeasible, a)
			continue
		}
		p.accept[n] = true
		for up := n.Parent; up != nil; up = up.Parent {
			p.below[up] = append(p.below[up], n)
		}
	}
	if len(p.accept) == 0 {
		return nil, fmt.Errorf("%s: no accept path of %s is feasible: every path condition is unsatisfiable", sp.File, sp.Name)
	}
	return p, nil
}

// find follows names from the root; nil when a step is unsatisfiable.
func (p *Purpose) find(names []string) (*symex.Node, error) {
	n := p.root
	for _, name := range names {
		children, err := p.x.Expand(n)
		if err != nil {
			return nil, err
		}
		var next *symex.Node
		for _, c := range children {
			if c.Name == name {
				next = c
				break
			}
		}
		if next == nil {
			return nil, nil
		}
		n = next
	}
	return n, nil
}

// Executor returns the symbolic execution p labels.
func (p *Purpose) Executor() *symex.Executor { return p.x }

// Label returns TP(n).
func (p *Purpose) Label(n *symex.Node) Label {
	switch {
	case p.accept[n]:
		return Accept
	case len(p.below[n]) > 0:
		return Skip
	}
	return Bot
}

// Targets returns the accept nodes reachable from n: n itself when it is
// an accept node, the accept nodes below it when it is a skip node, none
// for ⊥.
func (p *Purpose) Targets(n *symex.Node) []*symex.Node {
	if p.accept[n] {
		return []*symex.Node{n}
	}
	return p.below[n]
}

// TargetCond returns targetCond(n) (Def. 16): the disjunction of the
// path conditions of the accept nodes reachable from n; for an accept
// node, its own path condition; false for ⊥.
func (p *Purpose) TargetCond(n *symex.Node) spec.Expr {
	var ds []spec.Expr
	for _, a := range p.Targets(n) {
		ds = append(ds, a.State.PC)
	}
	return spec.OrOf(ds...)
}

// AcceptPaths returns the paths of the feasible accept nodes, as
// "[deposit, ask, cash]".
func (p *Purpose) AcceptPaths() []string {
	var ps []string
	for _, a := range p.below[p.root] {
		ps = append(ps, a.PathString())
	}
	return ps
}
