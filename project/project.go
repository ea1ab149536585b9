package project

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// Extended is a symbolic extended state η = (q, π, f, σ) (Def 10): the
// node of the sub-system's symbolic execution tree gives q, π and σ,
// EC is f, over the node's symbols.
type Extended struct {
	Node *symex.Node
	EC   expr.Expr
}

// Step is the projection of one system step onto the sub-system (Def
// 15) with its complementary twin (Def 12): Trans is tr_sys', Target is
// SE(tr_sys', η, ct) and Twin is SE(tr_sys', η, ¬ct), where η is the
// previous step's target and ct the system target's path condition over
// the sub-system's symbols. Both share the node (and so the fresh
// variable z): they differ by their external constraints only.
type Step struct {
	System  *symex.Node // the system's node reached by the projected step
	Trans   *spec.Transition
	CT      expr.Expr // ct
	Target  Extended
	Twin    Extended
	TwinSat bool // π ∧ f of the twin is satisfiable (or undecided)
}

// A Projection is the projection p_sys' of a system path onto a
// sub-system (Def 16).
type Projection struct {
	On     *Target
	Path   []*symex.Node // the system path, from the root's first step
	Init   Extended      // (init(sys'), true, true, σ0)
	Steps  []*Step
	Leaf   *symex.Node // the system path's last node
	symbol map[string]*expr.Ident
}

// Last returns the projection's target state.
func (p *Projection) Last() Extended {
	if len(p.Steps) == 0 {
		return p.Init
	}
	return p.Steps[len(p.Steps)-1].Target
}

// A Projector projects paths of one system tree onto one sub-system,
// whose tree its Executor unfolds on demand.
type Projector struct {
	z  *solver.Context
	On *Target
	X  *symex.Executor
}

// NewProjector returns a projector onto t, with its own executor of
// t.Spec.
func NewProjector(z *solver.Context, t *Target) (*Projector, error) {
	x, err := symex.NewExecutor(z, t.Spec, symex.Options{})
	if err != nil {
		return nil, err
	}
	return &Projector{z: z, On: t, X: x}, nil
}

// Project returns the projection of the path from the system tree's
// root to leaf (Def 16). Quiescence steps of the system path project to
// nothing.
func (pj *Projector) Project(leaf *symex.Node) (*Projection, error) {
	root, err := pj.X.Root()
	if err != nil {
		return nil, err
	}
	p := &Projection{On: pj.On, Leaf: leaf, Init: Extended{Node: root, EC: expr.True()}, symbol: map[string]*expr.Ident{}}
	for _, v := range pj.On.Spec.Variables {
		if id, ok := root.State.Vars[v.Name].(*expr.Ident); ok && symex.IsSymbol(id) {
			p.symbol[pj.On.sysVar(v.Name)+"@0"] = id
		}
	}
	for n := leaf; n.Parent != nil; n = n.Parent {
		p.Path = append([]*symex.Node{n}, p.Path...)
	}
	for _, sn := range p.Path {
		if err := pj.step(p, sn); err != nil {
			return nil, fmt.Errorf("projecting %s onto %s: %v", sn.PathString(), pj.On.Name, err)
		}
	}
	return p, nil
}

// step appends to p the projection of the system step into sn, if the
// sub-system takes part in it.
func (pj *Projector) step(p *Projection, sn *symex.Node) error {
	if sn.Trans == nil {
		return nil // quiescence
	}
	tr := pj.On.project(sn.Trans)
	if tr == nil {
		return nil
	}
	from := p.Last()
	children, err := pj.X.Expand(from.Node)
	if err != nil {
		return err
	}
	var c *symex.Node
	for _, k := range children {
		if k.Trans == tr {
			c = k
		}
	}
	if c == nil {
		return fmt.Errorf("%s has no step by %s in the sub-system's tree", from.Node.PathString(), pj.X.Name(tr))
	}
	for i, a := range sn.Args {
		if i < len(c.Args) {
			p.symbol[a.Name] = c.Args[i]
		}
	}
	ct, err := pj.constraint(p, sn.State.PC)
	if err != nil {
		return err
	}
	st := &Step{System: sn, Trans: tr, CT: ct,
		Target: Extended{Node: c, EC: Simplify(pj.z, expr.AndOf(from.EC, ct))},
		Twin:   Extended{Node: c, EC: expr.AndOf(from.EC, expr.NotOf(ct))}}
	if st.TwinSat, err = pj.z.Possible(expr.AndOf(c.State.PC, st.Twin.EC)); err != nil {
		return err
	}
	p.Steps = append(p.Steps, st)
	return nil
}

// constraint returns ∃F_sys. pc over the sub-system's symbols: the
// system's symbols the sub-system shares renamed to the sub-system's,
// the others eliminated.
func (pj *Projector) constraint(p *Projection, pc expr.Expr) (expr.Expr, error) {
	e, others := p.rename(pc)
	if len(others) == 0 {
		return Simplify(pj.z, e), nil
	}
	q, err := pj.z.EliminateExists(others, e)
	if err != nil {
		return nil, fmt.Errorf("cannot eliminate the system's own symbols from %s: %v", expr.Format(pc), err)
	}
	bad := false
	expr.Idents(q, func(id *expr.Ident) { bad = bad || strings.HasPrefix(id.Name, "sys:") })
	if bad {
		return nil, errors.New("quantifier elimination left a system symbol")
	}
	return Simplify(pj.z, q), nil
}

// rename returns pc over the sub-system's symbols: the system's symbols
// the sub-system shares renamed to the sub-system's, the others to
// sys:NAME, returned sorted by name.
func (p *Projection) rename(pc expr.Expr) (expr.Expr, []*expr.Ident) {
	others := map[string]*expr.Ident{}
	e := expr.Rewrite(pc, func(id *expr.Ident) expr.Expr {
		if !symex.IsSymbol(id) {
			return nil
		}
		if s, ok := p.symbol[id.Name]; ok {
			return s
		}
		o, ok := others[id.Name]
		if !ok {
			o = &expr.Ident{Name: "sys:" + id.Name, Kind: expr.VarIdent, T: id.T}
			others[id.Name] = o
		}
		return o
	})
	ids := make([]*expr.Ident, 0, len(others))
	for _, o := range others {
		ids = append(ids, o)
	}
	slices.SortFunc(ids, func(a, b *expr.Ident) int { return strings.Compare(a.Name, b.Name) })
	return e, ids
}

// Simplify returns e simplified by the solver (or e when it cannot),
// its conjuncts in the order of their text: the solver's order may vary
// from run to run, the printed constraints do not.
func Simplify(z *solver.Context, e expr.Expr) expr.Expr {
	if s, err := z.Simplify(e); err == nil {
		e = s
	}
	cs := expr.Conjuncts(e)
	slices.SortStableFunc(cs, func(a, b expr.Expr) int { return strings.Compare(expr.Format(a), expr.Format(b)) })
	return expr.AndOf(cs...)
}

// Name returns the sub-system's name.
func (p *Projection) String() string {
	names := make([]string, len(p.Steps))
	for i, s := range p.Steps {
		names[i] = s.Target.Node.Name
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// compose transition of a system flat transition (same index).
func indexCompose(flat *spec.Model, g *compose.System) map[*spec.Transition]*compose.Transition {
	m := make(map[*spec.Transition]*compose.Transition, len(flat.Transitions))
	for i, t := range flat.Transitions {
		if i < len(g.Transitions) {
			m[t] = g.Transitions[i]
		}
	}
	return m
}
