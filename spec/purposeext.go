package spec

import (
	"fmt"
	"strings"

	"github.com/stg-tool/stg/spec/expr"
)

// PurposeLTS is what a purpose written as a labelled transition system
// adds to the ioSTS (the LTG/GeneSyst paper on test purposes and
// predicate abstraction by Julliand, Masson and Tissot, §V-A, Fig. 4): state predicates
// labelling its locations and transitions labelled by action sets.
//
//	where: {q2: "TryCounter != 0"}             # on the spec state entered
//	- {from: q1, action: [Delay, Enter], to: q2}  # an action set
//	- {from: q1, action: {except: [HangUp]}, to: q1}  # O^M \ {HangUp}
//
// The model's Transitions hold the expansion (one transition per
// element of a set), so the ioSTS route sees plain transitions; Arcs
// keep the arcs as written, which the abstraction route reads.
type PurposeLTS struct {
	Where []*StatePredicate // in file order
	Arcs  []*Arc            // every transition as written, in order
}

// StatePredicate labels a purpose location with a predicate on the
// spec's variables, read on the spec state entered.
type StatePredicate struct {
	Location string
	Pred     expr.Expr
	Pos      expr.Pos
}

// Arc is a purpose transition as written.
type Arc struct {
	From, To string
	// Actions are the actions it stands for, in the spec's order: one
	// name, the names of a list, O^M minus Except, or Otherwise.
	Actions []string
	// Explicit is true when the actions are named (a name or a list),
	// false for {except: [...]} and "*": the explicit actions of the
	// arcs are the O^P of the paper's §VI.
	Explicit bool
	Except   []string // the subtracted actions of {except: [...]}, or nil
	Pos      expr.Pos
}

// Predicate returns the state predicate of location q, or nil.
func (p *PurposeLTS) Predicate(q string) expr.Expr {
	if p == nil {
		return nil
	}
	for _, w := range p.Where {
		if w.Location == q {
			return w.Pred
		}
	}
	return nil
}

// UsesSets reports whether some arc is written with an action set.
func (p *PurposeLTS) UsesSets() bool {
	if p == nil {
		return false
	}
	for _, a := range p.Arcs {
		if a.Except != nil || len(a.Actions) != 1 || (a.Explicit && a.Actions[0] == Otherwise) {
			return true
		}
	}
	return false
}

// RefuseStatePredicates returns a FILE:LINE:COL error when the purpose m
// labels locations with where: state predicates, which the ioSTS route
// (product, stg generate) does not read: what names the command. Action
// sets need no refusal there: they are read as one transition per
// element, with the completion rule of docs/reference.md#model-files.
func (m *Model) RefuseStatePredicates(what string) error {
	if m == nil || m.LTS == nil || len(m.LTS.Where) == 0 {
		return nil
	}
	var errs expr.ErrorList
	for _, w := range m.LTS.Where {
		errs.Add(w.Pos, "%s does not read where: state predicates (location %s); they are read by stg abstract and stg tour", what, w.Location)
	}
	return errs.Err()
}

// String describes the actions of an arc as the paper writes them:
// "Call", "{Delay, Enter}", "O^M \ {HangUp}", "O^M" or "*".
func (a *Arc) String() string {
	switch {
	case a.Except != nil && len(a.Except) == 0:
		return "O^M"
	case a.Except != nil:
		return fmt.Sprintf("O^M \\ {%s}", strings.Join(a.Except, ", "))
	case len(a.Actions) == 1:
		return a.Actions[0]
	}
	return "{" + strings.Join(a.Actions, ", ") + "}"
}
