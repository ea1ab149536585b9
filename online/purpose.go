package online

import (
	"fmt"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// A Purpose is the labelling TP of the symbolic execution tree of a
// spec defined by a symbolic purpose file (Def. 13, finite form): the
// accept nodes are those whose path is an accept path, the skip nodes
// the ancestors of an accept node, and every other node, in particular
// every node outside the paths of the purpose, is ⊥. The labelling is a
// symex.Purpose (the same object as the purposes of the criteria); a
// Purpose adds the external constraints of its accept nodes and the
// Executor that expands the tree on demand, so the tree, and the labels,
// are shared by every run that uses it.
type Purpose struct {
	Name string
	x    *symex.Executor
	root *symex.Node
	tp   *symex.Purpose

	// ec is the external constraint of an accept node (Def 10 of the
	// component-systems paper), over the tree's symbols; nil when the
	// accept path has none.
	ec map[*symex.Node]expr.Expr
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
	p := &Purpose{Name: sp.Name, x: x, root: root, ec: map[*symex.Node]expr.Expr{}}
	var accept []*symex.Node
	for _, a := range sp.Accept {
		n, err := x.Follow(root, a.Names)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a.Pos, err)
		}
		if n == nil {
			p.Infeasible = append(p.Infeasible, a)
			continue
		}
		accept = append(accept, n)
		if p.ec[n], err = constraint(x.Spec(), a, n); err != nil {
			return nil, err
		}
	}
	if len(accept) == 0 {
		return nil, fmt.Errorf("%s: no accept path of %s is feasible: every path condition is unsatisfiable", sp.File, sp.Name)
	}
	p.tp = symex.NewPurpose(sp.Name, nil, accept)
	return p, nil
}

// Executor returns the symbolic execution p labels.
func (p *Purpose) Executor() *symex.Executor { return p.x }

// Label returns TP(n).
func (p *Purpose) Label(n *symex.Node) symex.Label { return p.tp.Label(n) }

// Targets returns the accept nodes reachable from n: n itself when it is
// an accept node, the accept nodes below it when it is a skip node, none
// for ⊥.
func (p *Purpose) Targets(n *symex.Node) []*symex.Node { return p.tp.Targets(n) }

// Cond returns the condition of the accept node a: its path condition
// and its external constraint, if any. Where π(a) holds but not the
// constraint, the run is in a's complementary twin (Def 12 of the
// component-systems paper), which is ⊥.
func (p *Purpose) Cond(a *symex.Node) expr.Expr {
	if ec := p.ec[a]; ec != nil {
		return expr.AndOf(a.State.PC, ec)
	}
	return a.State.PC
}

// TargetCond returns targetCond(n) (Def. 16): the disjunction of the
// conditions (Cond) of the accept nodes reachable from n; for an accept
// node, its own; false for ⊥.
func (p *Purpose) TargetCond(n *symex.Node) expr.Expr {
	var ds []expr.Expr
	for _, a := range p.Targets(n) {
		ds = append(ds, p.Cond(a))
	}
	return expr.OrOf(ds...)
}

// AcceptPaths returns the paths of the feasible accept nodes, as
// "[deposit, ask, cash]".
func (p *Purpose) AcceptPaths() []string {
	var ps []string
	for _, a := range p.tp.Accept {
		ps = append(ps, a.PathString())
	}
	return ps
}

// constraint reads the external constraint of the accept path a, whose
// node is n, over the tree's symbols: a variable is its value at n, a
// step's parameter the symbol of that step. nil when a has none.
func constraint(m *spec.Model, a spec.AcceptPath, n *symex.Node) (expr.Expr, error) {
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
	return expr.Rewrite(e, func(id *expr.Ident) expr.Expr {
		if k, param, ok := a.StepParam(id.Name); ok && steps[k].Action != nil {
			for i, q := range steps[k].Action.Params {
				if q.Name == param && i < len(steps[k].Args) {
					return steps[k].Args[i]
				}
			}
		}
		if v, ok := n.State.Vars[id.Name]; ok && id.Kind == expr.VarIdent {
			return v
		}
		return nil
	}), nil
}
