package check

import (
	"fmt"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// OtherwiseSwallows reports, for a purpose read with its spec, each "*"
// transition that swallows the only way to Accept: in the product of
// the spec and the purpose, drawn without data, no Accept location is
// reachable, but without that "*" transition (its actions then leave
// the purpose where it is) one is. The finding names the transition and
// the first action of such a way that it takes.
//
// The graph over-approximates the runs of the product (every guard may
// hold, quiescence may be observed in every spec location), so a purpose
// reported cannot reach Accept at all: the test case would be empty.
// Findings are warnings (Undecided); other kinds of models give none.
func OtherwiseSwallows(p *spec.Model) []*expr.Error {
	if p.Kind != spec.PurposeKind || p.Spec == nil {
		return nil
	}
	g := productGraph{s: p.Spec, p: p}
	if g.path(nil) != nil {
		return nil
	}
	var out []*expr.Error
	for _, t := range p.Transitions {
		if !t.IsOtherwise() {
			continue
		}
		path := g.path(t)
		if path == nil {
			continue
		}
		what := ""
		for _, st := range path {
			if st.q == t.From && !g.internal(st.action) && !g.names(t.From, st.action) {
				what = fmt.Sprintf(": %s in spec location %s", g.mark(st.action), st.l)
				break
			}
		}
		out = append(out, &expr.Error{Pos: t.Pos, Msg: fmt.Sprintf(
			"purpose %s: no Accept location can be reached: this \"*\" transition from %s to %s takes every action %s does not name, also the one the only way to Accept needs%s; without it Accept is reachable (name that action at %s, or guard the \"*\")",
			p.Name, t.From, t.To, t.From, what, t.From)})
	}
	return out
}

// productGraph is the product of a spec and a purpose without data.
type productGraph struct{ s, p *spec.Model }

// A step is one move of the product graph: from spec location l and
// purpose location q, on action, to toL and toQ.
type step struct {
	l, q, action, toL, toQ string
}

// mark writes action as the spec sees it: ?in, !out, quiescence.
func (g productGraph) mark(action string) string {
	if action == spec.Delta {
		return "quiescence"
	}
	if a := g.s.Action(action); a != nil && a.Dir == spec.Input {
		return "?" + action
	} else if a != nil && a.Dir == spec.Output {
		return "!" + action
	}
	return action
}

// internal reports whether action is internal to the spec: the
// purpose, which observes the SUT, does not see it.
func (g productGraph) internal(action string) bool {
	a := g.s.Action(action)
	return a != nil && a.Dir == spec.Internal
}

// names reports whether the purpose has an explicit transition from q
// on action.
func (g productGraph) names(q, action string) bool {
	for _, t := range g.p.Outgoing(q) {
		if t.Action == action {
			return true
		}
	}
	return false
}

// moves returns the purpose locations q may go to on action, by the
// completion rule, every guard taken as satisfiable: the explicit
// transitions; the "*" ones (but skip) unless an explicit guard is true;
// staying unless a guard of either is true.
func (g productGraph) moves(q, action string, skip *spec.Transition) []string {
	var to []string
	covered := false
	for _, t := range g.p.Outgoing(q) {
		if t.Action == action {
			to = append(to, t.To)
			covered = covered || expr.IsTrue(t.Guard)
		}
	}
	if covered {
		return to
	}
	for _, t := range g.p.Outgoing(q) {
		if t.IsOtherwise() && t != skip {
			to = append(to, t.To)
			covered = covered || expr.IsTrue(t.Guard)
		}
	}
	if !covered {
		to = append(to, q)
	}
	return to
}

// path returns the steps of a shortest way from the initial locations
// to an Accept location of the purpose, the transition skip left out,
// or nil if there is none. Internal actions of the spec do not move the
// purpose; quiescence (delta) may be observed anywhere.
func (g productGraph) path(skip *spec.Transition) []step {
	type node struct{ l, q string }
	start := node{g.s.Initial.Location, g.p.Initial.Location}
	parent := map[node]step{}
	seen := map[node]bool{start: true}
	queue := []node{start}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if g.p.IsAccept(n.q) {
			var steps []step
			for n != start {
				st := parent[n]
				steps = append([]step{st}, steps...)
				n = node{st.l, st.q}
			}
			return steps
		}
		var out []step
		for _, t := range g.s.Outgoing(n.l) {
			if g.internal(t.Action) {
				out = append(out, step{n.l, n.q, t.Action, t.To, n.q})
				continue
			}
			for _, q := range g.moves(n.q, t.Action, skip) {
				out = append(out, step{n.l, n.q, t.Action, t.To, q})
			}
		}
		for _, q := range g.moves(n.q, spec.Delta, skip) {
			out = append(out, step{n.l, n.q, spec.Delta, n.l, q})
		}
		for _, st := range out {
			next := node{st.toL, st.toQ}
			if !seen[next] {
				seen[next] = true
				parent[next] = st
				queue = append(queue, next)
			}
		}
	}
	return nil
}
