package project

import (
	"fmt"
	"io"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/symex"
)

// View is the projection of one system behaviour as stg project prints
// it (in text, YAML or DOT): the component's states N0..Nk, each with
// its external constraint and label in the Def 18 purpose, and the
// purpose itself.
type View struct {
	Behaviour string      `yaml:"behaviour"` // the system's visible trace
	Node      int         `yaml:"node"`      // the system leaf's ID
	Path      []string    `yaml:"system_path"`
	On        string      `yaml:"on"`
	States    []ViewState `yaml:"states"`
	Purpose   string      `yaml:"purpose"` // "none: WHY" when there is none
}

// ViewState is N_i: the step into it, its state, its external
// constraint and its complementary twin.
type ViewState struct {
	Name     string `yaml:"name"`
	Step     string `yaml:"step,omitempty"`
	Location string `yaml:"location"`
	Vars     string `yaml:"vars"`
	PC       string `yaml:"pc"`
	EC       string `yaml:"ec"`
	Twin     string `yaml:"twin,omitempty"` // the twin's new constraint ¬ct
	TwinSat  bool   `yaml:"twin_satisfiable,omitempty"`
	Label    string `yaml:"label"`
}

// HasPurpose reports whether the projection has a test purpose.
func (v *View) HasPurpose() bool { return !strings.HasPrefix(v.Purpose, "none") }

// View projects the system behaviour ending at leaf and returns it as
// stg project prints it, its constraints simplified in z.
func (s *Session) View(z *solver.Context, leaf *symex.Node) (*View, error) {
	p, err := s.Project(leaf)
	if err != nil {
		return nil, err
	}
	v := &View{Node: leaf.ID, Path: leaf.Path(), On: s.On.Name, Behaviour: visibleTrace(leaf)}
	tp, perr := s.Purpose(p)
	label := func(n *symex.Node) string {
		if tp == nil {
			return "⊥"
		}
		return tp.Label(n).Symbol()
	}
	vars := s.On.Spec.Variables
	state := func(name string, e Extended) ViewState {
		n := e.Node
		return ViewState{Name: name, Location: n.State.Loc, Vars: n.State.VarsString(vars), PC: expr.Format(n.State.PC),
			EC: expr.Format(Simplify(z, e.EC)), Label: label(n)}
	}
	v.States = append(v.States, state("N0", p.Init))
	for i, st := range p.Steps {
		ps := state(fmt.Sprintf("N%d", i+1), st.Target)
		ps.Step = st.Target.Node.Name + ": " + st.Target.Node.Label()
		if st.TwinSat {
			ps.Twin, ps.TwinSat = expr.Format(expr.NotOf(st.CT)), true
		}
		v.States = append(v.States, ps)
	}
	if perr != nil {
		v.Purpose = "none: " + perr.Error()
		return v, nil
	}
	var acc []string
	for _, a := range tp.Accept {
		acc = append(acc, a.Node.PathString())
	}
	v.Purpose = fmt.Sprintf("accept %s; skip their ancestors; ⊥ the rest, twins included", strings.Join(acc, ", "))
	return v, nil
}

// visibleTrace prints the visible actions of the system path to n.
func visibleTrace(n *symex.Node) string {
	var ls []string
	for k := n; k.Parent != nil; k = k.Parent {
		if k.Action != nil && k.Action.Dir != spec.Internal {
			ls = append([]string{k.Label()}, ls...)
		}
	}
	return strings.Join(ls, " ")
}

// WriteText prints the projection: a line per state N_i with its
// constraints, a line per satisfiable twin, and the purpose.
func (v *View) WriteText(w io.Writer) {
	fmt.Fprintf(w, "behaviour %s (system node %d), projected on %s: %d step(s)\n", v.Behaviour, v.Node, v.On, len(v.States)-1)
	for _, s := range v.States {
		head := s.Name
		if s.Step != "" {
			head += "  " + s.Step
		}
		fmt.Fprintf(w, "  %s -> %s  %s  [%s]\n", head, s.Location, s.Vars, s.Label)
		if s.PC != "true" {
			fmt.Fprintf(w, "      pc: %s\n", s.PC)
		}
		fmt.Fprintf(w, "      ec: %s\n", s.EC)
		if s.TwinSat {
			fmt.Fprintf(w, "      twin %s': the previous ec ∧ %s (satisfiable) [⊥]\n", s.Name, s.Twin)
		}
	}
	fmt.Fprintf(w, "  purpose: %s\n", v.Purpose)
}

// WriteDOT draws the projections of s's system: each a chain
// N0 -> ... -> Nk, twins dashed beside their step, accept states
// double-octagons.
func WriteDOT(w io.Writer, s *Session, views []*View) {
	fmt.Fprintf(w, "digraph %q {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n", s.System.Name+" on "+s.On.Name)
	for k, v := range views {
		fmt.Fprintf(w, "  subgraph cluster_%d {\n    label=%q;\n", k, v.Behaviour)
		for i, st := range v.States {
			id := fmt.Sprintf("p%d_%d", k, i)
			shape := "box"
			if st.Label == "accept" {
				shape = "doubleoctagon"
			}
			fmt.Fprintf(w, "    %s [shape=%s, label=%s];\n", id, shape, dotLines(st.Name+" "+st.Location+" ["+st.Label+"]", "ec: "+st.EC))
			if i == 0 {
				continue
			}
			fmt.Fprintf(w, "    p%d_%d -> %s [label=%q];\n", k, i-1, id, st.Step)
			if st.TwinSat {
				fmt.Fprintf(w, "    %s_twin [style=dashed, label=%s];\n", id, dotLines(st.Name+"' [⊥]", "ec ∧ "+st.Twin))
				fmt.Fprintf(w, "    p%d_%d -> %s_twin [style=dashed, label=%q];\n", k, i-1, id, st.Step)
			}
		}
		fmt.Fprintf(w, "  }\n")
	}
	fmt.Fprintf(w, "}\n")
}

// dotLines returns a DOT label of left-justified lines, quoted.
func dotLines(lines ...string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, l := range lines {
		b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ").Replace(l))
		b.WriteString(`\l`)
	}
	b.WriteByte('"')
	return b.String()
}
