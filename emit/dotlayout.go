package emit

import (
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/emicklei/dot"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// guardWidth is the width, in characters, past which a guard is broken
// into lines at its && and || operators.
const guardWidth = 40

// A drawing is what DrawDOT draws of a model: the locations and edges
// kept, and the notes that stand for the edges left out.
type drawing struct {
	m         *spec.Model
	locations []string
	edges     []*spec.Transition
	notes     map[string]string // location → "any other output → Fail"
}

// newDrawing selects what to draw of m under o.
func newDrawing(m *spec.Model, o DrawOptions) *drawing {
	d := &drawing{m: m, notes: map[string]string{}}
	summed := map[*spec.Transition]bool{}
	if m.Kind == spec.TestcaseKind && !o.AllEdges {
		byFrom := map[string][]*spec.Transition{}
		for _, t := range m.Transitions {
			byFrom[t.From] = append(byFrom[t.From], t)
		}
		for l, ts := range byFrom {
			if note := d.sumUp(ts, summed); note != "" {
				d.notes[l] = note
			}
		}
	}
	reached := map[string]bool{m.Initial.Location: true}
	for _, t := range m.Transitions {
		if !summed[t] {
			d.edges = append(d.edges, t)
			reached[t.From], reached[t.To] = true, true
		}
	}
	for _, l := range m.Locations {
		if m.Kind == spec.TestcaseKind && m.Verdict(l) != "" && !reached[l] {
			continue // a verdict no drawn edge leads to
		}
		d.locations = append(d.locations, l)
	}
	return d
}

// sumUp marks in summed the transitions of ts (those of one location)
// that a note stands for, unguarded receives to Fail without
// assignment, and returns the note ("" if none).
func (d *drawing) sumUp(ts []*spec.Transition, summed map[*spec.Transition]bool) string {
	m := d.m
	sums, drawn := map[string]bool{}, map[string]bool{}
	for _, t := range ts {
		if m.Verdict(t.To) == "fail" && Direction(m, t) == spec.Receive &&
			(t.Guard == nil || expr.IsTrue(t.Guard)) && len(t.Assign) == 0 && t.Name == "" {
			summed[t] = true
			sums[t.Action] = true
		} else {
			drawn[t.Action] = true
		}
	}
	if len(sums) == 0 {
		return ""
	}
	// The note says "any other output" when it stands for every receive
	// but those drawn; it names the receives otherwise.
	all, other, named := true, false, []string(nil)
	for _, a := range m.Actions {
		if a.Dir != spec.Receive || a.Name == spec.Delta {
			continue
		}
		switch {
		case sums[a.Name]:
			named = append(named, "?"+a.Name)
		case drawn[a.Name]:
			other = true
		default:
			all = false // neither drawn nor summed: the note must not claim it
		}
	}
	var what []string
	switch {
	case len(named) == 0:
	case all && other:
		what = append(what, "any other output")
	case all:
		what = append(what, "any output")
	default:
		sort.Strings(named)
		what = append(what, strings.Join(named, ", "))
	}
	if sums[spec.Delta] {
		what = append(what, "quiescence")
	}
	return strings.Join(what, " or ") + " → Fail"
}

// clusters puts the product locations "l,q" of d that share their spec
// location l with another one in a cluster of g labelled l; it returns
// the cluster of each location clustered.
func (d *drawing) clusters(g *dot.Graph) map[string]*dot.Graph {
	groups := map[string][]string{}
	var order []string
	for _, l := range d.locations {
		i := strings.LastIndex(l, ",")
		if i <= 0 || d.m.Verdict(l) != "" {
			continue
		}
		s := l[:i]
		if groups[s] == nil {
			order = append(order, s)
		}
		groups[s] = append(groups[s], l)
	}
	out := map[string]*dot.Graph{}
	for _, s := range order {
		if len(groups[s]) < 2 || len(groups) < 2 {
			continue
		}
		c := g.Subgraph(s, dot.ClusterOption{})
		c.Attr("style", "rounded,dashed")
		c.Attr("color", "gray60")
		c.Attr("fontcolor", "gray40")
		c.Attr("labelloc", "b") // self-loops are drawn above their node
		for _, l := range groups[s] {
			out[l] = c
		}
	}
	return out
}

// wrapGuard breaks a long guard text into lines before its top-level
// && and || operators (those outside parentheses), packing operands into
// lines of about guardWidth characters.
func wrapGuard(s string) string {
	if len(s) <= guardWidth {
		return s
	}
	var pieces []string // each but the first starts with "&& " or "|| "
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ' ':
			if rest := s[i+1:]; depth == 0 && (strings.HasPrefix(rest, "&& ") || strings.HasPrefix(rest, "|| ")) {
				pieces = append(pieces, s[from:i])
				from = i + 1
			}
		}
	}
	pieces = append(pieces, s[from:])
	var lines []string
	for _, p := range pieces {
		if n := len(lines); n > 0 && len(lines[n-1])+1+len(p) <= guardWidth {
			lines[n-1] += " " + p
			continue
		}
		lines = append(lines, p)
	}
	return strings.Join(lines, "\n")
}

// transitionIndex returns the index of each transition in m.Transitions,
// the "t<i>" of short labels (and of stg view and coverage reports).
func transitionIndex(m *spec.Model) map[*spec.Transition]int {
	index := make(map[*spec.Transition]int, len(m.Transitions))
	for i, t := range m.Transitions {
		index[t] = i
	}
	return index
}

// shortLabel is the label of t's edge in a large drawing: its marked
// action and index, "?result t6".
func shortLabel(m *spec.Model, t *spec.Transition, i int) string {
	action, _, _ := strings.Cut(labelParts(m, t)[0], "(")
	return fmt.Sprintf("%s t%d", action, i)
}

// legend adds to g a table of the full labels of the edges drawn with a
// guard, assignments or a name (the others say all in their short label).
func legend(g *dot.Graph, m *spec.Model, edges []*spec.Transition, index map[*spec.Transition]int) {
	var rows strings.Builder
	for _, t := range edges {
		parts := labelParts(m, t)
		if len(parts) == 1 {
			continue
		}
		var lines []string
		for _, p := range parts[1:] {
			if strings.HasPrefix(p, "[") {
				p = wrapGuard(p)
			}
			lines = append(lines, strings.Split(p, "\n")...)
		}
		for i, l := range lines {
			lines[i] = html.EscapeString(l)
		}
		text := strings.Join(lines, `<BR/>`)
		fmt.Fprintf(&rows, `<TR><TD ALIGN="LEFT">t%d</TD><TD ALIGN="LEFT">%s</TD><TD ALIGN="LEFT" BALIGN="LEFT">%s</TD></TR>`,
			index[t], html.EscapeString(parts[0]), text)
	}
	if rows.Len() == 0 {
		return
	}
	n := g.Node(nodeID(999999)).Attr("shape", "plaintext").Attr("fontsize", "10")
	n.Attr("label", dot.HTML(`<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3"><TR><TD COLSPAN="3"><B>transitions</B></TD></TR>`+rows.String()+`</TABLE>`))
}
