package compose

import "strings"

// Subsystems returns SubS(g) (Def 8): g and the sub-systems of its
// parts, in pre-order.
func (g *System) Subsystems() []*System {
	subs := []*System{g}
	for _, p := range g.Parts {
		subs = append(subs, p.Subsystems()...)
	}
	return subs
}

// Sub returns the sub-system of g whose structure prints as name (a
// component's name, "Int * SM", "Hide([c], Int * SM)"), or nil.
func (g *System) Sub(name string) *System {
	for _, s := range g.Subsystems() {
		if s.String() == name {
			return s
		}
	}
	return nil
}

// Project returns the projection of t, a transition of g, onto sub, a
// sub-system of g (Def 9): the transition of sub named (o', i') from
// t's source restricted to sub's components, where o' is t's output
// when it belongs to sub and ε otherwise, and i' is the part of t's
// inputs that belongs to sub. It returns nil when sub does not move
// (o' = ε and i' = ∅), or when sub is not a sub-system of g.
func (g *System) Project(t *Transition, sub *System) *Transition {
	off := -1
	for i, l := range g.Leaves {
		if l == sub.Leaves[0] {
			off = i
		}
	}
	if off < 0 || off+len(sub.Leaves) > len(g.Leaves) {
		return nil
	}
	mine := map[string]bool{}
	for _, l := range sub.Leaves {
		mine[l] = true
	}
	owned := func(basic string) bool {
		c, _, _ := strings.Cut(basic, ".")
		return mine[c]
	}
	var n Name
	if owned(t.Name.Out) {
		n.Out = t.Name.Out
	}
	for _, i := range t.Name.In {
		if owned(i) {
			n.In = append(n.In, i)
		}
	}
	if n.Out == "" && len(n.In) == 0 {
		return nil
	}
	return sub.Transition(n, t.From[off:off+len(sub.Leaves)])
}
