package specfile

import (
	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
)

// purposeLTS reads the extensions of a purpose before its transitions:
// the where: section, and the action sets of the transitions, which it
// expands in place in the YAML (one transition node per action) so that
// the transitions are then read as plain ones.
func (l *loader) purposeLTS(m *spec.Model, where, transitions *yaml.Node) {
	ext := &spec.PurposeLTS{}
	locs := map[string]bool{m.Initial.Location: true}
	for _, q := range m.Locations {
		locs[q] = true
	}
	if transitions != nil && transitions.Kind == yaml.SequenceNode {
		var out []*yaml.Node
		for _, tn := range transitions.Content {
			expanded, arc, ok := l.arc(m, tn)
			out = append(out, expanded...)
			if arc != nil {
				locs[arc.From], locs[arc.To] = true, true
			}
			if ok && arc != nil {
				ext.Arcs = append(ext.Arcs, arc)
			}
		}
		transitions.Content = out
	}
	if where != nil {
		scope := m.Spec.ParamScope(nil)
		for _, kv := range l.mapping(where, "where", nil) {
			if !locs[kv[0].Value] {
				l.errorf(kv[0], "where: %s is not a location of the purpose", kv[0].Value)
				continue
			}
			what := "state predicate of " + kv[0].Value
			if e := l.predicate(kv[1], scope, what); e != nil {
				ext.Where = append(ext.Where, &spec.StatePredicate{Location: kv[0].Value, Pred: e, Pos: l.pos(kv[0])})
			}
		}
	}
	m.LTS = ext // a plain purpose is an LTS purpose too
}

// arc reads the action of one transition node; it returns the nodes
// that replace it (itself, or one copy per action of a set) and the arc
// as written (nil when the node is not a readable transition, which the
// transition reader then reports). ok is false after an error in the
// action set: the nodes then stand for the set without its mistakes
// (the known actions named, or "*" with no guard when there is none), so
// that each mistake is reported once and no location goes missing.
func (l *loader) arc(m *spec.Model, tn *yaml.Node) (nodes []*yaml.Node, arc *spec.Arc, ok bool) {
	if tn.Kind != yaml.MappingNode {
		return []*yaml.Node{tn}, nil, true
	}
	var an *yaml.Node
	arc = &spec.Arc{Pos: l.pos(tn)}
	actionAt := -1
	for i := 0; i+1 < len(tn.Content); i += 2 {
		k, v := tn.Content[i], tn.Content[i+1]
		switch k.Value {
		case "action":
			an, actionAt = v, i+1
		case "from":
			arc.From = v.Value
		case "to":
			arc.To = v.Value
		}
	}
	if an == nil {
		return []*yaml.Node{tn}, nil, true
	}
	names, explicit, ok := l.actionSet(m, an, arc)
	arc.Actions, arc.Explicit = names, explicit
	switch {
	case !ok && len(names) == 0:
		return []*yaml.Node{recovered(tn)}, arc, false
	case an.Kind == yaml.ScalarNode:
		return []*yaml.Node{tn}, arc, ok
	}
	for _, name := range names {
		c := *tn
		c.Content = append([]*yaml.Node(nil), tn.Content...)
		c.Content[actionAt] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: an.Line, Column: an.Column}
		nodes = append(nodes, &c)
	}
	return nodes, arc, ok
}

// recovered returns transition node tn with its from: and to: only,
// and action "*": what stands for a transition whose action set names
// no action, so that its locations are still the purpose's.
func recovered(tn *yaml.Node) *yaml.Node {
	c := *tn
	c.Content = nil
	for i := 0; i+1 < len(tn.Content); i += 2 {
		if k := tn.Content[i]; k.Value == "from" || k.Value == "to" {
			c.Content = append(c.Content, k, tn.Content[i+1])
		}
	}
	c.Content = append(c.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "action"},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: spec.Otherwise, Line: tn.Line, Column: tn.Column})
	return &c
}

// actionSet reads action: a name, "*", a list of names, or
// {except: [names]}; ok is false after an error, and names are then the
// actions the set names without its mistakes (possibly none).
func (l *loader) actionSet(m *spec.Model, an *yaml.Node, arc *spec.Arc) (names []string, explicit, ok bool) {
	switch an.Kind {
	case yaml.ScalarNode:
		// Checked by the transition reader.
		return []string{an.Value}, an.Value != spec.Otherwise, true
	case yaml.SequenceNode:
		set, ok := l.actionNames(m, an.Content, "action set")
		if len(an.Content) == 0 {
			l.errorf(an, "empty action set: a transition needs at least one action")
			ok = false
		}
		return inOrder(m, set), true, ok
	case yaml.MappingNode:
		var except []*yaml.Node
		found := false
		for _, kv := range l.mapping(an, "action set", []string{"except"}) {
			found = true
			except = l.sequence(kv[1], "except")
		}
		if !found {
			if len(an.Content) == 0 { // else the unknown keys are reported
				l.errorf(an, "an action set is a list of actions or {except: [actions]}")
			}
			return nil, false, false
		}
		sub, ok := l.actionNames(m, except, "except")
		arc.Except = inOrder(m, sub)
		if arc.Except == nil {
			arc.Except = []string{}
		}
		for _, a := range m.Spec.Actions {
			if !sub[a.Name] {
				names = append(names, a.Name)
			}
		}
		if len(names) == 0 {
			l.errorf(an, "the action set {except: [...]} is empty: it subtracts every action")
			return nil, false, false
		}
		return names, false, ok
	}
	l.errorf(an, "action must be an action name, \"*\", a list of actions or {except: [actions]}")
	return nil, false, false
}

// actionNames reads a list of the spec's action names: the set of the
// known ones, and ok false after an error (each unknown or repeated name
// is reported once).
func (l *loader) actionNames(m *spec.Model, ns []*yaml.Node, what string) (set map[string]bool, ok bool) {
	set = map[string]bool{}
	bad := map[string]bool{}
	ok = true
	for _, n := range ns {
		s, isScalar := l.scalar(n, "an action of the "+what)
		switch {
		case !isScalar:
			ok = false
		case bad[s]:
			ok = false
		case m.Spec.Action(s) == nil:
			l.errorf(n, "unknown action %s in the %s", s, what)
			ok, bad[s] = false, true
		case set[s]:
			l.errorf(n, "action %s is listed twice in the %s", s, what)
			ok, bad[s] = false, true
		default:
			set[s] = true
		}
	}
	return set, ok
}

// inOrder returns the names of set in the spec's order of actions.
func inOrder(m *spec.Model, set map[string]bool) []string {
	var out []string
	for _, a := range m.Spec.Actions {
		if set[a.Name] {
			out = append(out, a.Name)
		}
	}
	return out
}
