package coreach

import (
	"container/heap"
	"sort"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Options tune the fixpoint computations.
type Options struct {
	// WideningDelay is the number of times a loop head is updated by
	// plain joins before widening starts (default 2).
	WideningDelay int
	// Narrowing is the number of descending iterations after the
	// ascending ones have stabilised (default 2).
	Narrowing int
	// Slicing is the number of rounds in which the forward and backward
	// results refine each other (NBac's slicing): the forward analysis
	// is restricted to co-reachable states, which are the only ones a
	// test case can be in after the Keep rule, and the backward one to
	// reachable states. Default 1; a negative value disables it.
	Slicing int

	// reference selects the plain algorithm the tests compare with:
	// every guard met as a predicate at every transfer, and descending
	// iterations as full sweeps.
	reference bool
}

func (o Options) withDefaults() Options {
	if o.WideningDelay <= 0 {
		o.WideningDelay = 2
	}
	if o.Slicing == 0 {
		o.Slicing = 1
	}
	if o.Narrowing < 0 {
		o.Narrowing = 0
	} else if o.Narrowing == 0 {
		o.Narrowing = 2
	}
	return o
}

// Analyze computes reach_α and coreach_α for the product p in the given
// abstract domain, by abstract interpretation: chaotic iterations over
// the locations with a worklist, widening at loop heads after a delay,
// thresholds taken from the constraints of the model's guards, then
// descending iterations.
//
//	coreach(l) = ⊤ for l ∈ Accept,
//	coreach(l) = ⊔_{t=<l,a,G,A,l'>, l' ≠ Fail} ∃P. (G ∧ coreach(l')[A])
//	reach(l0)  = Θ
//	reach(l')  = ⊔_{t=<l,a,G,A,l'>} (∃P. (reach(l) ∧ G))[A]
//
// The domains are exact rational arithmetic of their own: the analysis
// needs no solver.
func Analyze(p *product.Product, dom abstraction.Domain, opts Options) (*Result, error) {
	opts = opts.withDefaults()
	a := newAnalysis(p, dom, opts)
	// With slicing, the first unrestricted forward result would only be
	// replaced by the restricted one before any use: the rounds start
	// from the unrestricted coreach.
	var reach []abstraction.Value
	if opts.Slicing <= 0 {
		reach = a.forward(nil)
	}
	co := a.backward(nil)
	for i := 0; i < opts.Slicing; i++ {
		reach = a.forward(co)
		co = a.backward(reach)
	}
	r := &Result{Coreach: map[string]expr.Expr{}, Reach: map[string]expr.Expr{}}
	for _, l := range p.Locations {
		if l == p.Fail {
			continue
		}
		r.Reach[l] = a.f.expr(reach[a.index[l]])
		r.Coreach[l] = a.f.expr(co[a.index[l]])
	}
	return r, nil
}

type edge struct {
	t         *spec.Transition
	from, to  int
	affine    map[int]abstraction.LinExpr
	havoc     []int
	guardOnly bool  // no assignment to a represented variable
	guard     guard // t.Guard, compiled once
}

type analysis struct {
	p          *product.Product
	dom        abstraction.Domain
	opts       Options
	f          *frame
	locs       []string
	index      map[string]int
	out, in    [][]*edge
	thresholds []abstraction.Constraint
	top        abstraction.Value
	init       abstraction.Value
}

func newAnalysis(p *product.Product, dom abstraction.Domain, opts Options) *analysis {
	a := &analysis{p: p, dom: dom, opts: opts, f: newFrame(p), index: map[string]int{}}
	for _, l := range p.Locations {
		if l == p.Fail {
			continue
		}
		a.index[l] = len(a.locs)
		a.locs = append(a.locs, l)
	}
	a.out = make([][]*edge, len(a.locs))
	a.in = make([][]*edge, len(a.locs))
	a.top = dom.Universe(a.f.space)
	seen := map[string]bool{}
	addThresholds := func(g expr.Expr) {
		for _, c := range a.f.constraintsOf(g) {
			key := c.String(a.f.space)
			if !seen[key] {
				seen[key] = true
				a.thresholds = append(a.thresholds, c)
			}
		}
	}
	guards := compiledGuards{}
	for _, t := range p.Transitions {
		if t.To == p.Fail {
			continue
		}
		e := &edge{t: t, from: a.index[t.From], to: a.index[t.To]}
		e.affine, e.havoc = a.f.assignment(t)
		e.guardOnly = len(e.affine) == 0 && len(e.havoc) == 0
		g, seen := guards.find(t.Action, t.Guard)
		if !seen {
			g = a.f.compile(t.Guard, dom.Name() == "polyhedra")
			guards.add(t.Action, t.Guard, g)
			addThresholds(t.Guard)
		}
		e.guard = g
		if opts.reference {
			e.guard = guard{steps: []guardStep{{e: t.Guard}}}
		}
		if e.guardOnly && e.from == e.to {
			// A self-loop that changes no represented variable (a delta
			// loop, an enquiry) adds nothing in either direction:
			// post(e, X) and pre(e, X) are included in X. Leaving it out
			// lets the descending iterations recover bounds that such a
			// loop would otherwise keep at their widened value.
			continue
		}
		a.out[e.from] = append(a.out[e.from], e)
		a.in[e.to] = append(a.in[e.to], e)
	}
	addThresholds(p.Initial.Condition)
	a.init = a.f.meet(a.top, p.Initial.Condition)
	return a
}

// constraintsOf returns the linear atoms of a predicate, used as
// widening thresholds (both polarities of each comparison).
func (f *frame) constraintsOf(e expr.Expr) []abstraction.Constraint {
	var cs []abstraction.Constraint
	var walk func(e expr.Expr)
	walk = func(e expr.Expr) {
		switch e := e.(type) {
		case *expr.Unary:
			walk(e.X)
		case *expr.Binary:
			if e.Op == expr.And || e.Op == expr.Or {
				walk(e.X)
				walk(e.Y)
				return
			}
			if e.Op.IsComparison() && e.Op != expr.Ne && e.Op != expr.Eq {
				if c, ok := f.atom(e.Op, e.X, e.Y); ok {
					cs = append(cs, c...)
				}
				if c, ok := f.atom(e.Op.Negate(), e.X, e.Y); ok {
					cs = append(cs, c...)
				}
			}
		}
	}
	walk(e)
	return cs
}

// post is the abstract successor of x through e (params projected).
func (a *analysis) post(e *edge, x abstraction.Value) abstraction.Value {
	y := a.f.meetGuard(x, e.guard)
	if y.IsEmpty() {
		return y
	}
	if len(e.havoc) > 0 {
		y = y.Forget(e.havoc...)
	}
	if len(e.affine) > 0 {
		y = y.Image(e.affine)
	}
	return y.Forget(a.f.paramD...)
}

// pre is the abstract predecessor of x through e (params projected).
func (a *analysis) pre(e *edge, x abstraction.Value) abstraction.Value {
	if x.IsEmpty() {
		return x
	}
	y := x
	if len(e.havoc) > 0 {
		// The assigned value is unknown: any value of those variables
		// before the transition may lead into x.
		y = y.Forget(e.havoc...)
	}
	if len(e.affine) > 0 {
		y = y.Preimage(e.affine)
	}
	y = a.f.meetGuard(y, e.guard)
	return y.Forget(a.f.paramD...)
}

// forward computes reach, restricted to within[l] when within is given
// (except at the initial location, whose initial states all count).
func (a *analysis) forward(within []abstraction.Value) []abstraction.Value {
	n := len(a.locs)
	empty := a.dom.Empty(a.f.space)
	val := make([]abstraction.Value, n)
	for i := range val {
		val[i] = empty
	}
	init := a.index[a.p.Initial.Location]
	heads := loopHeads(n, []int{init}, func(i int) []int { return targets(a.out[i]) })
	transfer := func(i int) abstraction.Value {
		v := empty
		if i == init {
			v = a.init
		}
		for _, e := range a.in[i] {
			v = v.Join(a.post(e, val[e.from]))
		}
		if within != nil && i != init {
			v = v.Meet(within[i])
		}
		return v
	}
	a.solve(val, heads, transfer, func(i int) []int { return targets(a.out[i]) }, []int{init})
	return val
}

// backward computes coreach, restricted to within[l] when given.
func (a *analysis) backward(within []abstraction.Value) []abstraction.Value {
	n := len(a.locs)
	empty := a.dom.Empty(a.f.space)
	val := make([]abstraction.Value, n)
	var seeds []int
	for i, l := range a.locs {
		val[i] = empty
		if a.p.Accept[l] {
			seeds = append(seeds, i)
		}
	}
	heads := loopHeads(n, seeds, func(i int) []int { return sources(a.in[i]) })
	transfer := func(i int) abstraction.Value {
		if a.p.Accept[a.locs[i]] {
			return a.top
		}
		v := empty
		for _, e := range a.out[i] {
			v = v.Join(a.pre(e, val[e.to]))
		}
		if within != nil {
			v = v.Meet(within[i])
		}
		return v
	}
	a.solve(val, heads, transfer, func(i int) []int { return sources(a.in[i]) }, seeds)
	return val
}

// solve iterates transfer to a post-fixpoint with widening at heads,
// then narrows. next(i) lists the locations whose value depends on i.
func (a *analysis) solve(val []abstraction.Value, heads []bool, transfer func(int) abstraction.Value, next func(int) []int, seeds []int) {
	n := len(val)
	order := priorities(n, seeds, next)
	updates := make([]int, n)
	widened := make([]bool, n)
	w := &worklist{prio: order, in: make([]bool, n)}
	for _, s := range seeds {
		w.push(s)
	}
	for w.Len() > 0 {
		i := w.pop()
		v := transfer(i)
		if val[i].Includes(v) {
			continue
		}
		if heads[i] {
			updates[i]++
			if updates[i] > a.opts.WideningDelay {
				widened[i] = true
				v = val[i].Widen(val[i].Join(v), a.thresholds)
			} else {
				v = val[i].Join(v)
			}
		} else {
			v = val[i].Join(v)
		}
		val[i] = v
		for _, j := range next(i) {
			w.push(j)
		}
	}
	if a.opts.reference {
		for r := 0; r < a.opts.Narrowing; r++ {
			for _, i := range byPriority(order) {
				val[i] = transfer(i).Meet(val[i])
			}
		}
		return
	}
	a.narrow(val, widened, transfer, next, order)
}

// narrow runs the descending iterations: each round recomputes the
// locations in priority order from the current (post-fixpoint) values;
// the result stays a post-fixpoint, hence sound, and can only shrink.
//
// A round recomputes only the locations that can change: at the end of
// the ascending iterations every location that was never widened holds
// exactly its transfer (its value is the join of transfers of growing
// inputs, so the last one), and so does every location whose inputs
// have not changed since it was last recomputed. Round 0 starts from
// the widened loop heads; a change at i marks the locations that depend
// on i, in this round when they come later in the order and in the next
// one otherwise: the values are those of full sweeps, for a fraction of
// the transfers.
func (a *analysis) narrow(val []abstraction.Value, widened []bool, transfer func(int) abstraction.Value, next func(int) []int, order []int) {
	n := len(val)
	var dirty []int
	for i, w := range widened {
		if w {
			dirty = append(dirty, i)
		}
	}
	for r := 0; r < a.opts.Narrowing && len(dirty) > 0; r++ {
		w := &worklist{prio: order, in: make([]bool, n)}
		for _, i := range dirty {
			w.push(i)
		}
		later := make([]bool, n)
		dirty = dirty[:0]
		for w.Len() > 0 {
			i := w.pop()
			v := transfer(i).Meet(val[i])
			changed := !v.Equal(val[i])
			val[i] = v
			if !changed {
				continue
			}
			for _, j := range next(i) {
				if order[j] > order[i] {
					w.push(j)
				} else if !later[j] {
					later[j] = true
					dirty = append(dirty, j)
				}
			}
		}
	}
}

func targets(es []*edge) []int {
	var r []int
	for _, e := range es {
		r = append(r, e.to)
	}
	return r
}

func sources(es []*edge) []int {
	var r []int
	for _, e := range es {
		r = append(r, e.from)
	}
	return r
}

// loopHeads marks the targets of back edges of a depth-first search from
// the seeds: widening there suffices for termination (every cycle
// contains one).
func loopHeads(n int, seeds []int, next func(int) []int) []bool {
	heads := make([]bool, n)
	state := make([]byte, n) // 0 new, 1 on stack, 2 done
	type frameT struct {
		v    int
		succ []int
		k    int
	}
	for _, s := range seeds {
		if state[s] != 0 {
			continue
		}
		stack := []frameT{{v: s, succ: next(s)}}
		state[s] = 1
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.k == len(top.succ) {
				state[top.v] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			w := top.succ[top.k]
			top.k++
			switch state[w] {
			case 0:
				state[w] = 1
				stack = append(stack, frameT{v: w, succ: next(w)})
			case 1:
				heads[w] = true
			}
		}
	}
	// Locations not reached from the seeds never get a value; still mark
	// none of them.
	return heads
}

// priorities numbers locations in reverse post-order of a search from
// the seeds, so that the worklist processes a location after the ones
// it depends on (within an acyclic part).
func priorities(n int, seeds []int, next func(int) []int) []int {
	prio := make([]int, n)
	for i := range prio {
		prio[i] = n + i // unreached: last
	}
	seen := make([]bool, n)
	var post []int
	type frameT struct {
		v    int
		succ []int
		k    int
	}
	for _, s := range seeds {
		if seen[s] {
			continue
		}
		seen[s] = true
		stack := []frameT{{v: s, succ: next(s)}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.k == len(top.succ) {
				post = append(post, top.v)
				stack = stack[:len(stack)-1]
				continue
			}
			w := top.succ[top.k]
			top.k++
			if !seen[w] {
				seen[w] = true
				stack = append(stack, frameT{v: w, succ: next(w)})
			}
		}
	}
	for k, v := range post {
		prio[v] = len(post) - 1 - k
	}
	return prio
}

func byPriority(prio []int) []int {
	idx := make([]int, len(prio))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(x, y int) bool { return prio[idx[x]] < prio[idx[y]] })
	return idx
}

// worklist is a set of locations popped by increasing priority.
type worklist struct {
	prio  []int
	in    []bool
	items []int
}

func (w *worklist) Len() int           { return len(w.items) }
func (w *worklist) Less(i, j int) bool { return w.prio[w.items[i]] < w.prio[w.items[j]] }
func (w *worklist) Swap(i, j int)      { w.items[i], w.items[j] = w.items[j], w.items[i] }
func (w *worklist) Push(x any)         { w.items = append(w.items, x.(int)) }
func (w *worklist) Pop() any {
	x := w.items[len(w.items)-1]
	w.items = w.items[:len(w.items)-1]
	return x
}

func (w *worklist) push(i int) {
	if !w.in[i] {
		w.in[i] = true
		heap.Push(w, i)
	}
}

func (w *worklist) pop() int {
	i := heap.Pop(w).(int)
	w.in[i] = false
	return i
}
