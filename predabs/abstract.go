package predabs

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Options select the variant of the abstraction.
type Options struct {
	// Vars, when not empty, is X^A itself, overriding the rule of
	// Abstraction.Vars.
	Vars []string
	// NoFilter keeps the transitions that only the exact check refutes
	// (the paper's "without filtering"); by default they are removed.
	NoFilter bool
	// Reachable keeps only the abstract states reachable from an initial
	// one, and the transitions between them.
	Reachable bool
}

// Abstraction is the abstraction A of a behavioural model M guided by a
// test purpose TP (§VI–VII-A): the abstraction variables, their
// partitions SD^x, the abstract states (cells of the product of the
// partitions consistent with I) and the abstract transitions, one per
// EGA whose step between two abstract states is satisfiable.
type Abstraction struct {
	Behaviour *Behaviour
	Purpose   *Purpose
	Options   Options

	Actions []string // O^P: the actions the purpose names explicitly
	SpVars  []string // X^A_sp: the variables of the purpose's state predicates
	OpVars  []string // X^A_op: the variables some EGA of O^P modifies (literal ∃)
	Dropped []string // variables of X^A_op left out: determined by the others under I
	Vars    []*Partition

	States      []*State      // consistent with I (and reachable with Options.Reachable)
	Transitions []*Transition // the abstract transitions kept
	Filtered    []*Transition // refuted by the exact check (kept in Transitions too with NoFilter)

	Compatible []string // empty when Prop. 1 holds: why the purpose is not compatible with A
	Stats      Stats
}

// Partition is SD^x for one abstraction variable x.
type Partition struct {
	Var   *Var
	Sp    []expr.Expr // SD^x_sp: the purpose's atomic predicates on x
	Op    []expr.Expr // SD^x_op: the images sp(x ∈ D(x), T_oi), o ∈ O^P
	Cells []*Cell     // the smallest partition of D(x) they generate
}

// Cell is an element x ∈ V of a partition.
type Cell struct {
	Pred  expr.Expr // on x
	Label string
	least *big.Int // the least value, for a cell described by intervals
}

// State is an abstract state: one cell per abstraction variable.
type State struct {
	ID        int
	Cells     []int // index in Abstraction.Vars[i].Cells
	Pred      expr.Expr
	Label     string
	Initial   bool // consistent with init
	Reachable bool // reachable from an initial state by the kept transitions
	impliesI  bool // Pred ∧ domains ⇒ I
}

// Transition is an abstract transition a →o a' for one EGA.
type Transition struct {
	From, To *State
	EGA      *EGA
	// Unproved: the weak prover (without the invariant) neither refuted
	// nor proved it; it is kept, as GeneSyst keeps inconclusive proofs.
	Unproved bool
	// Filtered: the exact check (Z3 with the invariant) refutes it.
	Filtered bool
}

// Action returns the action of the transition.
func (t *Transition) Action() string { return t.EGA.Action }

// Reflexive reports whether t loops on one abstract state.
func (t *Transition) Reflexive() bool { return t.From == t.To }

// Stats are the columns of Table I.
type Stats struct {
	Actions, EGAs      int     // of M
	EnumVars, NumVars  int     // of M
	AvgDomain          float64 // average size of the enumerated domains
	TPStates, TPTrans  int     // of TP (transitions as written)
	TPActions, TPPreds int     // |O^P|, number of state predicates
	Candidates         int     // abstract states before I
	States, Reachable  int     // consistent with I; reachable
	Transitions        int     // kept (with filtering unless NoFilter), one per EGA
	LTSTransitions     int     // the same as LTS transitions: distinct (a, o, a')
	PO                 int     // proof obligations: |Q^A| × |EGA| × |Q^A|
	ProvedAbsent       int     // refuted by the weak prover
	Unproved           int     // kept without being proved by the weak prover
	Filtered           int     // unproved ones the exact check refutes
	POTime, FilterTime time.Duration
}

// Abstract computes the abstraction of the spec s guided by the purpose
// tp. Every query runs in ctx; an undecided query keeps the state or
// transition (over-approximation).
func Abstract(ctx *solver.Context, s, tp *spec.Model, opts Options) (*Abstraction, error) {
	b, err := NewBehaviour(s)
	if err != nil {
		return nil, err
	}
	p, err := NewPurpose(b, tp)
	if err != nil {
		return nil, err
	}
	a := &Abstraction{Behaviour: b, Purpose: p, Options: opts}
	a.Actions = p.Explicit(b)
	if err := a.chooseVars(ctx); err != nil {
		return nil, err
	}
	for _, name := range a.varNames() {
		part, err := a.partition(ctx, b.Var(name))
		if err != nil {
			return nil, err
		}
		a.Vars = append(a.Vars, part)
	}
	if err := a.states(ctx); err != nil {
		return nil, err
	}
	if err := a.transitions(ctx); err != nil {
		return nil, err
	}
	a.reach()
	if err := a.checkCompatible(ctx); err != nil {
		return nil, err
	}
	a.fillStats()
	return a, nil
}

