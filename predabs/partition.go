package predabs

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// finiteLimit bounds the domains that are enumerated value by value
// (images and cell labels); larger ones go through quantifier
// elimination and Z3's simplifier.
const finiteLimit = 64

// partition computes SD^x: the atomic predicates of the purpose on x,
// the images of D(x) by the EGAs of O^P, and the smallest partition of
// D(x) they generate.
func (a *Abstraction) partition(ctx *solver.Context, x *Var) (*Partition, error) {
	p := &Partition{Var: x, Sp: a.Purpose.Atoms[x.Name]}
	for _, g := range a.Behaviour.EGAs {
		if !contains(a.Actions, g.Action) {
			continue
		}
		img, err := a.image(ctx, x, g)
		if err != nil {
			return nil, err
		}
		if img != nil {
			p.Op = append(p.Op, img)
		}
	}
	cells := []spec.Expr{x.Domain()}
	for _, pred := range append(append([]spec.Expr(nil), p.Sp...), p.Op...) {
		var next []spec.Expr
		for _, c := range cells {
			for _, part := range []spec.Expr{spec.AndOf(c, pred), spec.AndOf(c, spec.NotOf(pred))} {
				ok, err := ctx.Possible(part)
				if err != nil {
					return nil, err
				}
				if ok {
					next = append(next, part)
				}
			}
		}
		cells = next
	}
	for _, c := range cells {
		cell, err := describeCell(ctx, x, c)
		if err != nil {
			return nil, err
		}
		p.Cells = append(p.Cells, cell)
	}
	sortCells(x, p.Cells)
	return p, nil
}

// image computes sp(x ∈ D(x), g) = x' ∈ V (§VI): the values x takes
// after g, from any state in the domains, as a predicate on x. It is
// nil when g can never fire.
func (a *Abstraction) image(ctx *solver.Context, x *Var, g *EGA) (spec.Expr, error) {
	b := a.Behaviour
	body := spec.AndOf(b.domains(), g.Guard, g.Post(b.domains()))
	val := g.Assign[x.Name]
	if vals := x.Values(finiteLimit); vals != nil {
		var in []spec.Expr
		for _, c := range vals {
			ok, err := ctx.Possible(spec.AndOf(body, spec.Compare(spec.Eq, val, c)))
			if err != nil {
				return nil, err
			}
			if ok {
				in = append(in, c)
			}
		}
		if len(in) == 0 {
			return nil, nil
		}
		return runsPred(x, in), nil
	}
	primed := spec.VarRef(x.Name+"'", x.Type)
	body = spec.AndOf(body, spec.Compare(spec.Eq, primed, val))
	var ids []*spec.Ident
	seen := map[string]bool{}
	spec.Idents(body, func(id *spec.Ident) {
		k := fmt.Sprint(id.Kind, id.Name)
		if id.Name != x.Name+"'" && !seen[k] {
			seen[k] = true
			ids = append(ids, id)
		}
	})
	img, err := ctx.EliminateExists(ids, body)
	if err != nil {
		// Over-approximate: the whole domain adds no cell.
		return x.Domain(), nil
	}
	if spec.IsFalse(img) {
		return nil, nil
	}
	return spec.Substitute(img, map[string]spec.Expr{x.Name + "'": x.Ref()}, nil), nil
}

// describeCell gives a cell a canonical predicate and label: the set of
// its values for a finite domain (x == v, x ∈ {v, w}, x ∈ lo..hi), its
// intervals for a larger integer range (x ∈ 1..99, x ∈ {0..5, 7}), or
// Z3's simplification of the cell otherwise.
func describeCell(ctx *solver.Context, x *Var, c spec.Expr) (*Cell, error) {
	vals := x.Values(finiteLimit)
	if vals == nil && x.Type.Kind == spec.Int && x.Range != nil {
		cell, ok, err := intervalCell(ctx, x, c)
		if err != nil || ok {
			return cell, err
		}
	}
	if vals == nil {
		s, err := ctx.Simplify(c)
		if err != nil && !errors.Is(err, solver.ErrUnknown) {
			s = c
		}
		return &Cell{Pred: s, Label: spec.Format(s)}, nil
	}
	var in []spec.Expr
	for _, v := range vals {
		ok, err := ctx.Possible(spec.AndOf(c, spec.Compare(spec.Eq, x.Ref(), v)))
		if err != nil {
			return nil, err
		}
		if ok {
			in = append(in, v)
		}
	}
	return valueCell(x, in), nil
}

// valueCell is the cell of the values in (in domain order).
func valueCell(x *Var, in []spec.Expr) *Cell {
	if len(in) == 1 {
		e := spec.Compare(spec.Eq, x.Ref(), in[0])
		return &Cell{Pred: e, Label: spec.Format(e)}
	}
	if lo, hi, ok := interval(in); ok {
		pred := spec.AndOf(spec.Compare(spec.Le, in[0], x.Ref()), spec.Compare(spec.Le, x.Ref(), in[len(in)-1]))
		return &Cell{Pred: pred, Label: fmt.Sprintf("%s ∈ %s..%s", x.Name, lo, hi)}
	}
	var eqs []spec.Expr
	var names []string
	for _, v := range in {
		eqs = append(eqs, spec.Compare(spec.Eq, x.Ref(), v))
		names = append(names, spec.Format(v))
	}
	return &Cell{Pred: spec.OrOf(eqs...), Label: fmt.Sprintf("%s ∈ {%s}", x.Name, strings.Join(names, ", "))}
}

// interval reports whether the integer literals in are consecutive.
func interval(in []spec.Expr) (lo, hi *big.Int, ok bool) {
	for i, e := range in {
		l, isInt := e.(*spec.IntLit)
		if !isInt {
			return nil, nil, false
		}
		if i == 0 {
			lo = l.Val
		} else if new(big.Int).Sub(l.Val, hi).Cmp(big.NewInt(1)) != 0 {
			return nil, nil, false
		}
		hi = l.Val
	}
	return lo, hi, true
}

// sortCells orders the cells of a finite domain, or those described by
// intervals, by their first value (they are built in the order of the
// predicates otherwise).
func sortCells(x *Var, cells []*Cell) {
	vals := x.Values(finiteLimit)
	if vals == nil {
		sortByLeast(cells)
		return
	}
	first := func(c *Cell) int {
		for i, v := range vals {
			if cellHas(c, x, v) {
				return i
			}
		}
		return len(vals)
	}
	for i := 1; i < len(cells); i++ {
		for j := i; j > 0 && first(cells[j]) < first(cells[j-1]); j-- {
			cells[j], cells[j-1] = cells[j-1], cells[j]
		}
	}
}

// cellHas evaluates the predicate of a cell on x = v.
func cellHas(c *Cell, x *Var, v spec.Expr) bool {
	val, err := spec.Eval(v, spec.Valuation{})
	if err != nil {
		return false
	}
	ok, err := spec.EvalBool(c.Pred, spec.Valuation{Vars: map[string]spec.Value{x.Name: val}})
	return err == nil && ok
}
