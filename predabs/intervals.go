package predabs

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// maxIntervals bounds the intervals a cell of a large integer range is
// described by; beyond, its label is Z3's simplification.
const maxIntervals = 8

// span is the closed interval [lo, hi] of integers.
type span struct{ lo, hi *big.Int }

// intervalCell describes the cell c of the ranged integer variable x as a
// union of at most maxIntervals intervals, found by binary search with
// the solver: "x ∈ 1..99", "x == 100", "x ∈ {0..5, 7, 10..20}". ok is
// false when the cell needs more intervals or a query is undecided.
func intervalCell(ctx *solver.Context, x *Var, c expr.Expr) (cell *Cell, ok bool, err error) {
	r := x.Range
	var spans []span
	cur := new(big.Int).Set(r.Lo)
	for cur.Cmp(r.Hi) <= 0 {
		if len(spans) == maxIntervals {
			return nil, false, nil
		}
		// a: the least value of c in [cur, hi]; none ends the search.
		a, found, err := least(ctx, x, c, cur, r.Hi)
		if err != nil || !found {
			return nil, false, err
		}
		if a == nil {
			break
		}
		// b + 1: the least value of [a, hi] outside c.
		out, found, err := least(ctx, x, expr.NotOf(c), a, r.Hi)
		if err != nil || !found {
			return nil, false, err
		}
		b := new(big.Int).Set(r.Hi)
		if out != nil {
			b.Sub(out, big.NewInt(1))
		}
		spans = append(spans, span{a, b})
		cur = new(big.Int).Add(b, big.NewInt(1))
	}
	if len(spans) == 0 {
		return nil, false, nil
	}
	cell = spanCell(x, spans)
	cell.least = spans[0].lo
	return cell, true, nil
}

// sortByLeast orders cells by their least value when every one was
// described by intervals, and leaves them alone otherwise.
func sortByLeast(cells []*Cell) {
	for _, c := range cells {
		if c.least == nil {
			return
		}
	}
	slices.SortStableFunc(cells, func(a, b *Cell) int { return a.least.Cmp(b.least) })
}

// least returns the least v in [lo, hi] satisfying c (nil when none);
// found is false when a query is undecided.
func least(ctx *solver.Context, x *Var, c expr.Expr, lo, hi *big.Int) (v *big.Int, found bool, err error) {
	in := func(a, b *big.Int) (bool, bool, error) {
		r, err := ctx.Sat(expr.AndOf(c, expr.Compare(expr.Le, expr.BigIntConst(a), x.Ref()), expr.Compare(expr.Le, x.Ref(), expr.BigIntConst(b))))
		if errors.Is(err, solver.ErrUnknown) {
			return false, false, nil
		}
		return r == solver.Sat, err == nil, err
	}
	ok, decided, err := in(lo, hi)
	if err != nil || !decided || !ok {
		return nil, decided, err
	}
	l, h := new(big.Int).Set(lo), new(big.Int).Set(hi) // the least lies in [l, h]
	for l.Cmp(h) < 0 {
		mid := new(big.Int).Add(l, h)
		mid.Rsh(mid, 1) // floor, also for negatives
		ok, decided, err := in(l, mid)
		if err != nil || !decided {
			return nil, decided, err
		}
		if ok {
			h = mid
		} else {
			l = mid.Add(mid, big.NewInt(1))
		}
	}
	return l, true, nil
}

// spanCell is the cell of the union of spans, in increasing order.
func spanCell(x *Var, spans []span) *Cell {
	var preds []expr.Expr
	var names []string
	for _, s := range spans {
		lo, hi := expr.BigIntConst(s.lo), expr.BigIntConst(s.hi)
		if s.lo.Cmp(s.hi) == 0 {
			preds = append(preds, expr.Compare(expr.Eq, x.Ref(), lo))
			names = append(names, s.lo.String())
			continue
		}
		preds = append(preds, expr.AndOf(expr.Compare(expr.Le, lo, x.Ref()), expr.Compare(expr.Le, x.Ref(), hi)))
		names = append(names, fmt.Sprintf("%s..%s", s.lo, s.hi))
	}
	pred := expr.OrOf(preds...)
	switch {
	case len(spans) == 1 && spans[0].lo.Cmp(spans[0].hi) == 0:
		return &Cell{Pred: pred, Label: expr.Format(pred)}
	case len(spans) == 1:
		return &Cell{Pred: pred, Label: fmt.Sprintf("%s ∈ %s", x.Name, names[0])}
	}
	return &Cell{Pred: pred, Label: fmt.Sprintf("%s ∈ {%s}", x.Name, strings.Join(names, ", "))}
}

// runsPred is x ∈ values as a disjunction of its runs of consecutive
// integers (lo <= x && x <= hi, or x == v), or of equalities when the
// values are not integers.
func runsPred(x *Var, values []expr.Expr) expr.Expr {
	var spans []span
	for _, v := range values {
		l, ok := v.(*expr.IntLit)
		if !ok {
			var eqs []expr.Expr
			for _, w := range values {
				eqs = append(eqs, expr.Compare(expr.Eq, x.Ref(), w))
			}
			return expr.OrOf(eqs...)
		}
		if n := len(spans); n > 0 && new(big.Int).Sub(l.Val, spans[n-1].hi).Cmp(big.NewInt(1)) == 0 {
			spans[n-1].hi = l.Val
			continue
		}
		spans = append(spans, span{l.Val, l.Val})
	}
	return spanCell(x, spans).Pred
}