// varNames returns X^A in the behaviour's order.
func (a *Abstraction) varNames() []string {
	if len(a.Options.Vars) > 0 {
		return a.Options.Vars
	}
	in := map[string]bool{}
	for _, x := range a.SpVars {
		in[x] = true
	}
	for _, x := range a.OpVars {
		in[x] = true
	}
	for _, x := range a.Dropped {
		in[x] = false
	}
	var out []string
	for _, v := range a.Behaviour.Vars {
		if in[v.Name] {
			out = append(out, v.Name)
		}
	}
	return out
}

// chooseVars computes X^A_sp, X^A_op and the dropped variables, under
// the documented reading of ambiguity 1 (SEEDS §4(b)): x ∈ X^A_op when
// some EGA of some action of O^P assigns x' = e with e ≠ x; then each
// variable of X^A_op not in X^A_sp is dropped, in order, when the other
// remaining variables determine it under I.
func (a *Abstraction) chooseVars(ctx *solver.Context) error {
	b := a.Behaviour
	a.SpVars = a.Purpose.vars(b)
	op := map[string]bool{}
	for _, g := range b.EGAs {
		if !contains(a.Actions, g.Action) {
			continue
		}
		for _, v := range b.Vars {
			if g.Modifies(v.Name) {
				op[v.Name] = true
			}
		}
	}
	for _, v := range b.Vars {
		if op[v.Name] {
			a.OpVars = append(a.OpVars, v.Name)
		}
	}
	if len(a.Options.Vars) > 0 {
		for _, x := range a.Options.Vars {
			if b.Var(x) == nil {
				return fmt.Errorf("--vars: %s is not a variable of %s", x, b.Spec.Name)
			}
		}
		return nil
	}
	for _, x := range a.OpVars {
		if contains(a.SpVars, x) {
			continue
		}
		var others []string
		for _, y := range a.varNames() {
			if y != x {
				others = append(others, y)
			}
		}
		det, err := a.determined(ctx, x, others)
		if err != nil {
			return err
		}
		if det {
			a.Dropped = append(a.Dropped, x)
		}
	}
	return nil
}

// determined reports whether the values of ys determine the value of x
// in the states satisfying I: I(X) ∧ I(X~) ∧ ys = ys~ ∧ x ≠ x~ is
// unsatisfiable. An undecided query answers no.
func (a *Abstraction) determined(ctx *solver.Context, x string, ys []string) (bool, error) {
	b := a.Behaviour
	tilde := map[string]expr.Expr{}
	for _, v := range b.Vars {
		tilde[v.Name] = expr.VarRef(v.Name+"~", v.Type)
	}
	parts := []expr.Expr{b.Invariant, expr.Substitute(b.Invariant, tilde, nil)}
	for _, y := range ys {
		parts = append(parts, expr.Compare(expr.Eq, b.Var(y).Ref(), tilde[y]))
	}
	parts = append(parts, expr.NotOf(expr.Compare(expr.Eq, b.Var(x).Ref(), tilde[x])))
	r, err := ctx.Sat(expr.AndOf(parts...))
	if errors.Is(err, solver.ErrUnknown) {
		return false, nil
	}
	return r == solver.Unsat, err
}

// states builds the cells of the cartesian product of the partitions
// and keeps those consistent with I.
func (a *Abstraction) states(ctx *solver.Context) error {
	idx := make([]int, len(a.Vars))
	for {
		a.Stats.Candidates++
		var labels []string
		var ps []expr.Expr
		for i, part := range a.Vars {
			c := part.Cells[idx[i]]
			ps = append(ps, c.Pred)
			labels = append(labels, c.Label)
		}
		s := &State{Cells: append([]int(nil), idx...), Pred: expr.AndOf(ps...), Label: "{" + strings.Join(labels, ", ") + "}"}
		ok, err := ctx.Possible(expr.AndOf(a.Behaviour.Invariant, s.Pred))
		if err != nil {
			return err
		}
		if ok {
			if s.Initial, err = ctx.Possible(expr.AndOf(a.Behaviour.Invariant, a.Behaviour.Init, s.Pred)); err != nil {
				return err
			}
			implied, err := ctx.Entails(expr.AndOf(a.Behaviour.domains(), s.Pred), a.Behaviour.Invariant)
			if err != nil && !errors.Is(err, solver.ErrUnknown) {
				return err
			}
			s.impliesI = implied
			s.ID = len(a.States)
			a.States = append(a.States, s)
		}
		// Next index, last variable fastest.
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(a.Vars[i].Cells) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return nil
		}
	}
}

