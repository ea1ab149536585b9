// Package product computes the synchronous product can(S) × TP of a
// canonical tester with a test purpose (§4 of the STG paper):
//
//	<(l1,l2), a, G1 ∧ G2, A1;A2, (l1',l2')> ∈ T'  iff
//	<l1, a, G1, A1, l1'> ∈ T_can  and  <l2, a, G2, A2, l2'> ∈ T_TP.
//
// A purpose is read with its completion (docs/reference.md#model-files): in a
// non-accept location q, for an action a, the explicit a-transitions
// apply where one of their guards holds; elsewhere the "*" transitions
// apply where their guards hold; elsewhere the purpose stays in q (an
// implicit self-loop). This makes TP complete, as the paper assumes,
// without the user writing every case. The purpose is non-intrusive:
// it reads the spec's variables and assigns only its own, so A1;A2 is
// the union of two assignments to disjoint variables.
//
// Transitions of can(S) into Fail are not synchronised: Fail is a trap
// whatever the purpose does, so Fail × L_TP is one location.
//
// The product location (l, q) is named l,q. Location names may contain
// commas, so that name can be ambiguous: spec location "X,Y" with
// purpose location "Z" and spec location "X" with purpose location
// "Y,Z" would both be "X,Y,Z". For such a spec and purpose, Build
// joins the pairs with the first of the characters ; | / + ~ ... that
// names them all apart (see separator); Product.Origin gives the pair
// of every location whatever its name, and no later stage reads the
// pair back from the name.
package product

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/stg-tool/stg/canonical"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Product is can(S) × TP with its distinguished locations.
type Product struct {
	*spec.Model
	Fail   string          // the Fail location
	Accept map[string]bool // the locations (l, q) with q ∈ Accept
	// Origin maps each product location to its pair (l, q); Fail maps to
	// (Fail, "").
	Origin map[string][2]string
	// Purpose is the test purpose, for messages.
	Purpose *spec.Model
}

// Location returns the usual name l,q of the product location (l, q).
// Build uses it unless it is ambiguous for the spec and purpose at hand
// (see the package documentation).
func Location(l, q string) string { return l + "," + q }

// separators are the joins Build tries, in order, for product location
// names; past them, it tries the characters from U+00B7 on. None is a
// letter, so a product location name (which contains its separator) is
// never a verdict name (Pass, Fail, Inconc).
const separators = ",;|/+~&#@!^=:"

// separator returns the first character c such that l c q names the
// pairs of ls × qs injectively. One exists: the names are finite.
func separator(ls, qs []string) string {
	for _, c := range separators {
		if !ambiguous(ls, qs, string(c)) {
			return string(c)
		}
	}
	for c := '\u00b7'; ; c++ {
		if utf8.ValidRune(c) && !ambiguous(ls, qs, string(c)) {
			return string(c)
		}
	}
}

// ambiguous reports whether two different pairs of ls × qs get the same
// name when joined with the one-character separator sep. With a single
// character, l sep q == l' sep q' for l shorter than l' holds exactly
// when l' = l sep s and q = s sep q' for some s.
func ambiguous(ls, qs []string, sep string) bool {
	inQ := make(map[string]bool, len(qs))
	for _, q := range qs {
		inQ[q] = true
	}
	for _, long := range ls {
		if !strings.Contains(long, sep) {
			continue
		}
		for _, l := range ls {
			s, ok := strings.CutPrefix(long, l+sep)
			if !ok {
				continue
			}
			for _, q := range qs {
				if rest, ok := strings.CutPrefix(q, s+sep); ok && inQ[rest] {
					return true
				}
			}
		}
	}
	return false
}

// purposeMove is one way the purpose can follow an action from a
// location: an explicit, otherwise or implicit transition with its
// effective guard.
type purposeMove struct {
	guard  expr.Expr
	assign []spec.Assignment
	to     string
	from   *spec.Transition // nil for the implicit self-loop
}

