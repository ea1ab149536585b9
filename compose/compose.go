package compose

import (
	"fmt"
	"time"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// System is a system of Def 7: a system name (its Structure) with the
// ioSTS it denotes, and its immediate sub-systems (Parts: two for a
// composition, one for a hiding, none for a component).
type System struct {
	Structure *spec.Structure
	Parts     []*System
	Leaves    []string // the components, in the order of a State

	Variables   []*spec.Variable // qualified (Int.b)
	Initial     State
	Condition   expr.Expr // the initial condition Θ
	Invariant   expr.Expr // nil when no component has one
	States      []State   // reachable from Initial, in breadth-first order
	Transitions []*Transition

	lib *library
}

// Transition is a transition of a system: its system name, source and
// target states, its action (a channel, or an internal action) with its
// direction and parameters, guard and assignments over the qualified
// variables.
type Transition struct {
	Name     Name
	From, To State
	Action   string
	Dir      spec.Dir // Input, Output or Internal
	Params   []*spec.Param
	Guard    expr.Expr
	Assign   []spec.Assignment
	Pos      expr.Pos // of the basic transition that emits, or of the first input
}

// Build returns the system sys describes, built bottom-up along its
// structure, with BuildWith on a solver context of its own (each query
// bounded by PruneTimeout).
func Build(sys *spec.System) (*System, error) {
	ctx, err := solver.NewContext()
	if err != nil {
		return nil, fmt.Errorf("compose: cannot start the solver: %v", err)
	}
	defer ctx.Close()
	ctx.SetTimeout(PruneTimeout)
	return BuildWith(ctx, sys)
}

// PruneTimeout bounds each satisfiability query of Build: a guard the
// solver does not decide in time is kept.
const PruneTimeout = 10 * time.Second

// BuildWith returns the system sys describes, built bottom-up along its
// structure. With a solver context (ctx not nil), a transition whose
// guard is unsatisfiable under the invariant is dropped, with the states
// only such transitions reach, and the complement guards of R2 and R4
// are simplified (solver.Context.Simplify); without, only a guard that
// is literally false is dropped. An undecided guard is kept.
func BuildWith(ctx *solver.Context, sys *spec.System) (*System, error) {
	lib := newLibrary(sys)
	lib.ctx = ctx
	g, err := lib.build(sys.Structure)
	if err != nil {
		return nil, err
	}
	if lib.err != nil {
		return nil, lib.err
	}
	return g, nil
}

func (lib *library) build(st *spec.Structure) (*System, error) {
	switch st.Op {
	case spec.Leaf:
		return lib.basic(st)
	case spec.Hiding:
		g, err := lib.build(st.Parts[0])
		if err != nil {
			return nil, err
		}
		return hide(st, g), nil
	}
	g1, err := lib.build(st.Parts[0])
	if err != nil {
		return nil, err
	}
	g2, err := lib.build(st.Parts[1])
	if err != nil {
		return nil, err
	}
	return product(st, g1, g2), nil
}

// outgoing indexes a system's transitions by source state.
func (g *System) outgoing() map[string][]*Transition {
	out := map[string][]*Transition{}
	for _, t := range g.Transitions {
		out[t.From.key()] = append(out[t.From.key()], t)
	}
	return out
}

// product returns G1 ⊗ G2 (rules R1-R5) on the states reachable from
// (init1, init2).
func product(st *spec.Structure, g1, g2 *System) *System {
	g := &System{
		Structure: st, Parts: []*System{g1, g2}, lib: g1.lib,
		Leaves:    append(append([]string(nil), g1.Leaves...), g2.Leaves...),
		Variables: append(append([]*spec.Variable(nil), g1.Variables...), g2.Variables...),
		Initial:   concat(g1.Initial, g2.Initial),
		Condition: expr.AndOf(g1.Condition, g2.Condition),
		Invariant: andNil(g1.Invariant, g2.Invariant),
	}
	out1, out2 := g1.outgoing(), g2.outgoing()
	k := len(g1.Leaves)
	g.explore(func(s State) []*Transition {
		s1, s2 := s[:k], s[k:]
		t1, t2 := out1[s1.key()], out2[s2.key()]
		ts := rules(t1, t2, s1, s2, false, g.keep)
		return append(ts, rules(t2, t1, s2, s1, true, g.keep)...)
	})
	return g
}

func andNil(a, b expr.Expr) expr.Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return expr.AndOf(a, b)
}

// keep decides whether a transition of the product with guard may fire:
// not when the guard is literally false, nor, with a solver, when it is
// unsatisfiable under the invariant. It returns the guard to write: a
// complement guard (R2, R4) simplified by the solver.
func (g *System) keep(guard expr.Expr, complement bool) (expr.Expr, bool) {
	lib := g.lib
	if expr.IsFalse(guard) {
		return guard, false
	}
	if lib.ctx == nil || lib.err != nil {
		return guard, true
	}
	cond := guard
	if g.Invariant != nil {
		cond = expr.AndOf(g.Invariant, guard)
	}
	ok, err := lib.ctx.Possible(cond)
	if err != nil {
		lib.err = err
		return guard, true
	}
	if !ok {
		return guard, false
	}
	if complement {
		if s, err := lib.ctx.Simplify(guard); err == nil {
			return s, true
		}
	}
	return guard, true
}

