package runner

import (
	"errors"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// ErrUndecided is the error (wrapped, with the position of the guard
// and the parameter) of a choice of values that nothing decides: every
// candidate refuted or left undecided, and the solver unknown. A run
// that meets it ends Inconc naming the guard, never Fail: the test case
// may allow values the tester could not find.
var ErrUndecided = play.ErrUndecided

// undecided returns ErrUndecided for the identifier id under cons,
// naming the first constraint on it (play.Undecided).
func undecided(id *expr.Ident, cons []expr.Expr) error { return play.Undecided(id, cons) }

// pick returns values, in a model of the assertions of s (satisfiable),
// for the identifiers ids, chosen by the one picker of both routes
// (play.Picker: random targets, boundaries of cons, values nearest a
// target, by satisfiability alone), strings last from the candidates of
// the constraints, checked by exact evaluation first (strings.go,
// pickString).
//
// pick serves planning: a string that nothing decides is left out of
// the values (the send is then checked, refused, and the tester sends
// at random: the path was an over-approximation, strabs.go);
// pickStrict reports it with ErrUndecided.
func (x *execution) pick(s *solver.Solver, ids []*expr.Ident, cons []expr.Expr) (map[string]expr.Value, error) {
	return x.pickValues(s, ids, cons, false)
}

// pickStrict is pick reporting a string nothing decides (ErrUndecided).
func (x *execution) pickStrict(s *solver.Solver, ids []*expr.Ident, cons []expr.Expr) (map[string]expr.Value, error) {
	return x.pickValues(s, ids, cons, true)
}

func (x *execution) pickValues(s *solver.Solver, ids []*expr.Ident, cons []expr.Expr, strict bool) (map[string]expr.Value, error) {
	p := play.Picker{Rng: x.rng, Random: x.randomValue, Strings: func(c *play.Choice, strs []*expr.Ident) error {
		h := &hinter{x: x, c: c, strict: strict}
		return h.pickStrings(strs)
	}}
	return p.Pick(s, ids, cons)
}

// pickStrings fixes the values of the strings ids: all at once when
// exact evaluation finds values that hold (searchStrings), else one by
// one with the solver's help (pickString). Without strict, a string
// nothing decides is left out.
func (h *hinter) pickStrings(ids []*expr.Ident) error {
	budget := maxJointCands
	if assign := map[string]expr.Value{}; len(ids) > 0 && h.searchStrings(ids, assign, &budget) {
		for _, id := range ids {
			h.c.Keep(expr.Compare(expr.Eq, id, assign[id.Name].Expr()))
		}
		return nil
	}
	for _, id := range ids {
		err := h.pickString(id)
		if !h.strict && errors.Is(err, ErrUndecided) {
			h.c.Leave(id)
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// pickString fixes the value of the string id: the first candidate
// (stringCandidates) that exact evaluation does not refute and the
// solver finds satisfiable; an unknown answer moves on to the next
// candidate. Without one, a value the assertions force (pickStrict
// only: planning leaves the choice to the random send, which asks), else
// ErrUndecided.
func (h *hinter) pickString(id *expr.Ident) error {
	checks := 0
	for _, c := range h.x.stringCandidates(id, h.c.Cons(), h.c.Known()) {
		v := expr.StringValue(c)
		eq := expr.Compare(expr.Eq, id, v.Expr())
		switch exactly(h.exactCons(), h.c.Known(), id, v) {
		case refuted:
			continue
		case holds: // every constraint true: no check needed
			h.c.Keep(eq)
			return nil
		}
		if checks++; checks > maxSolverCands {
			break
		}
		i, err := h.c.Try([]expr.Expr{eq})
		if err != nil {
			return err
		}
		if i == 0 {
			return nil
		}
	}
	if !h.strict { // planning: the random send tries again
		return undecided(id, h.c.Cons())
	}
	if _, ok, err := h.c.Forced(id); err != nil || ok {
		return err
	}
	return undecided(id, h.c.Cons())
}

// maxJointCands bounds the candidates searchStrings tries.
const maxJointCands = 96

// searchStrings looks, by exact evaluation alone, for values of the
// strings ids (in assign) with which every constraint they bear on
// holds: candidates of each in turn, those of the later ones made with
// the earlier ones known (first[0:1] == last[0:1] then gives last its
// first byte), a branch cut as soon as exact evaluation refutes it.
func (h *hinter) searchStrings(ids []*expr.Ident, assign map[string]expr.Value, budget *int) bool {
	cons := h.exactCons()
	if len(ids) == 0 {
		return exactlyAll(cons, h.c.Known(), assign) == holds
	}
	known := make(map[string]expr.Value, len(h.c.Known())+len(assign))
	for k, v := range h.c.Known() {
		known[k] = v
	}
	for k, v := range assign {
		known[k] = v
	}
	id := ids[0]
	for i, c := range h.x.stringCandidates(id, h.c.Cons(), known) {
		if *budget <= 0 || len(ids) > 1 && i >= 8 {
			break
		}
		*budget--
		assign[id.Name] = expr.StringValue(c)
		if exactlyAll(cons, h.c.Known(), assign) != refuted && h.searchStrings(ids[1:], assign, budget) {
			return true
		}
		delete(assign, id.Name)
	}
	return false
}

// maxSolverCands bounds the candidates for one string that the solver
// is asked about (each check may take up to Options.SolverTimeout).
const maxSolverCands = 6

// An exactTruth is what exact evaluation tells of constraints.
type exactTruth int

const (
	open    exactTruth = iota // some constraint the candidate bears on has unknowns
	refuted                   // some constraint is false
	holds                     // every constraint the candidate bears on is true
)

// exactly evaluates cons with id = v and the values known: each
// conjunct whose identifiers all get values (from known, v, and the
// equalities x == e whose e gets a value: msg@2 == "Dear " + name@1).
//
// The values known were confirmed with the assertions (a satisfiable
// check, or this very test): a model of the assertions agrees with them
// and with what equalities propagate from them. When every conjunct
// that mentions an identifier valued only thanks to id = v is true,
// that model with those identifiers changed is a model still: the
// assertions stay satisfiable with id = v (holds), provided cons hold
// every assertion that mentions those identifiers (exactCons).
func exactly(cons []expr.Expr, known map[string]expr.Value, id *expr.Ident, v expr.Value) exactTruth {
	return exactlyAll(cons, known, map[string]expr.Value{id.Name: v})
}

// exactlyAll is exactly for several values at once (by name).
func exactlyAll(cons []expr.Expr, known, assign map[string]expr.Value) exactTruth {
	var conj []expr.Expr
	for _, c := range cons {
		conj = append(conj, expr.Conjuncts(c)...)
	}
	before := propagate(conj, known, nil)
	vals := propagate(conj, known, assign)
	truth := holds
	for _, c := range conj {
		w, ok := evalKnown(c, vals)
		switch {
		case ok && w.T == expr.BoolType && !w.Bool:
			return refuted
		case !ok && mentionsNew(c, vals, before):
			truth = open
		}
	}
	return truth
}

// propagate returns known, assign, and the values the equalities x == e
// of conj give x once e has a value, to a fixpoint.
func propagate(conj []expr.Expr, known, assign map[string]expr.Value) map[string]expr.Value {
	vals := make(map[string]expr.Value, len(known)+len(assign))
	for k, w := range known {
		vals[k] = w
	}
	for k, w := range assign {
		vals[k] = w
	}
	for changed := true; changed; {
		changed = false
		for _, c := range conj {
			b, ok := c.(*expr.Binary)
			if !ok || b.Op != expr.Eq {
				continue
			}
			for _, sides := range [][2]expr.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				u, ok := sides[0].(*expr.Ident)
				if !ok {
					continue
				}
				if _, has := vals[u.Name]; has {
					continue
				}
				if w, ok := evalKnown(sides[1], vals); ok {
					vals[u.Name], changed = w, true
				}
			}
		}
	}
	return vals
}

// mentionsNew reports whether c mentions an identifier valued in vals
// and not in before.
func mentionsNew(c expr.Expr, vals, before map[string]expr.Value) bool {
	found := false
	expr.Inspect(c, func(n expr.Expr) {
		if u, ok := n.(*expr.Ident); ok {
			_, now := vals[u.Name]
			_, then := before[u.Name]
			found = found || now && !then
		}
	})
	return found
}

// exactCons returns the constraints exact evaluation judges a candidate
// by: cons and the path condition of the state planned from (asserted
// too, and what it says of a symbol that an equality gives a value
// counts).
func (h *hinter) exactCons() []expr.Expr {
	if h.x.cur == nil || h.x.cur.PC == nil {
		return h.c.Cons()
	}
	return append([]expr.Expr{h.x.cur.PC}, h.c.Cons()...)
}

// A hinter picks the strings of a choice of values (play.Picker.Strings):
// from the candidates of the constraints (strings.go), checked by exact
// evaluation first.
type hinter struct {
	x      *execution
	c      *play.Choice
	strict bool // pickStrict: a value the assertions force is looked for
}
