package view

import (
	"fmt"
	"strings"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// FromModel returns the graph of a spec, purpose, test case or composed
// system: one node per location, one edge per transition, "t<i>" the
// i-th transition of m (the index of a coverage report). An edge's
// label is its action with its mark (as in stg dot) and its id; its
// guard, assignments, name and, in a test case, the spec transition
// behind it are details. In a test case the edges into Fail are marked
// Fail (folded by default).
func FromModel(m *spec.Model) *Graph {
	g := &Graph{Title: m.Kind.String() + " " + m.Name, Kind: m.Kind.String()}
	ids, an := map[string]string{}, analysisOf(m)
	for i, l := range m.Locations {
		n := &Node{ID: fmt.Sprintf("n%d", i), Name: l, Label: l, Initial: l == m.Initial.Location}
		switch {
		case m.Kind == spec.PurposeKind && m.IsAccept(l):
			n.Class = "accept"
		case m.Kind == spec.TestcaseKind:
			n.Class = m.Verdict(l)
		}
		n.Details = []Field{{"location", l}}
		if n.Class != "" {
			n.Details = append(n.Details, Field{"kind", n.Class})
		}
		n.Details = append(n.Details, locationAnalysis(m, an, l)...) // analysis.go
		ids[l] = n.ID
		g.Nodes = append(g.Nodes, n)
	}
	for i, t := range m.Transitions {
		e := modelEdge(m, i, t, ids)
		e.Details = append(e.Details, edgeAnalysis(m, an, t)...) // analysis.go
		g.Edges = append(g.Edges, e)
	}
	g.Info = append(modelInfo(m), analysisInfo(m)...) // analysis.go
	return g
}

func modelEdge(m *spec.Model, i int, t *spec.Transition, ids map[string]string) *Edge {
	id := fmt.Sprintf("t%d", i)
	e := &Edge{ID: id, From: ids[t.From], To: ids[t.To], Action: t.Action, Style: "solid"}
	e.Label = Mark(m, t) + " " + id
	e.Summary = t.From + " → " + t.To + ": " + emit.Label(m, t)
	switch emit.Direction(m, t) {
	case spec.Output, spec.Receive:
		e.Style = "dashed"
	case spec.Internal:
		e.Style = "dotted"
	}
	e.Fail = m.Kind == spec.TestcaseKind && m.Verdict(t.To) == "fail"
	e.Details = []Field{{"transition", id}, {"from", t.From}, {"to", t.To}, {"action", emit.Label(m, t)}}
	if t.Name != "" {
		e.Details = append(e.Details, Field{"name", t.Name})
	}
	if t.Guard != nil && !expr.IsTrue(t.Guard) {
		e.Details = append(e.Details, Field{"guard", expr.Format(t.Guard)})
	}
	for _, a := range m.AssignmentTexts(t.Assign) {
		e.Details = append(e.Details, Field{"assign", a[0] + " := " + a[1]})
	}
	if m.Kind == spec.TestcaseKind {
		e.Details = append(e.Details, Field{"spec transition", specBehind(m, t)})
	}
	if t.Pos.Line > 0 {
		e.Details = append(e.Details, Field{"source", t.Pos.String()})
	}
	return e
}

// Mark returns t's action as stg dot marks it: "?a" for an input of the
// SUT (a receive in a test case), "!a" for an output (a send), the bare
// name for an internal action, "otherwise" for a purpose's "*".
func Mark(m *spec.Model, t *spec.Transition) string {
	if t.IsOtherwise() && m.Kind == spec.PurposeKind {
		return "otherwise"
	}
	switch emit.Direction(m, t) {
	case spec.Input, spec.Receive:
		return "?" + t.Action
	case spec.Output, spec.Send:
		return "!" + t.Action
	}
	return t.Action
}

// specBehind names the spec transition behind a test case's transition:
// its name (which a generated test case keeps) and "l -a-> l'" read from
// the product locations "l,q"; quiescence and the outputs into Fail the
// spec does not allow have none.
func specBehind(m *spec.Model, t *spec.Transition) string {
	var parts []string
	if t.Name != "" {
		parts = append(parts, t.Name)
	}
	switch {
	case t.Action == spec.Delta:
		parts = append(parts, "quiescence")
	case m.Verdict(t.To) == "fail" && t.Name == "":
		parts = append(parts, "none: an output the spec does not allow here leads to Fail")
	case product.SpecEdge(m, t) != "":
		parts = append(parts, product.SpecEdge(m, t))
	}
	if len(parts) == 0 {
		return "(unnamed)"
	}
	return strings.Join(parts, ": ")
}

// modelInfo lists the model's variables, actions and initial condition.
func modelInfo(m *spec.Model) []Field {
	var out []Field
	if m.File != "" {
		out = append(out, Field{"file", m.File})
	}
	var vs []string
	for _, v := range m.Variables {
		vs = append(vs, v.Name+": "+v.Type.String())
	}
	if len(vs) > 0 {
		out = append(out, Field{"variables", strings.Join(vs, ", ")})
	}
	var as []string
	for _, a := range m.Actions {
		s := a.Name
		if len(a.Params) > 0 {
			var ps []string
			for _, p := range a.Params {
				ps = append(ps, p.Name)
			}
			s += "(" + strings.Join(ps, ", ") + ")"
		}
		as = append(as, a.Dir.String()+" "+s)
	}
	if len(as) > 0 {
		out = append(out, Field{"actions", strings.Join(as, "; ")})
	}
	if c := m.Initial.Condition; c != nil && !expr.IsTrue(c) {
		out = append(out, Field{"initially", m.Initial.Location + " with " + expr.Format(c)})
	} else {
		out = append(out, Field{"initially", m.Initial.Location})
	}
	return out
}
