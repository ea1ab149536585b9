package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/emicklei/dot"
	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// maxStatesM bounds the enumeration of the concrete reachable states
// that --stats reports.
const maxStatesM = 100000

func abstractCommand() *cli.Command {
	return &cli.Command{
		Name:      "abstract",
		Usage:     "predicate abstraction of a spec guided by a test purpose (LTG/GeneSyst)",
		ArgsUsage: "SPEC PURPOSE",
		Description: `Abstract reads SPEC as a behavioural model (every transition an elementary
guarded action, the invariant: and ranges as I) and PURPOSE as a labelled
transition system (action sets, where: state predicates on the state
entered, accept: as the final states), and prints the abstraction of the
paper on test purposes and predicate abstraction (§VI-VII): the actions
O^P the purpose names, the abstraction variables X^A = X^A_sp ∪ X^A_op
(a variable some action of O^P modifies, dropped when the others determine
it under I; --vars overrides), the partition SD^x of each, the abstract
states (cells consistent with I) and the abstract transitions, one per
elementary action, decided by Z3. The counts are those of Table I: proof
obligations, proved absent by a weak prover that ignores I, unproved
(kept by it), filtered (refuted exactly, with I). --no-filter keeps the
filtered transitions; --reachable keeps the reachable states only;
--stats prints the Table I row, with the sizes of the synchronised product
SP with the purpose, with and without filtering.

Example:
   stg abstract examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml
   stg abstract --format dot examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml | dot -Tsvg > a.svg`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "vars", Usage: "abstraction variables `x,y` (overrides the rule)"},
			&cli.BoolFlag{Name: "no-filter", Usage: "keep the transitions only the exact check refutes"},
			&cli.BoolFlag{Name: "reachable", Usage: "keep only the abstract states reachable from an initial one"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, yaml or dot"},
			&cli.BoolFlag{Name: "stats", Usage: "print the columns of Table I instead"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query to `DURATION` (an undecided query keeps the state or transition)"},
		},
		Action: runAbstract,
	}
}

func runAbstract(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(args) != 2 {
		return usageError(c, "stg abstract needs SPEC and PURPOSE")
	}
	format := c.String("format")
	if format != "text" && format != "yaml" && format != "dot" {
		return usageError(c, "unknown --format %q: want text, yaml or dot", format)
	}
	opts := predabs.Options{NoFilter: c.Bool("no-filter"), Reachable: c.Bool("reachable")}
	if v := c.String("vars"); v != "" {
		for _, x := range strings.Split(v, ",") {
			opts.Vars = append(opts.Vars, strings.TrimSpace(x))
		}
	}
	s, tp, err := loadSpecPurpose(args)
	if err != nil {
		return inputError(err)
	}
	ctx, err := solver.NewContext()
	if err != nil {
		return inputError(fmt.Errorf("stg abstract: cannot start the solver: %v", err))
	}
	defer ctx.Close()
	ctx.SetTimeout(c.Duration("solver-timeout"))
	a, err := predabs.Abstract(ctx, s, tp, opts)
	if err != nil {
		return inputError(err)
	}
	if len(a.Compatible) > 0 {
		return inputError(fmt.Errorf("%s: the purpose is not compatible with the abstraction (Prop. 1): %s", tp.File, strings.Join(a.Compatible, "; ")))
	}
	w := c.App.Writer
	switch {
	case c.Bool("stats"):
		return writeAbstractStats(ctx, w, a)
	case format == "yaml":
		return writeAbstractYAML(w, a)
	case format == "dot":
		_, err := io.WriteString(w, abstractDOT(a).String())
		return err
	}
	writeAbstractText(w, a)
	return nil
}

// loadSpecPurpose reads SPEC and PURPOSE, checking their kinds.
func loadSpecPurpose(args []string) (*spec.Model, *spec.Model, error) {
	s, err := loadModel(args[0], nil)
	if err != nil {
		return nil, nil, err
	}
	if s.Kind != spec.SpecKind {
		return nil, nil, fmt.Errorf("%s: the first file must be a spec, not a %s", args[0], s.Kind)
	}
	tp, err := loadModel(args[1], s)
	if err != nil {
		return nil, nil, err
	}
	if tp.Kind != spec.PurposeKind {
		return nil, nil, fmt.Errorf("%s: the second file must be a purpose, not a %s", args[1], tp.Kind)
	}
	return s, tp, nil
}

func set(xs []string) string { return "{" + strings.Join(xs, ", ") + "}" }

func formats(es []spec.Expr) []string {
	var out []string
	for _, e := range es {
		out = append(out, spec.Format(e))
	}
	return out
}

func writeAbstractText(w io.Writer, a *predabs.Abstraction) {
	fmt.Fprintf(w, "abstraction of %s guided by %s\n", a.Behaviour.Spec.Name, a.Purpose.Model.Name)
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
		fmt.Fprintf(w, "  %s\n", transitionLine(t))
	}
	if !a.Options.NoFilter && len(a.Filtered) > 0 {
		fmt.Fprintf(w, "filtered (refuted with I):\n")
		for _, t := range a.Filtered {
			fmt.Fprintf(w, "  %s\n", transitionLine(t))
		}
	}
}

func noteList(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, ", ") + ")"
}

func transitionLine(t *predabs.Transition) string {
	var notes []string
	if t.Unproved {
		notes = append(notes, "unproved")
	}
	if t.Filtered {
		notes = append(notes, "filtered")
	}
	return fmt.Sprintf("a%d -%s-> a%d  [%s]%s", t.From.ID, t.Action(), t.To.ID, egaName(t.EGA), noteList(notes))
}

