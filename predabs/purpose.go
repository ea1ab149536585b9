package predabs

import (
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Purpose is a test purpose read as an LTS (§V-A): a single initial
// state, transitions labelled by the spec's action names (an action set
// is one transition per element), locations labelled by state
// predicates, and final states (the purpose's accept locations). It is
// not symex.Purpose, the labelling of a symbolic execution tree by its
// accept nodes (the symbolic-purpose routes): this one is an automaton
// over the spec's actions, composed with the spec (the STG route), whose
// runs may loop and never name a node of a tree.
type Purpose struct {
	Model     *spec.Model
	Initial   string
	Finals    []string
	Locations []string
	Moves     []Move                 // one per action of each arc
	Where     map[string]expr.Expr   // state predicates (L^P), by location
	Atoms     map[string][]expr.Expr // SD^x_sp: the atomic predicates on x
	explicit  map[string]bool        // O^P
}

// Move is one transition q →o q' of the purpose, with the arc it comes
// from.
type Move struct {
	From, To, Action string
	Arc              *spec.Arc
}

// NewPurpose reads tp as an LTS over the actions of b. It refuses what
// the LTS reading cannot give a meaning to: purpose variables, guards,
// and state predicates that relate several variables in one conjunct
// (the atomic predicates of §VI are on one variable).
func NewPurpose(b *Behaviour, tp *spec.Model) (*Purpose, error) {
	var errs expr.ErrorList
	if tp == nil || tp.Kind != spec.PurposeKind {
		errs.Add(expr.Pos{}, "predabs: the test purpose must be a purpose")
		return nil, errs.Err()
	}
	p := &Purpose{Model: tp, Initial: tp.Initial.Location, Finals: tp.Accept, Locations: tp.Locations,
		Where: map[string]expr.Expr{}, Atoms: map[string][]expr.Expr{}, explicit: map[string]bool{}}
	for _, v := range tp.Variables {
		errs.Add(v.Pos, "the abstraction reads a purpose as an LTS: it has no variables (%s)", v.Name)
	}
	for _, t := range tp.Transitions {
		if !expr.IsTrue(t.Guard) {
			errs.Add(t.Pos, "the abstraction reads a purpose as an LTS: transition %s has a guard; label its target with a where: state predicate instead", t.Label())
		}
	}
	var arcs []*spec.Arc
	if tp.LTS != nil {
		arcs = tp.LTS.Arcs
		for _, w := range tp.LTS.Where {
			p.Where[w.Location] = w.Pred
			p.addAtoms(w, &errs)
		}
	}
	for _, a := range arcs {
		p.addMoves(b, a, arcs)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return p, nil
}

// addAtoms splits a state predicate into its conjuncts, each an atomic
// predicate on one variable.
func (p *Purpose) addAtoms(w *spec.StatePredicate, errs *expr.ErrorList) {
	for _, c := range expr.Conjuncts(w.Pred) {
		vars := map[string]bool{}
		expr.Idents(c, func(id *expr.Ident) {
			if id.Kind == expr.VarIdent {
				vars[id.Name] = true
			}
		})
		switch len(vars) {
		case 0:
			continue
		case 1:
			for x := range vars {
				p.Atoms[x] = append(p.Atoms[x], c)
			}
		default:
			errs.Add(w.Pos, "state predicate of %s: conjunct %s relates several variables; the atomic predicates of the abstraction are on one variable each (x ∈ V, §VI)", w.Location, expr.Format(c))
		}
	}
}

// addMoves adds one move per action of arc a; "*" stands for the actions
// of no other arc leaving the same location.
func (p *Purpose) addMoves(b *Behaviour, a *spec.Arc, arcs []*spec.Arc) {
	actions := a.Actions
	if len(actions) == 1 && actions[0] == spec.Otherwise {
		taken := map[string]bool{}
		for _, o := range arcs {
			if o.From == a.From && o != a {
				for _, n := range o.Actions {
					taken[n] = true
				}
			}
		}
		actions = nil
		for _, act := range b.Spec.Actions {
			if !taken[act.Name] {
				actions = append(actions, act.Name)
			}
		}
	}
	for _, n := range actions {
		p.Moves = append(p.Moves, Move{From: a.From, To: a.To, Action: n, Arc: a})
	}
	if a.Explicit {
		for _, n := range a.Actions {
			p.explicit[n] = true
		}
	}
}

// Explicit returns O^P: the actions named on the purpose's arcs (a name
// or a list, not subtracted from O^M), in the spec's order.
func (p *Purpose) Explicit(b *Behaviour) []string {
	var out []string
	for _, a := range b.Spec.Actions {
		if p.explicit[a.Name] {
			out = append(out, a.Name)
		}
	}
	return out
}

// IsFinal reports whether q is a final state of the purpose.
func (p *Purpose) IsFinal(q string) bool {
	for _, f := range p.Finals {
		if f == q {
			return true
		}
	}
	return false
}

// vars returns X^P: the variables of the state predicates, in b's order.
func (p *Purpose) vars(b *Behaviour) []string {
	var out []string
	for _, v := range b.Vars {
		if len(p.Atoms[v.Name]) > 0 {
			out = append(out, v.Name)
		}
	}
	return out
}
