package abstraction

import (
	"math/big"
)

// Intervals returns the domain of boxes: a closed interval (possibly
// unbounded) per dimension, with integer bounds on integer dimensions.
func Intervals() Domain { return itvDomain{} }

type itvDomain struct{}

func (itvDomain) Name() string { return "intervals" }

func (itvDomain) Universe(sp *Space) Value {
	return &itv{sp: sp, lo: make([]bound, sp.Dim()), hi: make([]bound, sp.Dim())}
}

func (itvDomain) Empty(sp *Space) Value { return &itv{sp: sp, empty: true} }

// A bound is a finite rational bound, or infinite if v is nil (-∞ for a
// lower bound, +∞ for an upper bound). The Rat is never modified.
type bound struct{ v *big.Rat }

func (b bound) inf() bool { return b.v == nil }

// An itv is a box; strict bounds are closed (an over-approximation).
type itv struct {
	sp     *Space
	empty  bool
	lo, hi []bound
}

func (p *itv) cast(v Value) *itv {
	q, ok := v.(*itv)
	if !ok {
		panic("abstraction: mixing values of different domains")
	}
	checkSameDim(p.sp, q.sp)
	return q
}

func (p *itv) clone() *itv {
	return &itv{sp: p.sp, lo: append([]bound(nil), p.lo...), hi: append([]bound(nil), p.hi...)}
}

func (p *itv) Space() *Space { return p.sp }
func (p *itv) IsEmpty() bool { return p.empty }

func (p *itv) IsUniverse() bool {
	if p.empty {
		return false
	}
	for d := range p.lo {
		if !p.lo[d].inf() || !p.hi[d].inf() {
			return false
		}
	}
	return true
}

// loLe reports a <= b for lower bounds, hiLe for upper bounds.
func loLe(a, b bound) bool { return a.inf() || (!b.inf() && a.v.Cmp(b.v) <= 0) }
func hiLe(a, b bound) bool { return b.inf() || (!a.inf() && a.v.Cmp(b.v) <= 0) }

func (p *itv) Includes(o Value) bool {
	q := p.cast(o)
	if q.empty {
		return true
	}
	if p.empty {
		return false
	}
	for d := range p.lo {
		if !loLe(p.lo[d], q.lo[d]) || !hiLe(q.hi[d], p.hi[d]) {
			return false
		}
	}
	return true
}

func (p *itv) Equal(o Value) bool {
	q := p.cast(o)
	return p.Includes(q) && q.Includes(p)
}

func (p *itv) Meet(o Value) Value {
	q := p.cast(o)
	if p.empty {
		return p
	}
	if q.empty {
		return q
	}
	r := p.clone()
	for d := range r.lo {
		if !loLe(q.lo[d], r.lo[d]) {
			r.lo[d] = q.lo[d]
		}
		if !hiLe(r.hi[d], q.hi[d]) {
			r.hi[d] = q.hi[d]
		}
		if r.crossed(d) {
			return &itv{sp: p.sp, empty: true}
		}
	}
	return r
}

// crossed reports whether dimension d has an empty interval.
func (p *itv) crossed(d int) bool {
	return !p.lo[d].inf() && !p.hi[d].inf() && p.lo[d].v.Cmp(p.hi[d].v) > 0
}

func (p *itv) Join(o Value) Value {
	q := p.cast(o)
	if p.empty {
		return q
	}
	if q.empty {
		return p
	}
	r := p.clone()
	for d := range r.lo {
		if !loLe(r.lo[d], q.lo[d]) {
			r.lo[d] = q.lo[d]
		}
		if !hiLe(q.hi[d], r.hi[d]) {
			r.hi[d] = q.hi[d]
		}
	}
	return r
}

