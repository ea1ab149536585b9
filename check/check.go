// Package check performs the semantic checks of a model that need a
// solver, after the loader (package spec) has checked names and types.
//
// The main check is determinism, as in Definition 1 of the STG paper
// (Jeannet, Jéron, Rusu, Zinovieva: "Symbolic Test Selection Based on
// Approximate Analysis"): an ioSTS is deterministic if Θ has a unique
// solution and, in each location l and for each action a, the guards of
// every two transitions leaving l with a have an empty conjunction.
//
// Two relaxations are deliberate. Θ need only be satisfiable, not have a
// unique solution: the generator treats the initial variables
// symbolically, and only an empty Θ (a model with no run at all) is a
// mistake. Transitions labelled by internal actions are not compared:
// internal actions are unobservable, and the generator resolves them by
// its own closure, so a choice between them is not an error of the model.
package check

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Findings are what a check found in a model. Errors are proven: the
// solver found a witness. Undecided are the places where the solver
// gave no answer (a timeout, non-linear arithmetic, external
// functions): the model may or may not be wrong there, and a caller
// reports them as warnings. Both are positioned FILE:LINE:COL.
type Findings struct {
	Errors, Undecided []*expr.Error
}

// Add appends the findings of g to f.
func (f *Findings) Add(g Findings) {
	f.Errors = append(f.Errors, g.Errors...)
	f.Undecided = append(f.Undecided, g.Undecided...)
}

// All runs every check of this package that m's kind calls for: a spec
// or testcase must be deterministic, a testcase complete for receives
// with its verdict locations named Pass, Fail and Inconc, a spec's
// invariant and ranges inductive (VerdictNames, Determinism,
// ReceiveCompleteness, Invariant). The error result is for failures
// of the solver itself.
func All(ctx *solver.Context, m *spec.Model) (Findings, error) {
	m = m.WithParamRanges() // spec/ranges.go: a parameter's values lie in its range
	f := Findings{Errors: VerdictNames(m)}
	for _, c := range []func(*solver.Context, *spec.Model) (Findings, error){Determinism, ReceiveCompleteness, Invariant} {
		g, err := c(ctx, m)
		if err != nil {
			return f, err
		}
		f.Add(g)
	}
	f.Undecided = append(f.Undecided, OtherwiseSwallows(m)...) // otherwise.go: a purpose's "*" that swallows the way to Accept (a warning)
	return f, nil
}

// Determinism reports, for a spec or a testcase, the pairs of transitions
// that leave the same location with the same action and whose guards can
// hold together, and an initial condition that has no solution. Each
// overlap is reported at the later transition, naming both and giving a
// witness valuation found by the solver.
//
// A purpose need not be deterministic (its completion rules resolve the
// choice); Determinism returns nothing for it. Pairs the solver cannot
// decide (non-linear guards, external functions, a timeout) are
// Undecided findings. The error result is for failures of the solver
// itself.
func Determinism(ctx *solver.Context, m *spec.Model) (Findings, error) {
	var f Findings
	if m.Kind == spec.PurposeKind {
		return f, nil
	}
	pos := m.Initial.Pos
	if p := start(m.Initial.Condition); p.IsValid() {
		pos = p
	}
	pos = withFile(pos, m)
	res, err := ctx.Sat(m.Initial.Condition)
	switch {
	case errors.Is(err, solver.ErrUnknown):
		f.Undecided = append(f.Undecided, &expr.Error{Pos: pos, Msg: fmt.Sprintf(
			"the solver cannot decide whether initial condition %s has a solution (%v)", expr.Format(m.Initial.Condition), err)})
	case err != nil:
		return f, err
	case res == solver.Unsat:
		f.Errors = append(f.Errors, &expr.Error{Pos: pos,
			Msg: fmt.Sprintf("initial condition %s has no solution", expr.Format(m.Initial.Condition))})
	}
	for _, l := range m.Locations {
		out := m.Outgoing(l)
		for j, t2 := range out {
			a := m.Action(t2.Action)
			if a == nil || a.Dir == spec.Internal {
				continue
			}
			for _, t1 := range out[:j] {
				if t1.Action != t2.Action {
					continue
				}
				if err := overlap(ctx, m, a, l, t1, t2, &f); err != nil {
					return f, err
				}
			}
		}
	}
	return f, nil
}

// overlap adds to f the overlap of t1 and t2, two transitions leaving l
// with the action a, if their guards can hold together.
func overlap(ctx *solver.Context, m *spec.Model, a *spec.Action, l string, t1, t2 *spec.Transition, f *Findings) error {
	both := expr.AndOf(t1.Guard, t2.Guard)
	val, ok, err := ctx.Model(both)
	if errors.Is(err, solver.ErrUnknown) {
		f.Undecided = append(f.Undecided, &expr.Error{Pos: withFile(t2.Pos, m), Msg: fmt.Sprintf(
			"the solver cannot decide whether transition %s and transition %s (line %d) both fire on %s from %s (%v)",
			describe(t2), describe(t1), t1.Pos.Line, t2.Action, l, err)})
		return nil
	}
	if err != nil || !ok {
		return err
	}
	f.Errors = append(f.Errors, &expr.Error{Pos: withFile(t2.Pos, m), Msg: fmt.Sprintf(
		"non-deterministic: transition %s and transition %s (line %d) both fire on %s from %s, e.g. with %s",
		describe(t2), describe(t1), t1.Pos.Line, t2.Action, l, witness(m, a, val))})
	return nil
}

// describe names a transition for a message: its name and its arc, or
// just the arc.
func describe(t *spec.Transition) string {
	arc := t.From + " -" + t.Action + "-> " + t.To
	if t.Name != "" {
		return t.Name + " (" + arc + ")"
	}
	return arc
}

// witness prints the values val gives to a's parameters and to the
// model's variables, parameters first, each in declaration order.
// Data the solver left free (they do not occur in the guards) are left
// out: any value will do for them.
func witness(m *spec.Model, a *spec.Action, val expr.Valuation) string {
	var parts []string
	for _, p := range a.Params {
		if v, ok := val.Params[p.Name]; ok && v.IsValid() {
			parts = append(parts, p.Name+" = "+v.String())
		}
	}
	for _, x := range m.Variables {
		if v, ok := val.Vars[x.Name]; ok && v.IsValid() {
			parts = append(parts, x.Name+" = "+v.String())
		}
	}
	if len(parts) == 0 {
		return "any values"
	}
	return strings.Join(parts, ", ")
}

// start returns the position of the leftmost part of e: a binary
// expression is positioned at its operator, but a message about the
// whole expression should point at its beginning.
func start(e expr.Expr) expr.Pos {
	p := e.Pos()
	before := func(q expr.Pos) bool {
		return q.IsValid() && (!p.IsValid() || q.Line < p.Line || q.Line == p.Line && q.Col < p.Col)
	}
	switch e := e.(type) {
	case *expr.Unary:
		if q := start(e.X); before(q) {
			p = q
		}
	case *expr.Binary:
		for _, x := range []expr.Expr{e.X, e.Y} {
			if q := start(x); before(q) {
				p = q
			}
		}
	case *expr.Call:
		for _, x := range e.Args {
			if q := start(x); before(q) {
				p = q
			}
		}
	case *expr.Cond:
		// ite( is written before its condition: the Cond's own position.
	}
	return p
}

// withFile fills in the model's file name for positions built without
// one (a model made by the tool rather than read).
func withFile(p expr.Pos, m *spec.Model) expr.Pos {
	if p.File == "" {
		p.File = m.File
	}
	return p
}