// transitions decides every proof obligation (a, EGA, a'): the weak
// prover (domains only, no invariant) first, then the exact check (with
// I) on what it cannot refute.
func (a *Abstraction) transitions(ctx *solver.Context) error {
	b := a.Behaviour
	start := time.Now()
	var filterTime time.Duration
	for _, from := range a.States {
		for _, g := range b.EGAs {
			for _, to := range a.States {
				a.Stats.PO++
				weak, weakErr := ctx.Sat(b.Step(g, from.Pred, to.Pred, false))
				if weakErr != nil && !errors.Is(weakErr, solver.ErrUnknown) {
					return weakErr
				}
				if weak == solver.Unsat {
					a.Stats.ProvedAbsent++
					continue
				}
				t := &Transition{From: from, To: to, EGA: g}
				// Without I the weak answer is the exact one only when
				// both states imply I.
				t.Unproved = weak != solver.Sat || !from.impliesI || !to.impliesI
				f0 := time.Now()
				exact, err := ctx.Possible(b.Step(g, from.Pred, to.Pred, true))
				filterTime += time.Since(f0)
				if err != nil {
					return err
				}
				if t.Unproved {
					a.Stats.Unproved++
				}
				if !exact {
					t.Filtered = true
					a.Filtered = append(a.Filtered, t)
					if !a.Options.NoFilter {
						continue
					}
				}
				a.Transitions = append(a.Transitions, t)
			}
		}
	}
	a.Stats.Filtered = len(a.Filtered)
	a.Stats.FilterTime = filterTime
	a.Stats.POTime = time.Since(start) - filterTime
	return nil
}

// reach marks the states reachable from an initial one and, with
// Options.Reachable, drops the others.
func (a *Abstraction) reach() {
	var queue []*State
	for _, s := range a.States {
		if s.Initial {
			s.Reachable = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range a.Transitions {
			if t.From == s && !t.To.Reachable {
				t.To.Reachable = true
				queue = append(queue, t.To)
			}
		}
	}
	if !a.Options.Reachable {
		return
	}
	var states []*State
	for _, s := range a.States {
		if s.Reachable {
			s.ID = len(states)
			states = append(states, s)
		}
	}
	a.States = states
	keep := func(ts []*Transition) []*Transition {
		var out []*Transition
		for _, t := range ts {
			if t.From.Reachable && t.To.Reachable {
				out = append(out, t)
			}
		}
		return out
	}
	a.Transitions, a.Filtered = keep(a.Transitions), keep(a.Filtered)
}

func (a *Abstraction) fillStats() {
	st := &a.Stats
	s := a.Behaviour.Spec
	st.Actions, st.EGAs = len(s.Actions), len(s.Transitions)
	dom := 0
	for _, v := range s.Variables {
		switch v.Type.Kind {
		case expr.EnumKind:
			st.EnumVars++
			dom += len(v.Type.Enum.Values)
		case expr.Bool:
			st.EnumVars++
			dom += 2
		case expr.Int:
			var n *big.Int
			if v.Range != nil {
				n = new(big.Int).Sub(v.Range.Hi, v.Range.Lo)
			}
			if n == nil || !n.IsInt64() || n.Int64() >= finiteLimit {
				st.NumVars++
				continue
			}
			// A small bounded int is enumerated, as TryCounter ∈ 0..2 in
			// Table I.
			st.EnumVars++
			dom += int(n.Int64()) + 1
		default:
			st.NumVars++
		}
	}
	if st.EnumVars > 0 {
		st.AvgDomain = float64(dom) / float64(st.EnumVars)
	}
	tp := a.Purpose
	st.TPStates = len(tp.Locations)
	if tp.Model.LTS != nil {
		st.TPTrans = len(tp.Model.LTS.Arcs)
		st.TPPreds = len(tp.Model.LTS.Where)
	}
	st.TPActions = len(a.Actions)
	st.States = len(a.States)
	for _, x := range a.States {
		if x.Reachable {
			st.Reachable++
		}
	}
	st.Transitions = len(a.Transitions)
	labels := map[[3]string]bool{}
	for _, t := range a.Transitions {
		labels[[3]string{fmt.Sprint(t.From.ID), t.Action(), fmt.Sprint(t.To.ID)}] = true
	}
	st.LTSTransitions = len(labels)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