// Widen pushes every unstable bound to the nearest threshold beyond the
// newer bound, or to infinity. Only thresholds over a single dimension
// are bounds; others are ignored.
func (p *itv) Widen(newer Value, thresholds []Constraint) Value {
	q := p.cast(newer)
	if p.empty {
		return q
	}
	if !q.Includes(p) {
		q = p.Join(q).(*itv)
	}
	r := q.clone()
	for d := range r.lo {
		if !loLe(p.lo[d], q.lo[d]) { // lower bound decreased
			r.lo[d] = bound{}
			for _, t := range thresholds {
				if v, isLo, ok := thresholdBound(t, d); ok && isLo && loLe(bound{v}, q.lo[d]) && loLe(r.lo[d], bound{v}) {
					r.lo[d] = bound{v}
				}
			}
		}
		if !hiLe(q.hi[d], p.hi[d]) { // upper bound increased
			r.hi[d] = bound{}
			for _, t := range thresholds {
				if v, isLo, ok := thresholdBound(t, d); ok && !isLo && hiLe(q.hi[d], bound{v}) && hiLe(bound{v}, r.hi[d]) {
					r.hi[d] = bound{v}
				}
			}
		}
	}
	return r
}

// thresholdBound returns the bound a single-dimension constraint on d
// puts on d (isLo: a lower bound). Equalities give an upper bound here;
// they are rarely useful as thresholds.
func thresholdBound(c Constraint, d int) (v *big.Rat, isLo, ok bool) {
	if len(c.Expr.terms) != 1 || c.Expr.terms[0].dim != d {
		return nil, false, false
	}
	a := c.Expr.terms[0].coef
	v = c.Expr.ConstTerm()
	v.Neg(v).Quo(v, a) // a*x + k <= 0  =>  x <= -k/a (a > 0) or x >= -k/a
	return v, a.Sign() < 0, true
}

func (p *itv) Forget(dims ...int) Value {
	if p.empty {
		return p
	}
	r := p.clone()
	for _, d := range dims {
		r.lo[d], r.hi[d] = bound{}, bound{}
	}
	return r
}

// eval returns the interval of e over p by interval arithmetic.
func (p *itv) eval(e LinExpr) (lo, hi bound) {
	l, h := e.ConstTerm(), e.ConstTerm()
	linf, hinf := false, false
	for _, t := range e.terms {
		if t.dim >= p.sp.Dim() {
			panic("abstraction: expression dimension out of range")
		}
		a, b := p.lo[t.dim], p.hi[t.dim]
		if t.coef.Sign() < 0 {
			a, b = b, a
		}
		if a.inf() {
			linf = true
		} else if !linf {
			l.Add(l, new(big.Rat).Mul(t.coef, a.v))
		}
		if b.inf() {
			hinf = true
		} else if !hinf {
			h.Add(h, new(big.Rat).Mul(t.coef, b.v))
		}
	}
	if !linf {
		lo.v = l
	}
	if !hinf {
		hi.v = h
	}
	return lo, hi
}

// round makes the bounds of integer dimension d integers; it reports
// whether the interval became empty.
func (p *itv) round(d int) bool {
	if p.sp.isInt(d) {
		if b := p.lo[d]; !b.inf() && !b.v.IsInt() {
			p.lo[d] = bound{ceilRat(b.v)}
		}
		if b := p.hi[d]; !b.inf() && !b.v.IsInt() {
			p.hi[d] = bound{floorRat(b.v)}
		}
	}
	return p.crossed(d)
}

func floorRat(r *big.Rat) *big.Rat {
	return new(big.Rat).SetInt(new(big.Int).Div(r.Num(), r.Denom()))
}

func ceilRat(r *big.Rat) *big.Rat {
	f := floorRat(r)
	if f.Cmp(r) != 0 {
		f.Add(f, big.NewRat(1, 1))
	}
	return f
}

func (p *itv) Image(assign map[int]LinExpr) Value {
	if p.empty || len(assign) == 0 {
		return p
	}
	r := p.clone()
	for d, e := range assign {
		r.lo[d], r.hi[d] = p.eval(e) // from p: the assignment is simultaneous
		if r.round(d) {
			return &itv{sp: p.sp, empty: true}
		}
	}
	return r
}

