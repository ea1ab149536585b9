package compose

import (
	"fmt"
	"strings"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// Model returns g as a flat spec: locations q1,q2 (the state tuples),
// the qualified variables, every channel of the library with the
// direction the system gives it (hidden outputs internal; hidden
// inputs, which no transition uses, left out), and the transitions
// named by their system names. It reports a visible channel that the
// system both emits and receives from its environment, and state tuples
// that would print the same.
func (g *System) Model(name, file string) (*spec.Model, error) {
	m := &spec.Model{Kind: spec.SpecKind, Name: name, File: file,
		Enums: g.lib.enums, Variables: g.Variables, Invariant: g.Invariant}
	actions, err := g.actions()
	if err != nil {
		return nil, err
	}
	m.Actions = actions
	seen := map[string]string{}
	for _, s := range g.States {
		if prev, dup := seen[s.String()]; dup && prev != s.key() {
			var errs expr.ErrorList
			errs.Add(g.Structure.Pos, "two states of %s print as location %q: rename a component location", g, s)
			return nil, errs.Err()
		}
		seen[s.String()] = s.key()
		m.Locations = append(m.Locations, s.String())
	}
	m.Initial = spec.Initial{Location: g.Initial.String(), Condition: g.Condition}
	for _, t := range g.Transitions {
		m.Transitions = append(m.Transitions, &spec.Transition{Name: t.Name.String(), From: t.From.String(),
			Action: t.Action, Guard: t.Guard, Assign: t.Assign, To: t.To.String(), Pos: t.Pos})
	}
	return m, nil
}

// actions returns the alphabet of g's flat model.
func (g *System) actions() ([]*spec.Action, error) {
	dirs := map[string]map[spec.Dir]*Transition{}
	for _, t := range g.Transitions {
		if dirs[t.Action] == nil {
			dirs[t.Action] = map[spec.Dir]*Transition{}
		}
		if dirs[t.Action][t.Dir] == nil {
			dirs[t.Action][t.Dir] = t
		}
	}
	hidden := g.hidden()
	var as []*spec.Action
	for _, ch := range g.lib.channels {
		if !g.uses(ch.Name) {
			continue
		}
		a := *ch
		ds := dirs[ch.Name]
		switch {
		case len(ds) > 1:
			return nil, conflict(g, ch.Name, ds)
		case len(ds) == 1:
			for d := range ds {
				a.Dir = d
			}
		case hidden[ch.Name] && a.Dir == spec.Input:
			continue // a hidden input: removed with its transitions
		case hidden[ch.Name]:
			a.Dir = spec.Internal
		case g.emitted(ch.Name):
			a.Dir = spec.Output
		}
		as = append(as, &a)
	}
	return as, nil
}

// uses reports whether a component of g declares action a.
func (g *System) uses(a string) bool {
	for _, l := range g.Leaves {
		if g.lib.sys.Component(l).Model.Action(a) != nil {
			return true
		}
	}
	return false
}

// emitted reports whether a component of g emits on channel a.
func (g *System) emitted(a string) bool {
	for _, l := range g.Leaves {
		if x := g.lib.sys.Component(l).Model.Action(a); x != nil && x.Dir == spec.Output {
			return true
		}
	}
	return false
}

// hidden returns the channels hidden anywhere in g.
func (g *System) hidden() map[string]bool {
	h := map[string]bool{}
	for _, s := range g.Subsystems() {
		for _, c := range s.Structure.Hidden {
			h[c] = true
		}
	}
	return h
}

func conflict(g *System, ch string, ds map[spec.Dir]*Transition) error {
	var parts []string
	var first *Transition
	for _, d := range []spec.Dir{spec.Input, spec.Output, spec.Internal} {
		if t := ds[d]; t != nil {
			parts = append(parts, fmt.Sprintf("%s in %s (%s)", d, t.Name, t.Pos))
			if first == nil {
				first = t
			}
		}
	}
	var errs expr.ErrorList
	errs.Add(first.Pos, "channel %s is used in more than one direction in %s: %s; a flat spec's actions have one direction: hide %s", ch, g, strings.Join(parts, ", "), ch)
	return errs.Err()
}