// egaName names the spec transition behind an EGA: its name, or its
// line in the spec.
func egaName(g *predabs.EGA) string {
	if g.Transition.Name != "" {
		return g.Transition.Name
	}
	return fmt.Sprintf("line %d", g.Transition.Pos.Line)
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

func writeAbstractYAML(w io.Writer, a *predabs.Abstraction) error {
	y := yamlAbstraction{Spec: a.Behaviour.Spec.Name, Purpose: a.Purpose.Model.Name, OP: a.Actions,
		XAsp: a.SpVars, XAop: a.OpVars, Dropped: a.Dropped, Candidates: a.Stats.Candidates}
	for _, p := range a.Vars {
		yp := yamlPartition{Var: p.Var.Name, Sp: formats(p.Sp), Op: formats(p.Op)}
		for _, c := range p.Cells {
			yp.Cells = append(yp.Cells, spec.Format(c.Pred))
		}
		y.Partitions = append(y.Partitions, yp)
	}
	for _, s := range a.States {
		y.States = append(y.States, yamlState{ID: fmt.Sprintf("a%d", s.ID), Pred: spec.Format(s.Pred), Initial: s.Initial, Reachable: s.Reachable})
	}
	for _, t := range a.Transitions {
		m := map[string]string{"from": fmt.Sprintf("a%d", t.From.ID), "action": t.Action(), "ega": egaName(t.EGA), "to": fmt.Sprintf("a%d", t.To.ID)}
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

// abstractDOT draws the abstraction: one node per abstract state, one
// edge per abstract transition labelled by its action; unproved edges
// are dashed, filtered ones (with --no-filter) red.
func abstractDOT(a *predabs.Abstraction) *dot.Graph {
	g := dot.NewGraph(dot.Directed)
	g.ID(fmt.Sprintf("%q", "abstraction "+a.Behaviour.Spec.Name))
	g.Attr("label", "abstraction of "+a.Behaviour.Spec.Name+" guided by "+a.Purpose.Model.Name)
	g.Attr("labelloc", "t")
	start := g.Node("a_start").Label("").Attr("shape", "point").Attr("style", "invis")
	nodes := map[*predabs.State]dot.Node{}
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

// writeAbstractStats prints the columns of Table I: the behavioural
// model, the purpose, the abstraction generation and the product SP,
// with and without filtering.
func writeAbstractStats(ctx *solver.Context, w io.Writer, a *predabs.Abstraction) error {
	st := a.Stats
	other := a
	if !a.Options.NoFilter {
		opts := a.Options
		opts.NoFilter = true
		var err error
		if other, err = predabs.Abstract(ctx, a.Behaviour.Spec, a.Purpose.Model, opts); err != nil {
			return err
		}
	}
	sp, err := a.Product(ctx, false)
	if err != nil {
		return err
	}
	spAll, err := other.Product(ctx, false)
	if err != nil {
		return err
	}
	pct := func(n, d int) string {
		if d == 0 {
			return "0"
		}
		return fmt.Sprintf("%d (%.1f %%)", n, 100*float64(n)/float64(d))
	}
	statesM := "infinite"
	if n, err := a.Behaviour.ReachableStates(ctx, maxStatesM); err == nil {
		statesM = fmt.Sprint(n)
	} else if !errors.Is(err, predabs.ErrInfinite) {
		statesM = err.Error()
	}
	rows := [][2]string{
		{"#Act", fmt.Sprint(st.Actions)},
		{"#EGA", fmt.Sprint(st.EGAs)},
		{"enum vars (avg dom)", fmt.Sprintf("%d (%.2f)", st.EnumVars, st.AvgDomain)},
		{"num vars", fmt.Sprint(st.NumVars)},
		{"#states M (reachable)", statesM},
		{"TP states", fmt.Sprint(st.TPStates)},
		{"TP trans", fmt.Sprint(st.TPTrans)},
		{"TP act", fmt.Sprint(st.TPActions)},
		{"TP state preds", fmt.Sprint(st.TPPreds)},
		{"A candidate states", fmt.Sprint(st.Candidates)},
		{"A states", fmt.Sprint(st.States)},
		{"A reachable states", fmt.Sprint(st.Reachable)},
		{"A trans (LTS: by action)", fmt.Sprint(st.LTSTransitions)},
		{"A trans (by EGA)", fmt.Sprint(st.Transitions)},
		{"A trans without filtering", fmt.Sprintf("%d (by action), %d (by EGA)", other.Stats.LTSTransitions, len(other.Transitions))},
		{"#PO", fmt.Sprint(st.PO)},
		{"PO time", st.POTime.Round(1e5).String()},
		{"proved absent", fmt.Sprint(st.ProvedAbsent)},
		{"unproved", pct(st.Unproved, len(other.Transitions))},
		{"filtered", pct(st.Filtered, st.Unproved)},
		{"filter time", st.FilterTime.Round(1e5).String()},
		{"SP states", fmt.Sprint(len(sp.States))},
		{"SP trans", fmt.Sprint(len(sp.Transitions))},
		{"SP states without filtering", fmt.Sprint(len(spAll.States))},
		{"SP trans without filtering", fmt.Sprint(len(spAll.Transitions))},
		{"SP filtered", fmt.Sprint(len(spAll.Transitions) - len(sp.Transitions))},
	}
	for _, r := range rows {
		fmt.Fprintf(w, "%-28s %s\n", r[0]+":", r[1])
	}
	return nil
}