// Build returns the part of can × tp reachable from the initial
// location (by graph search; guards that are unsatisfiable are dropped).
// It reports an error when the purpose makes the product
// non-deterministic, naming the purpose transitions.
func Build(ctx *solver.Context, can *canonical.Tester, tp *spec.Model) (*Product, error) {
	if tp.Kind != spec.PurposeKind {
		return nil, fmt.Errorf("%s: a %s is not a purpose", tp.File, tp.Kind)
	}
	if err := observable(tp); err != nil {
		return nil, err
	}
	if err := tp.RefuseStatePredicates("stg generate"); err != nil {
		return nil, err
	}
	p := &Product{
		Fail:    "Fail",
		Accept:  map[string]bool{},
		Origin:  map[string][2]string{},
		Purpose: tp,
	}
	m := &spec.Model{
		Kind:    spec.SpecKind,
		Name:    tp.Name,
		File:    tp.File,
		Enums:   append(append([]*expr.Enum(nil), can.Enums...), tp.Enums...),
		Funcs:   append([]*expr.Func(nil), can.Funcs...),
		Actions: can.Actions,
	}
	m.Variables = append(append(m.Variables, can.Variables...), tp.Variables...)
	p.Model = m
	sep := separator(can.Locations, tp.Locations)
	name := func(l, q string) string { return l + sep + q }
	init := name(can.Initial.Location, tp.Initial.Location)
	m.Initial = spec.Initial{Location: init, Condition: expr.AndOf(can.Initial.Condition, tp.Initial.Condition)}

	moves := map[[2]string][]purposeMove{} // (q, action) -> moves
	movesOf := func(q, action string) ([]purposeMove, error) {
		key := [2]string{q, action}
		if mv, ok := moves[key]; ok {
			return mv, nil
		}
		mv, err := purposeMoves(ctx, tp, q, action)
		if err != nil {
			return nil, err
		}
		moves[key] = mv
		return mv, nil
	}

	seen := map[string]bool{init: true}
	p.Origin[init] = [2]string{can.Initial.Location, tp.Initial.Location}
	queue := []string{init}
	addLoc := func(name string, l, q string) {
		if !seen[name] {
			seen[name] = true
			p.Origin[name] = [2]string{l, q}
			queue = append(queue, name)
		}
	}
	failUsed := false
	for len(queue) > 0 {
		loc := queue[0]
		queue = queue[1:]
		m.Locations = append(m.Locations, loc)
		o := p.Origin[loc]
		l, q := o[0], o[1]
		if tp.IsAccept(q) {
			p.Accept[loc] = true
			continue // Accept is a trap: it becomes Pass
		}
		for _, t := range can.Outgoing(l) {
			if t.To == can.Fail {
				m.Transitions = append(m.Transitions, &spec.Transition{
					From: loc, Action: t.Action, Guard: t.Guard, To: p.Fail, Pos: t.Pos,
				})
				failUsed = true
				continue
			}
			mv, err := movesOf(q, t.Action)
			if err != nil {
				return nil, err
			}
			var here []*spec.Transition
			var origins []*spec.Transition
			for _, mvi := range mv {
				g := expr.AndOf(t.Guard, mvi.guard)
				possible, err := ctx.Possible(g)
				if err != nil {
					return nil, fmt.Errorf("product at %s: %w", loc, err)
				}
				if !possible {
					continue
				}
				to := name(t.To, mvi.to)
				addLoc(to, t.To, mvi.to)
				nt := &spec.Transition{
					Name:   t.Name,
					From:   loc,
					Action: t.Action,
					Guard:  g,
					Assign: append(append([]spec.Assignment(nil), t.Assign...), mvi.assign...),
					To:     to,
					Pos:    t.Pos,
				}
				here = append(here, nt)
				origins = append(origins, mvi.from)
			}
			if err := deterministic(ctx, here, origins, loc); err != nil {
				return nil, err
			}
			m.Transitions = append(m.Transitions, here...)
		}
	}
	if failUsed {
		m.Locations = append(m.Locations, p.Fail)
		p.Origin[p.Fail] = [2]string{can.Fail, ""}
	}
	return p, nil
}

// purposeMoves returns the moves of tp from q on action, with the
// completion rule applied: explicit transitions, then "*" under the
// negation of the explicit guards, then the implicit self-loop.
func purposeMoves(ctx *solver.Context, tp *spec.Model, q, action string) ([]purposeMove, error) {
	var explicit, otherwise []*spec.Transition
	for _, t := range tp.Outgoing(q) {
		switch t.Action {
		case action:
			explicit = append(explicit, t)
		case spec.Otherwise:
			otherwise = append(otherwise, t)
		}
	}
	var mv []purposeMove
	var eg []expr.Expr
	for _, t := range explicit {
		mv = append(mv, purposeMove{guard: t.Guard, assign: t.Assign, to: t.To, from: t})
		eg = append(eg, t.Guard)
	}
	notExplicit := expr.NotOf(expr.OrOf(eg...))
	var og []expr.Expr
	for _, t := range otherwise {
		mv = append(mv, purposeMove{guard: expr.AndOf(notExplicit, t.Guard), assign: t.Assign, to: t.To, from: t})
		og = append(og, t.Guard)
	}
	stay := expr.AndOf(notExplicit, expr.NotOf(expr.OrOf(og...)))
	possible, err := ctx.Possible(stay)
	if err != nil {
		return nil, err
	}
	if possible {
		mv = append(mv, purposeMove{guard: stay, to: q})
	}
	return mv, nil
}

// deterministic reports two product transitions with the same action
// from one location whose guards overlap: the purpose (the spec is
// deterministic) then has overlapping transitions.
func deterministic(ctx *solver.Context, ts, origins []*spec.Transition, loc string) error {
	for i := range ts {
		for j := i + 1; j < len(ts); j++ {
			// An overlap the solver cannot decide (non-linear guards) is
			// not reported, as in package check.
			r, err := ctx.Sat(expr.AndOf(ts[i].Guard, ts[j].Guard))
			if errors.Is(err, solver.ErrUnknown) || r == solver.Unsat {
				continue
			}
			if err != nil {
				return err
			}
			a, b := describe(origins[i]), describe(origins[j])
			pos := expr.Pos{}
			if origins[j] != nil {
				pos = origins[j].Pos
			} else if origins[i] != nil {
				pos = origins[i].Pos
			}
			return &expr.Error{Pos: pos, Msg: fmt.Sprintf(
				"the purpose is non-deterministic on %s in product location %s: %s and %s can both be taken (make their guards disjoint)",
				ts[i].Action, loc, a, b)}
		}
	}
	return nil
}

func describe(t *spec.Transition) string {
	if t == nil {
		return "the implicit self-loop"
	}
	return fmt.Sprintf("transition %s (line %d)", t.Label(), t.Pos.Line)
}

// observable refuses purpose transitions on internal actions: the tester
// never sees them (the canonical tester is built on the τ-closure), so
// such a transition could never be taken.
func observable(tp *spec.Model) error {
	var errs expr.ErrorList
	for _, t := range tp.Transitions {
		if a := tp.Action(t.Action); a != nil && a.Dir == spec.Internal {
			errs.Add(t.Pos, "purpose transition %s is labelled by the internal action %s, which a test never observes (write the purpose on the visible actions around it, or on delta)", t.Label(), t.Action)
		}
	}
	return errs.Err()
}