// Preimage forgets the assigned dimensions and constrains each assigned
// expression to the old interval of its dimension, by propagation.
func (p *itv) Preimage(assign map[int]LinExpr) Value {
	if p.empty || len(assign) == 0 {
		return p
	}
	r := p.clone()
	var cs []Constraint
	for d, e := range assign {
		if !p.lo[d].inf() {
			cs = append(cs, Constraint{Const(p.lo[d].v).Sub(e), Le})
		}
		if !p.hi[d].inf() {
			cs = append(cs, Constraint{e.Sub(Const(p.hi[d].v)), Le})
		}
		r.lo[d], r.hi[d] = bound{}, bound{}
	}
	return r.MeetConstraints(cs)
}

// MeetConstraints propagates each constraint to the bounds of its
// variables (interval constraint propagation), for a few rounds: sound at
// any point, exact for constraints over a single variable.
func (p *itv) MeetConstraints(cs []Constraint) Value {
	if p.empty {
		return p
	}
	var rows []vec
	for _, c := range cs {
		v, eq, truth := constraintVec(p.sp, c, true)
		switch {
		case truth < 0:
			return &itv{sp: p.sp, empty: true}
		case truth > 0:
			continue
		}
		rows = append(rows, v)
		if eq {
			rows = append(rows, v.neg())
		}
	}
	if len(rows) == 0 {
		return p
	}
	r := p.clone()
	for round := 0; round < 8; round++ {
		changed := false
		for _, v := range rows {
			ch, empty := r.propagate(v)
			if empty {
				return &itv{sp: p.sp, empty: true}
			}
			changed = changed || ch
		}
		if !changed {
			break
		}
	}
	return r
}

// propagate narrows r with v[0] + sum v[i+1]*x_i >= 0.
func (r *itv) propagate(v vec) (changed, empty bool) {
	n := v.len() - 1
	// max of each term v_j*x_j and their finite sum.
	maxs := make([]*big.Rat, n)
	sum := new(big.Rat).SetInt(v.at(0, new(big.Int)))
	ninf, infAt := 0, -1
	for j := 0; j < n; j++ {
		if v.sign(j+1) == 0 {
			continue
		}
		b := r.hi[j]
		if v.sign(j+1) < 0 {
			b = r.lo[j]
		}
		if b.inf() {
			ninf++
			infAt = j
			continue
		}
		maxs[j] = new(big.Rat).Mul(new(big.Rat).SetInt(v.at(j+1, new(big.Int))), b.v)
		sum.Add(sum, maxs[j])
	}
	if ninf == 0 && sum.Sign() < 0 {
		return false, true
	}
	for i := 0; i < n; i++ {
		if v.sign(i+1) == 0 || ninf > 1 || (ninf == 1 && infAt != i) {
			continue
		}
		// v_i*x_i >= -(sum of the other terms' maxima): rest = sum - max_i.
		rest := new(big.Rat).Set(sum)
		if maxs[i] != nil {
			rest.Sub(rest, maxs[i])
		}
		rest.Neg(rest).Quo(rest, new(big.Rat).SetInt(v.at(i+1, new(big.Int))))
		if v.sign(i+1) > 0 {
			if !loLe(bound{rest}, r.lo[i]) {
				r.lo[i] = bound{rest}
				changed = true
			}
		} else if !hiLe(r.hi[i], bound{rest}) {
			r.hi[i] = bound{rest}
			changed = true
		}
		if r.round(i) {
			return changed, true
		}
	}
	return changed, false
}

func (p *itv) Constraints() []Constraint {
	if p.empty {
		return []Constraint{falseConstraint()}
	}
	var cs []Constraint
	for d := range p.lo {
		lo, hi := p.lo[d], p.hi[d]
		switch {
		case !lo.inf() && !hi.inf() && lo.v.Cmp(hi.v) == 0:
			cs = append(cs, Constraint{Var(d).Sub(Const(lo.v)), Eq})
			continue
		case !lo.inf():
			cs = append(cs, Constraint{Const(lo.v).Sub(Var(d)), Le})
		}
		if !hi.inf() {
			cs = append(cs, Constraint{Var(d).Sub(Const(hi.v)), Le})
		}
	}
	return cs
}

func (p *itv) String() string { return formatConstraints(p.sp, p.Constraints(), p.empty) }
