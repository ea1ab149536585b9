package project

import (
	"fmt"
	"strings"

	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// A Target is a sub-system that paths are projected onto (Def 8): its
// compose.System, the spec its tree is unfolded from, and the maps from
// the system's transitions to the sub-system's (Def 9).
//
// For a component the spec is the component's own file, with its own
// names (s_bet, bb): the spec of the component's SUT, which the
// purposes name. For a composite sub-system (Int * SM) it is the
// sub-system's flat model (compose.System.Model).
type Target struct {
	Name     string // as given: "SM", "Int * SM"
	System   *compose.System
	Flat     *spec.Model // the system's flat model
	Sub      *compose.System
	Spec     *spec.Model
	SpecFile string // the component's spec file; "" for a composite sub-system
	comp     string // the component, for a component

	sysTrans map[*spec.Transition]*compose.Transition
	subTrans map[*compose.Transition]*spec.Transition
}

// NewTarget returns the sub-system on of the system g (built from sys;
// flat is g's flat model), named by a component's name or by its
// structure as printed ("Int * SM").
func NewTarget(sys *spec.System, g *compose.System, flat *spec.Model, on string) (*Target, error) {
	sub := g.Sub(on)
	if sub == nil {
		var names []string
		for _, s := range g.Subsystems() {
			names = append(names, s.String())
		}
		return nil, fmt.Errorf("%s has no sub-system %q (its sub-systems: %s)", sys.File, on, strings.Join(names, "; "))
	}
	t := &Target{Name: on, System: g, Flat: flat, Sub: sub, sysTrans: indexCompose(flat, g), subTrans: map[*compose.Transition]*spec.Transition{}}
	if sub.Structure.Op == spec.Leaf {
		c := sys.Component(sub.Structure.Component)
		t.Spec, t.SpecFile, t.comp = c.Model, c.Path, c.Name
		byName := map[string]*spec.Transition{}
		for _, tr := range c.Model.Transitions {
			byName[c.Name+"."+tr.Name] = tr
		}
		for _, u := range sub.Transitions {
			basic := u.Name.Out
			if basic == "" && len(u.Name.In) > 0 {
				basic = u.Name.In[0]
			}
			t.subTrans[u] = byName[basic]
		}
		return t, nil
	}
	m, err := sub.Model(sys.Name+"-"+fileSafe(on), sys.File)
	if err != nil {
		return nil, err
	}
	t.Spec = m
	for i, u := range sub.Transitions {
		t.subTrans[u] = m.Transitions[i]
	}
	return t, nil
}

// project returns the transition of the sub-system's spec that the
// system's flat transition t projects onto (Def 9), or nil.
func (t *Target) project(tr *spec.Transition) *spec.Transition {
	ct := t.sysTrans[tr]
	if ct == nil {
		return nil
	}
	u := t.System.Project(ct, t.Sub)
	if u == nil {
		return nil
	}
	return t.subTrans[u]
}

// sysVar returns the system's name of the sub-system's variable x.
func (t *Target) sysVar(x string) string {
	if t.comp != "" {
		return t.comp + "." + x
	}
	return x
}

// fileSafe makes a sub-system's name usable in a model's name.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// Behaviours returns the maximal behaviours of a system's symbolic
// execution tree: the leaves of its τ-reduction (Def 13) that do not end
// with quiescence, in depth-first order; an internal chain that ends the
// tree (cut by inclusion at an internal node, or a leaf) is one
// (symex.TauNode.End), so that a component's steps on hidden channels
// along it are projected too.
func Behaviours(root *symex.Node) []*symex.TauNode {
	var bs []*symex.TauNode
	for _, l := range symex.TauReduce(root).Leaves() {
		if l.Node.Name != symex.DeltaName && l.Node.Parent != nil {
			bs = append(bs, l)
		}
	}
	return bs
}
