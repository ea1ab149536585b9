package predabs

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
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
	cells := []expr.Expr{x.Domain()}
	for _, pred := range append(append([]expr.Expr(nil), p.Sp...), p.Op...) {
		var next []expr.Expr
		for _, c := range cells {
			for _, part := range []expr.Expr{expr.AndOf(c, pred), expr.AndOf(c, expr.NotOf(pred))} {
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
func (a *Abstraction) image(ctx *solver.Context, x *Var, g *EGA) (expr.Expr, error) {
	b := a.Behaviour
	body := expr.AndOf(b.domains(), g.Guard, g.Post(b.domains()))
	val := g.Assign[x.Name]
	if vals := x.Values(finiteLimit); vals != nil {
		var in []expr.Expr
		for _, c := range vals {
			ok, err := ctx.Possible(expr.AndOf(body, expr.Compare(expr.Eq, val, c)))
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
	primed := expr.VarRef(x.Name+"'", x.Type)
	body = expr.AndOf(body, expr.Compare(expr.Eq, primed, val))
	var ids []*expr.Ident
	seen := map[string]bool{}
	expr.Idents(body, func(id *expr.Ident) {
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
	if expr.IsFalse(img) {
		return nil, nil
	}
	return expr.Substitute(img, map[string]expr.Expr{x.Name + "'": x.Ref()}, nil), nil
}

// describeCell gives a cell a canonical predicate and label: the set of
// its values for a finite domain (x == v, x ∈ {v, w}, x ∈ lo..hi), its
// intervals for a larger integer range (x ∈ 1..99, x ∈ {0..5, 7}), or
// Z3's simplification of the cell otherwise.
func describeCell(ctx *solver.Context, x *Var, c expr.Expr) (*Cell, error) {
	vals := x.Values(finiteLimit)
	if vals == nil && x.Type.Kind == expr.Int && x.Range != nil {
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
		return &Cell{Pred: s, Label: expr.Format(s)}, nil
	}
	var in []expr.Expr
	for _, v := range vals {
		ok, err := ctx.Possible(expr.AndOf(c, expr.Compare(expr.Eq, x.Ref(), v)))
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
func valueCell(x *Var, in []expr.Expr) *Cell {
	if len(in) == 1 {
		e := expr.Compare(expr.Eq, x.Ref(), in[0])
		return &Cell{Pred: e, Label: expr.Format(e)}
	}
	if lo, hi, ok := interval(in); ok {
		pred := expr.AndOf(expr.Compare(expr.Le, in[0], x.Ref()), expr.Compare(expr.Le, x.Ref(), in[len(in)-1]))
		return &Cell{Pred: pred, Label: fmt.Sprintf("%s ∈ %s..%s", x.Name, lo, hi)}
	}
	var eqs []expr.Expr
	var names []string
	for _, v := range in {
		eqs = append(eqs, expr.Compare(expr.Eq, x.Ref(), v))
		names = append(names, expr.Format(v))
	}
	return &Cell{Pred: expr.OrOf(eqs...), Label: fmt.Sprintf("%s ∈ {%s}", x.Name, strings.Join(names, ", "))}
}

// interval reports whether the integer literals in are consecutive.
func interval(in []expr.Expr) (lo, hi *big.Int, ok bool) {
	for i, e := range in {
		l, isInt := e.(*expr.IntLit)
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
func cellHas(c *Cell, x *Var, v expr.Expr) bool {
	val, err := expr.Eval(v, expr.Valuation{})
	if err != nil {
		return false
	}
	ok, err := expr.EvalBool(c.Pred, expr.Valuation{Vars: map[string]expr.Value{x.Name: val}})
	return err == nil && ok
}
