package predabs

import (
	"fmt"
	"io"
	"strings"

	"github.com/emicklei/dot"
	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec/expr"
)

// Name names the spec transition behind the EGA: its name, or its line
// in the spec.
func (g *EGA) Name() string {
	if g.Transition.Name != "" {
		return g.Transition.Name
	}
	return fmt.Sprintf("line %d", g.Transition.Pos.Line)
}

// String prints t as "a1 -act-> a2  [EGA]", noting an unproved or a
// filtered transition.
func (t *Transition) String() string {
	var notes []string
	if t.Unproved {
		notes = append(notes, "unproved")
	}
	if t.Filtered {
		notes = append(notes, "filtered")
	}
	return fmt.Sprintf("a%d -%s-> a%d  [%s]%s", t.From.ID, t.Action(), t.To.ID, t.EGA.Name(), noteList(notes))
}

func set(xs []string) string { return "{" + strings.Join(xs, ", ") + "}" }

func formats(es []expr.Expr) []string {
	var out []string
	for _, e := range es {
		out = append(out, expr.Format(e))
	}
	return out
}

func noteList(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, ", ") + ")"
}

// WriteText prints the abstraction as the paper presents it: O^P, the
// abstraction variables, the partitions, the abstract states and
// transitions with the counts of Table I, and the filtered transitions.
func (a *Abstraction) WriteText(w io.Writer) {
	fmt.Fprintf(w, "abstraction of %s guided by %s\n", a.Behaviour.Spec.Name, a.Purpose.Model.Name)
	a.writeVars(w)
	st := a.Stats
	fmt.Fprintf(w, "abstract states: %d candidates, %d consistent with I, %d reachable\n", st.Candidates, st.States, st.Reachable)
	for _, s := range a.States {
		var notes []string
		if s.Initial {
			notes = append(notes, "initial")
		}
		if !s.Reachable {
			notes = append(notes, "unreachable")
		}
		fmt.Fprintf(w, "  a%d %s%s\n", s.ID, s.Label, noteList(notes))
	}
	fmt.Fprintf(w, "abstract transitions: %d, %d as an LTS (proof obligations %d, proved absent %d, unproved %d, filtered %d)\n",
		len(a.Transitions), st.LTSTransitions, st.PO, st.ProvedAbsent, st.Unproved, st.Filtered)
	for _, t := range a.Transitions {
		fmt.Fprintf(w, "  %s\n", t)
	}
	if !a.Options.NoFilter && len(a.Filtered) > 0 {
		fmt.Fprintf(w, "filtered (refuted with I):\n")
		for _, t := range a.Filtered {
			fmt.Fprintf(w, "  %s\n", t)
		}
	}
}

// writeVars prints O^P, the abstraction variables and their partitions.
func (a *Abstraction) writeVars(w io.Writer) {
	fmt.Fprintf(w, "O^P     = %s\n", set(a.Actions))
	fmt.Fprintf(w, "X^A_sp  = %s\n", set(a.SpVars))
	fmt.Fprintf(w, "X^A_op  = %s\n", set(a.OpVars))
	if len(a.Options.Vars) > 0 {
		fmt.Fprintf(w, "X^A     = %s (--vars)\n", set(a.Options.Vars))
	} else {
		fmt.Fprintf(w, "dropped = %s (determined by the other abstraction variables under I)\n", set(a.Dropped))
		var xs []string
		for _, p := range a.Vars {
			xs = append(xs, p.Var.Name)
		}
		fmt.Fprintf(w, "X^A     = %s\n", set(xs))
	}
	for _, p := range a.Vars {
		var cells []string
		for _, c := range p.Cells {
			cells = append(cells, c.Label)
		}
		fmt.Fprintf(w, "SD^%s = %s\n", p.Var.Name, set(cells))
		fmt.Fprintf(w, "  SD_sp: %s\n", set(formats(p.Sp)))
		fmt.Fprintf(w, "  SD_op: %s\n", set(formats(p.Op)))
	}
}

