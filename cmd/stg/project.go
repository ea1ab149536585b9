package main

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/project"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
	"github.com/stg-tool/stg/tool"
)

func projectCommand() *cli.Command {
	return &cli.Command{
		Name:      "project",
		Usage:     "project system behaviours onto a component, with external constraints",
		ArgsUsage: "SYSTEM",
		UsageText: "stg project SYSTEM --on COMPONENT (--path ID | --all-leaves) [--format text|yaml|dot] [--stats [--format json]] [--solver-timeout DURATION]",
		Description: `Project executes the system symbolically (restricted by inclusion),
takes its maximal behaviours (the leaves of the τ-reduced tree, Def 13 of
the component-systems paper) or the path to node ID (the IDs number the
tree's nodes in creation order; --all-leaves prints the leaves' "system
node ID"), and projects each onto
the sub-system COMPONENT (a component's name, or a sub-system as the
structure prints it, "Int * SM"): the component's steps (Defs 15-16), each
with the external constraint the rest of the system puts on it (the
system's path condition over the component's symbols) and its
complementary twin (the constraint negated), satisfiable or not; then the
test purpose of Def 18 (accept, skip, ⊥). stg purposes SYSTEM --on
COMPONENT writes those purposes as sympurpose files for stg run.

--stats prints the figures only: the system's tree (nodes, transitions,
the coverage of the system's transitions), the behaviours projected, their
steps and twins, how many have a purpose, the time; --stats --format json
prints them as JSON, with the key names of stg symex --stats.

Example:
   stg project examples/slot/system.yaml --on SM --all-leaves`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "on", Usage: "the sub-system `COMPONENT`"},
			&cli.IntFlag{Name: "path", Value: -1, Usage: "project the path to the system's node `ID`"},
			&cli.BoolFlag{Name: "all-leaves", Usage: "project every maximal behaviour of the system"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT`: text, yaml or dot; with --stats, text or json"},
			&cli.BoolFlag{Name: "stats", Usage: "print the figures of the projection only"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query by `DURATION`"},
		},
		Action: runProject,
	}
}

// projectSession reads SYSTEM --on COMPONENT and the leaves to project:
// --path ID or --all-leaves (all by default when allByDefault).
func projectSession(c *cli.Context, z *solver.Context, allByDefault bool) (*project.Session, []*symex.Node, error) {
	args, err := positionalArgs(c)
	if err != nil {
		return nil, nil, usageError(c, "%v", err)
	}
	if len(args) != 1 {
		return nil, nil, usageError(c, "stg %s needs one SYSTEM", c.Command.Name)
	}
	if c.String("on") == "" {
		return nil, nil, usageError(c, "give the sub-system to project on: --on COMPONENT")
	}
	id, all := c.Int("path"), c.Bool("all-leaves")
	if id >= 0 && all || id < 0 && !all && !allByDefault {
		return nil, nil, usageError(c, "give one of --path ID and --all-leaves")
	}
	z.SetTimeout(c.Duration("solver-timeout"))
	s, err := project.Load(z, args[0], c.String("on"), symex.Options{Inclusion: true})
	if err != nil {
		return nil, nil, tool.InputError(err)
	}
	if id < 0 {
		var leaves []*symex.Node
		for _, b := range s.Behaviours() {
			leaves = append(leaves, b.Node)
		}
		return s, leaves, nil
	}
	n, err := s.Node(id)
	if err != nil {
		return nil, nil, tool.InputError(err)
	}
	return s, []*symex.Node{n}, nil
}

func runProject(c *cli.Context) error {
	if err := checkFormat(c, c.String("format"), []string{"text", "yaml", "dot"}); err != nil {
		return err
	}
	z, err := solver.NewContext()
	if err != nil {
		return tool.InputError(err)
	}
	defer z.Close()
	start := time.Now()
	s, leaves, err := projectSession(c, z, false)
	if err != nil {
		return err
	}
	var views []*projectView
	for _, leaf := range leaves {
		v, err := newProjectView(z, s, leaf)
		if err != nil {
			return tool.InputError(err)
		}
		views = append(views, v)
	}
	var out bytes.Buffer
	switch c.String("format") {
	case "json":
		if err := writeStatsJSON(&out, projectFiguresOf(s, views, time.Since(start))); err != nil {
			return tool.InputError(err)
		}
	case "text":
		if c.Bool("stats") {
			projectFiguresOf(s, views, time.Since(start)).text(&out)
			break
		}
		for _, v := range views {
			v.text(&out)
		}
	case "yaml":
		enc := yaml.NewEncoder(&out)
		enc.SetIndent(2)
		if err := enc.Encode(views); err != nil {
			return tool.InputError(err)
		}
	case "dot":
		projectDOT(&out, s, views)
	}
	_, err = c.App.Writer.Write(out.Bytes())
	return err
}

// projectFigures are the figures of stg project --stats: the system's
// symbolic execution tree (as stg symex --stats names them) and the
// projections.
type projectFigures struct {
	symex.Stats
	States     int           `json:"states"`   // of the tree: its nodes, as stg symex counts them
	Coverage   statsCoverage `json:"coverage"` // of the system's transitions by its tree
	Behaviours int           `json:"behaviours"`
	Steps      int           `json:"steps"`    // of the component, in all projections
	Twins      int           `json:"twins"`    // satisfiable complementary twins
	Purposes   int           `json:"purposes"` // projections with a test purpose
	TimeMS     float64       `json:"time_ms"`

	time time.Duration
}

func projectFiguresOf(s *project.Session, views []*projectView, d time.Duration) *projectFigures {
	cov := s.Tree.Coverage
	f := &projectFigures{Stats: s.Tree.Stats, States: s.Tree.Stats.Nodes, Coverage: newStatsCoverage(cov.Covered, cov.Total, cov.Uncovered),
		Behaviours: len(views), TimeMS: timeMS(d), time: d}
	for _, v := range views {
		f.Steps += len(v.States) - 1
		for _, st := range v.States {
			if st.TwinSat {
				f.Twins++
			}
		}
		if !strings.HasPrefix(v.Purpose, "none") {
			f.Purposes++
		}
	}
	return f
}

func (f *projectFigures) text(w *bytes.Buffer) {
	fmt.Fprintf(w, "nodes: %d\ntransitions: %d\ncoverage: %s\nbehaviours: %d\nsteps: %d\ntwins: %d\npurposes: %d\ntime: %s\n",
		f.Nodes, f.Transitions, ratio(f.Coverage.Covered, f.Coverage.Total), f.Behaviours, f.Steps, f.Twins, f.Purposes, f.time.Round(time.Millisecond))
}

// projectView is one projection as stg project prints it.
type projectView struct {
	Behaviour string         `yaml:"behaviour"` // the system's visible trace
	Node      int            `yaml:"node"`      // the system leaf's ID
	Path      []string       `yaml:"system_path"`
	On        string         `yaml:"on"`
	States    []projectState `yaml:"states"`
	Purpose   string         `yaml:"purpose"`
}

// projectState is N_i: the step into it, its state, its external
// constraint and its twin.
type projectState struct {
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

func newProjectView(z *solver.Context, s *project.Session, leaf *symex.Node) (*projectView, error) {
	p, err := s.Project(leaf)
	if err != nil {
		return nil, err
	}
	v := &projectView{Node: leaf.ID, Path: leaf.Path(), On: s.On.Name}
	v.Behaviour = traceOf(leaf)
	tp, perr := s.Purpose(p)
	label := func(n *symex.Node) string {
		if tp == nil {
			return "⊥"
		}
		return tp.Label(n).Symbol()
	}
	vars := s.On.Spec.Variables
	state := func(name string, e project.Extended) projectState {
		n := e.Node
		return projectState{Name: name, Location: n.State.Loc, Vars: n.State.VarsString(vars), PC: spec.Format(n.State.PC),
			EC: spec.Format(project.Simplify(z, e.EC)), Label: label(n)}
	}
	v.States = append(v.States, state("N0", p.Init))
	for i, st := range p.Steps {
		ps := state(fmt.Sprintf("N%d", i+1), st.Target)
		ps.Step = st.Target.Node.Name + ": " + st.Target.Node.Label()
		if st.TwinSat {
			ps.Twin, ps.TwinSat = spec.Format(spec.NotOf(st.CT)), true
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

// traceOf prints the visible actions of the system path to n.
func traceOf(n *symex.Node) string {
	var ls []string
	for k := n; k.Parent != nil; k = k.Parent {
		if k.Action != nil && k.Action.Dir != spec.Internal {
			ls = append([]string{k.Label()}, ls...)
		}
	}
	return strings.Join(ls, " ")
}

func (v *projectView) text(w *bytes.Buffer) {
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

// projectDOT draws each projection as a chain N0 -> ... -> Nk, twins
// dashed beside their step, accept states double-circled.
func projectDOT(w *bytes.Buffer, s *project.Session, views []*projectView) {
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
