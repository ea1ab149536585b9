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
	// ec is the external constraint of an accept node (Def 10 of the
	// component-systems paper), over the tree's symbols; true when the
	// accept path has none.
	ec    map[*symex.Node]spec.Expr
	below map[*symex.Node][]*symex.Node // the accept nodes strictly below a node
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
	p := &Purpose{Name: sp.Name, x: x, root: root, accept: map[*symex.Node]bool{}, ec: map[*symex.Node]spec.Expr{}, below: map[*symex.Node][]*symex.Node{}}
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
		if p.ec[n], err = constraint(x.Spec(), a, n); err != nil {
			return nil, err
		}
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

// Cond returns the condition of the accept node a: its path condition
// and its external constraint, if any. Where π(a) holds but not the
// constraint, the run is in a's complementary twin (Def 12 of the
// component-systems paper), which is ⊥.
func (p *Purpose) Cond(a *symex.Node) spec.Expr {
	if ec := p.ec[a]; ec != nil {
		return spec.AndOf(a.State.PC, ec)
	}
	return a.State.PC
}

// TargetCond returns targetCond(n) (Def. 16): the disjunction of the
// conditions (Cond) of the accept nodes reachable from n; for an accept
// node, its own; false for ⊥.
func (p *Purpose) TargetCond(n *symex.Node) spec.Expr {
	var ds []spec.Expr
	for _, a := range p.Targets(n) {
		ds = append(ds, p.Cond(a))
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

// constraint reads the external constraint of the accept path a, whose
// node is n, over the tree's symbols: a variable is its value at n, a
// step's parameter the symbol of that step. nil when a has none.
func constraint(m *spec.Model, a spec.AcceptPath, n *symex.Node) (spec.Expr, error) {
	if a.Constraint == "" {
		return nil, nil
	}
	var steps []*symex.Node
	for k := n; k.Parent != nil; k = k.Parent {
		steps = append([]*symex.Node{k}, steps...)
	}
	trans := make([]*spec.Transition, len(steps))
	for i, s := range steps {
		trans[i] = s.Trans
	}
	e, err := a.ParseConstraint(m, trans)
	if err != nil {
		return nil, err
	}
	return spec.Rewrite(e, func(id *spec.Ident) spec.Expr {
		if k, param, ok := a.StepParam(id.Name); ok && steps[k].Action != nil {
			for i, q := range steps[k].Action.Params {
				if q.Name == param && i < len(steps[k].Args) {
					return steps[k].Args[i]
				}
			}
		}
		if v, ok := n.State.Vars[id.Name]; ok && id.Kind == spec.VarIdent {
			return v
		}
		return nil
	}), nil
}