// rules returns the transitions of the product from (s1, s2) that the
// transitions ts of one side (mine, from s1) start, given the
// transitions others of the other side from s2: R1 and R2 for an
// output, R3 (once: when not swapped) and R4 for an input, R5 for an
// internal transition. swapped says that mine is G2, so states are
// written (s2', s1'). keep filters and rewrites the guards.
func rules(ts, others []*Transition, s1, s2 State, swapped bool, keep func(expr.Expr, bool) (expr.Expr, bool)) []*Transition {
	var res []*Transition
	pair := func(a, b State) State {
		if swapped {
			return concat(b, a)
		}
		return concat(a, b)
	}
	add := func(t *Transition, name Name, dir spec.Dir, guard expr.Expr, assign []spec.Assignment, to1, to2 State, complement bool) {
		guard, ok := keep(guard, complement)
		if !ok {
			return
		}
		res = append(res, &Transition{Name: name, From: pair(s1, s2), To: pair(to1, to2), Action: t.Action, Dir: dir,
			Params: t.Params, Guard: guard, Assign: assign, Pos: t.Pos})
	}
	for _, t := range ts {
		if t.Dir == spec.Internal { // R5
			add(t, t.Name, t.Dir, t.Guard, t.Assign, t.To, s2, false)
			continue
		}
		var receivers []*Transition
		for _, u := range others {
			if u.Action == t.Action && u.Dir == spec.Input {
				receivers = append(receivers, u)
			}
		}
		complement := []expr.Expr{t.Guard}
		for _, u := range receivers {
			complement = append(complement, expr.NotOf(u.Guard))
			switch {
			case t.Dir == spec.Output: // R1
				add(t, join(t.Name, u.Name), spec.Output, expr.AndOf(t.Guard, u.Guard), both(t, u, swapped), t.To, u.To, false)
			case !swapped: // R3, built once from G1's side
				add(t, join(t.Name, u.Name), spec.Input, expr.AndOf(t.Guard, u.Guard), both(t, u, swapped), t.To, u.To, false)
			}
		}
		// R2 for an output, R4 for an input: the other side cannot receive.
		add(t, t.Name, t.Dir, expr.AndOf(complement...), t.Assign, t.To, s2, len(receivers) > 0)
	}
	return res
}

// both returns the assignments of a synchronisation, G1's first.
func both(t, u *Transition, swapped bool) []spec.Assignment {
	if swapped {
		t, u = u, t
	}
	return append(append([]spec.Assignment(nil), t.Assign...), u.Assign...)
}

// hide returns Hide(C, g): outputs on C become internal with the same
// name, inputs on C are removed.
func hide(st *spec.Structure, g *System) *System {
	hidden := map[string]bool{}
	for _, c := range st.Hidden {
		hidden[c] = true
	}
	h := &System{Structure: st, Parts: []*System{g}, Leaves: g.Leaves, lib: g.lib,
		Variables: g.Variables, Initial: g.Initial, Condition: g.Condition, Invariant: g.Invariant}
	for _, t := range g.Transitions {
		switch {
		case !hidden[t.Action] || t.Dir == spec.Internal:
			h.Transitions = append(h.Transitions, t)
		case t.Dir == spec.Output:
			u := *t
			u.Dir = spec.Internal
			h.Transitions = append(h.Transitions, &u)
		}
	}
	return h.reachable()
}

// reachable keeps the states reachable from the initial state along
// g's transitions and the transitions between them, in breadth-first
// order.
func (g *System) reachable() *System {
	out := g.outgoing()
	g.explore(func(s State) []*Transition { return out[s.key()] })
	return g
}

// explore sets g.States and g.Transitions to what next generates from
// the initial state, breadth-first.
func (g *System) explore(next func(State) []*Transition) {
	seen := map[string]bool{g.Initial.key(): true}
	g.States, g.Transitions = []State{g.Initial}, nil
	for i := 0; i < len(g.States); i++ {
		for _, t := range next(g.States[i]) {
			g.Transitions = append(g.Transitions, t)
			if !seen[t.To.key()] {
				seen[t.To.key()] = true
				g.States = append(g.States, t.To)
			}
		}
	}
}

// String returns the system's name, as in the structure.
func (g *System) String() string { return g.Structure.String() }

// Transition returns g's transition named n from state from, or nil.
func (g *System) Transition(n Name, from State) *Transition {
	for _, t := range g.Transitions {
		if t.Name.Equal(n) && t.From.key() == from.key() {
			return t
		}
	}
	return nil
}

func (t *Transition) String() string {
	return fmt.Sprintf("%s: %s -%s%s-> %s [%s]", t.Name, t.From, t.Action, dirMark(t.Dir), t.To, expr.Format(t.Guard))
}

func dirMark(d spec.Dir) string {
	switch d {
	case spec.Input:
		return "?"
	case spec.Output:
		return "!"
	}
	return "(τ)"
}
