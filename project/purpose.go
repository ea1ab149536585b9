package project

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// Purpose is the symbolic test purpose TP of Def 18 for a projection:
// Accept are the targets of ext_o(p_sys') (the projection's target when
// its last step is an output; else its extensions by τ*·output, and
// quiescence after a final input), each with the projection's external
// constraint; the nodes on their paths are skip; everything else, the
// twins included, is ⊥. The labelling is a symex.Purpose of the
// sub-system's tree (the object of Def. 13 that the criteria and the
// sympurpose files also give); a Purpose adds the projection and the
// external constraints, which SymPurpose writes out for online testing.
type Purpose struct {
	Projection *Projection
	Accept     []Extended
	tp         *symex.Purpose
}

// Purpose returns the test purpose of Def 18 for p, unfolding the
// sub-system's tree after p's target as ext_o needs. It fails when p is
// empty (the sub-system does not move) or no output follows.
func (pj *Projector) Purpose(p *Projection) (*Purpose, error) {
	if len(p.Steps) == 0 {
		return nil, fmt.Errorf("the path %s does not move %s: no purpose", p.Leaf.PathString(), p.On.Name)
	}
	tp := &Purpose{Projection: p}
	last := p.Last()
	if d := last.Node.Action.Dir; d == spec.Output {
		tp.Accept = []Extended{last}
	} else {
		ends, err := pj.extensions(last)
		if err != nil {
			return nil, err
		}
		for _, n := range ends {
			tp.Accept = append(tp.Accept, Extended{Node: n, EC: last.EC})
		}
	}
	if len(tp.Accept) == 0 {
		return nil, fmt.Errorf("%s ends with %s and no output nor quiescence can follow: no purpose", p, last.Node.Label())
	}
	nodes := make([]*symex.Node, len(tp.Accept))
	for i, a := range tp.Accept {
		nodes[i] = a.Node
	}
	tp.tp = symex.NewPurpose(p.String(), nil, nodes)
	return tp, nil
}

// extensions returns the targets of the extensions of last by
// τ*·output, and, after an input, its quiescence: the δ nodes of the
// tree reached through internal steps (where the tester's tree has
// them), kept when quiescence is possible there under the external
// constraint by Def 14 (symex.TauQuiescence).
func (pj *Projector) extensions(last Extended) ([]*symex.Node, error) {
	n := last.Node
	var ends, deltas []*symex.Node
	todo := []*symex.Node{n}
	for len(todo) > 0 && len(todo) < 10000 {
		k := todo[0]
		todo = todo[1:]
		children, err := pj.X.Expand(k)
		if err != nil {
			return nil, err
		}
		for _, c := range children {
			switch {
			case c.Name == symex.DeltaName:
				deltas = append(deltas, c)
			case c.Action.Dir == spec.Internal:
				todo = append(todo, c)
			case c.Action.Dir == spec.Output:
				ends = append(ends, c)
			}
		}
	}
	if n.Action.Dir != spec.Input || len(deltas) == 0 {
		return ends, nil
	}
	q, err := symex.TauQuiescence(pj.z, symex.TauReduce(n), last.EC)
	if err != nil {
		return nil, err
	}
	if ok, err := pj.z.Possible(expr.AndOf(q, last.EC)); err != nil || !ok {
		return ends, err
	}
	return append(ends, deltas...), nil
}

// Label returns TP(n) for a node of the sub-system's tree; a twin,
// which shares its node with a step's target, is ⊥.
func (tp *Purpose) Label(n *symex.Node) symex.Label { return tp.tp.Label(n) }

// SymPurpose returns tp as a sympurpose file of the sub-system's spec
// (written specPath): one accept path per accept node, with the
// external constraint written over the spec's variables and the
// steps' parameters (spec.AcceptPath.Constraint).
func (tp *Purpose) SymPurpose(z *solver.Context, name, specPath string) (*spec.SymPurpose, error) {
	sp := &spec.SymPurpose{Name: name, Spec: specPath}
	for _, a := range tp.Accept {
		ap := spec.AcceptPath{Names: a.Node.Path()}
		c, err := Readable(z, a, ap)
		if err != nil {
			return nil, err
		}
		if !expr.IsTrue(c) {
			ap.Constraint = expr.Format(c)
		}
		sp.Accept = append(sp.Accept, ap)
	}
	return sp, nil
}

// Readable returns a's external constraint over the names a
// sympurpose's constraint uses (spec.AcceptPath.ParseConstraint): a
// step's parameter as NAME.p or stepK.p, a variable whose value at the
// node is a symbol by its name. A symbol without a name is eliminated
// (∃), which weakens the constraint: the purpose then accepts more, and
// Fail, which the constraint never decides, is unchanged. Conjuncts that
// the node's path condition implies are left out.
func Readable(z *solver.Context, a Extended, ap spec.AcceptPath) (expr.Expr, error) {
	names := map[string]*expr.Ident{}
	var steps []*symex.Node
	for k := a.Node; k.Parent != nil; k = k.Parent {
		steps = append([]*symex.Node{k}, steps...)
	}
	for k, s := range steps {
		for i, arg := range s.Args {
			names[arg.Name] = &expr.Ident{Name: ap.StepName(k) + "." + s.Action.Params[i].Name, Kind: expr.VarIdent, T: arg.T}
		}
	}
	for x, v := range a.Node.State.Vars {
		if id, ok := v.(*expr.Ident); ok && symex.IsSymbol(id) && names[id.Name] == nil {
			names[id.Name] = &expr.Ident{Name: x, Kind: expr.VarIdent, T: id.T}
		}
	}
	ec := a.EC
	unnamed := map[string]*expr.Ident{}
	expr.Idents(ec, func(id *expr.Ident) {
		if symex.IsSymbol(id) && names[id.Name] == nil {
			unnamed[id.Name] = id
		}
	})
	if len(unnamed) > 0 {
		var ids []*expr.Ident
		for _, id := range unnamed {
			ids = append(ids, id)
		}
		slices.SortFunc(ids, func(a, b *expr.Ident) int { return strings.Compare(a.Name, b.Name) })
		var err error
		if ec, err = z.EliminateExists(ids, ec); err != nil {
			return nil, fmt.Errorf("%s: cannot write the external constraint %s: %v", a.Node.PathString(), expr.Format(a.EC), err)
		}
	}
	var keep []expr.Expr
	for _, c := range expr.Conjuncts(Simplify(z, ec)) {
		implied, err := z.Entails(a.Node.State.PC, c)
		if err != nil && !strings.Contains(err.Error(), "unknown") {
			return nil, err
		}
		if !implied {
			keep = append(keep, c)
		}
	}
	return expr.Rewrite(expr.AndOf(keep...), func(id *expr.Ident) expr.Expr {
		if n := names[id.Name]; n != nil {
			return n
		}
		return nil
	}), nil
}