type yamlAbstraction struct {
	Spec        string              `yaml:"spec"`
	Purpose     string              `yaml:"purpose"`
	OP          []string            `yaml:"O^P,flow"`
	XAsp        []string            `yaml:"X^A_sp,flow"`
	XAop        []string            `yaml:"X^A_op,flow"`
	Dropped     []string            `yaml:"dropped,flow"`
	Partitions  []yamlPartition     `yaml:"partitions"`
	Candidates  int                 `yaml:"candidates"`
	States      []yamlState         `yaml:"states"`
	Transitions []map[string]string `yaml:"transitions"`
	Counts      map[string]int      `yaml:"counts"`
}

type yamlPartition struct {
	Var   string   `yaml:"var"`
	Sp    []string `yaml:"sd_sp,flow"`
	Op    []string `yaml:"sd_op,flow"`
	Cells []string `yaml:"cells,flow"`
}

type yamlState struct {
	ID        string `yaml:"id"`
	Pred      string `yaml:"pred"`
	Initial   bool   `yaml:"initial,omitempty"`
	Reachable bool   `yaml:"reachable"`
}

// WriteYAML writes the abstraction as YAML: the sets, the partitions
// (their predicates and cells), the states, the transitions and the
// counts of Table I.
func (a *Abstraction) WriteYAML(w io.Writer) error {
	y := yamlAbstraction{Spec: a.Behaviour.Spec.Name, Purpose: a.Purpose.Model.Name, OP: a.Actions,
		XAsp: a.SpVars, XAop: a.OpVars, Dropped: a.Dropped, Candidates: a.Stats.Candidates}
	for _, p := range a.Vars {
		yp := yamlPartition{Var: p.Var.Name, Sp: formats(p.Sp), Op: formats(p.Op)}
		for _, c := range p.Cells {
			yp.Cells = append(yp.Cells, expr.Format(c.Pred))
		}
		y.Partitions = append(y.Partitions, yp)
	}
	for _, s := range a.States {
		y.States = append(y.States, yamlState{ID: fmt.Sprintf("a%d", s.ID), Pred: expr.Format(s.Pred), Initial: s.Initial, Reachable: s.Reachable})
	}
	for _, t := range a.Transitions {
		m := map[string]string{"from": fmt.Sprintf("a%d", t.From.ID), "action": t.Action(), "ega": t.EGA.Name(), "to": fmt.Sprintf("a%d", t.To.ID)}
		if t.Unproved {
			m["unproved"] = "true"
		}
		if t.Filtered {
			m["filtered"] = "true"
		}
		y.Transitions = append(y.Transitions, m)
	}
	st := a.Stats
	y.Counts = map[string]int{"proof_obligations": st.PO, "proved_absent": st.ProvedAbsent, "unproved": st.Unproved, "filtered": st.Filtered,
		"states": st.States, "reachable": st.Reachable, "transitions": st.Transitions}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(y); err != nil {
		return err
	}
	return enc.Close()
}

// DOT draws the abstraction: one node per abstract state, one edge per
// abstract transition labelled by its action; unproved edges are
// dashed, filtered ones (with NoFilter) red.
func (a *Abstraction) DOT() *dot.Graph {
	g := dot.NewGraph(dot.Directed)
	g.ID(fmt.Sprintf("%q", "abstraction "+a.Behaviour.Spec.Name))
	g.Attr("label", "abstraction of "+a.Behaviour.Spec.Name+" guided by "+a.Purpose.Model.Name)
	g.Attr("labelloc", "t")
	start := g.Node("a_start").Label("").Attr("shape", "point").Attr("style", "invis")
	nodes := map[*State]dot.Node{}
	for _, s := range a.States {
		n := g.Node(fmt.Sprintf("a%04d", s.ID)).Label(fmt.Sprintf("a%d %s", s.ID, s.Label)).Attr("shape", "box")
		nodes[s] = n
		if s.Initial {
			g.Edge(start, n)
		}
	}
	for _, t := range a.Transitions {
		e := g.Edge(nodes[t.From], nodes[t.To], t.Action())
		if t.Unproved {
			e.Dashed()
		}
		if t.Filtered {
			e.Attr("color", "red")
		}
	}
	return g
}
