package predabs

import (
	"errors"
	"fmt"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// checkCompatible checks Prop. 1 on the computed abstraction: the
// purpose is compatible with A (Def. 2) when its variables are
// abstraction variables and each of its atomic predicates on x is a
// union of cells of SD^x (every cell implies it or its negation).
func (a *Abstraction) checkCompatible(ctx *solver.Context) error {
	for _, x := range a.Purpose.vars(a.Behaviour) {
		part := a.partitionOf(x)
		if part == nil {
			a.Compatible = append(a.Compatible, fmt.Sprintf("%s is a variable of the purpose's state predicates but not an abstraction variable", x))
			continue
		}
		for _, p := range a.Purpose.Atoms[x] {
			for _, c := range part.Cells {
				dom := expr.AndOf(part.Var.Domain(), c.Pred)
				in, err := entails(ctx, dom, p)
				if err != nil {
					return err
				}
				out, err := entails(ctx, dom, expr.NotOf(p))
				if err != nil {
					return err
				}
				if !in && !out {
					a.Compatible = append(a.Compatible, fmt.Sprintf("cell %s of %s splits the purpose's predicate %s", c.Label, x, expr.Format(p)))
				}
			}
		}
	}
	return nil
}

func (a *Abstraction) partitionOf(x string) *Partition {
	for _, p := range a.Vars {
		if p.Var.Name == x {
			return p
		}
	}
	return nil
}

// entails is ctx.Entails with an undecided answer as false.
func entails(ctx *solver.Context, x, y expr.Expr) (bool, error) {
	ok, err := ctx.Entails(x, y)
	if errors.Is(err, solver.ErrUnknown) {
		return false, nil
	}
	return ok, err
}

// Compatible reports whether the purpose location q and the abstract
// state s are compatible (Def. 3): s implies the state predicate of q.
// An undecided query counts as compatible (over-approximation).
func (a *Abstraction) CompatibleState(ctx *solver.Context, q string, s *State) (bool, error) {
	w := a.Purpose.Where[q]
	if w == nil {
		return true, nil
	}
	ok, err := ctx.Entails(expr.AndOf(a.Behaviour.domains(), s.Pred), w)
	if errors.Is(err, solver.ErrUnknown) {
		return true, nil
	}
	return ok, err
}

// Product is the synchronised product SP of the purpose and the
// abstraction (Def. 5), or SP' when Reflexive: its states are the
// compatible pairs (q^P, q^A) reachable from the initial ones.
type Product struct {
	Abstraction *Abstraction
	Reflexive   bool // SP': the reflexive abstract transitions are kept
	States      []*ProductState
	Initial     []*ProductState
	Finals      []*ProductState
	Transitions []*ProductTransition
}

// ProductState is a compatible pair (q^P, q^A); its label is q^A's.
type ProductState struct {
	ID       int
	Purpose  string
	Abstract *State
	Initial  bool
	Final    bool // q^P is a final state of the purpose
}

// Name returns "q^P × label of q^A".
func (s *ProductState) Name() string { return s.Purpose + " × " + s.Abstract.Label }

// Pred returns the predicate of the abstract state.
func (s *ProductState) Pred() expr.Expr { return s.Abstract.Pred }

// ProductTransition is (q^P, q^A) →o (q'^P, q'^A). Steps are the
// abstract transitions behind it, one per EGA of o between q^A and q'^A.
type ProductTransition struct {
	From, To *ProductState
	Action   string
	Arc      *spec.Arc // the purpose arc it synchronises with
	Steps    []*Transition
}

// EGAs returns the spec transitions that may realise t.
func (t *ProductTransition) EGAs() []*spec.Transition {
	var out []*spec.Transition
	for _, s := range t.Steps {
		out = append(out, s.EGA.Transition)
	}
	return out
}

// Source and Target return the abstract predicates of t's ends.
func (t *ProductTransition) Source() expr.Expr { return t.From.Abstract.Pred }

// Target returns the predicate of the abstract state t enters.
func (t *ProductTransition) Target() expr.Expr { return t.To.Abstract.Pred }

// Filtered reports whether every step of t is refuted by the exact check
// (only in a product built without filtering).
func (t *ProductTransition) Filtered() bool {
	for _, s := range t.Steps {
		if !s.Filtered {
			return false
		}
	}
	return len(t.Steps) > 0
}

// Product builds SP (reflexive false) or SP' (reflexive true), the part
// reachable from the initial pairs.
func (a *Abstraction) Product(ctx *solver.Context, reflexive bool) (*Product, error) {
	p := &Product{Abstraction: a, Reflexive: reflexive}
	index := map[[2]int]*ProductState{} // (purpose location index, abstract state) -> pair
	locIndex := map[string]int{}
	for i, q := range a.Purpose.Locations {
		locIndex[q] = i
	}
	var queue []*ProductState
	add := func(q string, s *State) (*ProductState, error) {
		key := [2]int{locIndex[q], s.ID}
		if ps, ok := index[key]; ok {
			return ps, nil
		}
		ok, err := a.CompatibleState(ctx, q, s)
		if err != nil || !ok {
			return nil, err
		}
		ps := &ProductState{ID: len(p.States), Purpose: q, Abstract: s, Final: a.Purpose.IsFinal(q)}
		index[key] = ps
		p.States = append(p.States, ps)
		if ps.Final {
			p.Finals = append(p.Finals, ps)
		}
		queue = append(queue, ps)
		return ps, nil
	}
	for _, s := range a.States {
		if !s.Initial {
			continue
		}
		ps, err := add(a.Purpose.Initial, s)
		if err != nil {
			return nil, err
		}
		if ps != nil && !ps.Initial {
			ps.Initial = true
			p.Initial = append(p.Initial, ps)
		}
	}
	for len(queue) > 0 {
		ps := queue[0]
		queue = queue[1:]
		if err := p.expand(ctx, ps, add); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// expand adds the transitions leaving ps.
func (p *Product) expand(ctx *solver.Context, ps *ProductState, add func(string, *State) (*ProductState, error)) error {
	a := p.Abstraction
	type key struct {
		to     *ProductState
		action string
	}
	seen := map[key]*ProductTransition{}
	for _, m := range a.Purpose.Moves {
		if m.From != ps.Purpose {
			continue
		}
		for _, t := range a.Transitions {
			if t.From != ps.Abstract || t.Action() != m.Action || (!p.Reflexive && t.Reflexive()) {
				continue
			}
			to, err := add(m.To, t.To)
			if err != nil {
				return err
			}
			if to == nil {
				continue
			}
			k := key{to, m.Action}
			pt := seen[k]
			if pt == nil {
				pt = &ProductTransition{From: ps, To: to, Action: m.Action, Arc: m.Arc}
				seen[k] = pt
				p.Transitions = append(p.Transitions, pt)
			}
			if !containsStep(pt.Steps, t) {
				pt.Steps = append(pt.Steps, t)
			}
		}
	}
	return nil
}

func containsStep(ts []*Transition, t *Transition) bool {
	for _, u := range ts {
		if u == t {
			return true
		}
	}
	return false
}

// FilteredCount is the number of transitions of p that exist only by
// abstract transitions the exact check refutes (Table I's "SP
// filtered"; zero for a product built with filtering).
func (p *Product) FilteredCount() int {
	n := 0
	for _, t := range p.Transitions {
		if t.Filtered() {
			n++
		}
	}
	return n
}
