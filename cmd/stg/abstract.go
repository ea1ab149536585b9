package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/emicklei/dot"
	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

// maxStatesM bounds the enumeration of the concrete reachable states
// that --stats reports.
const maxStatesM = 100000

func abstractCommand() *cli.Command {
	return &cli.Command{
		Name:      "abstract",
		Usage:     "predicate abstraction of a spec guided by a test purpose (LTG/GeneSyst)",
		ArgsUsage: "SPEC PURPOSE",
		UsageText: "stg abstract SPEC PURPOSE [--vars X,Y] [--no-filter] [--reachable] [--format text|yaml|dot] [--stats [--format json]] [--solver-timeout DURATION]",
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
SP with the purpose, with and without filtering; --stats --format json
prints them as JSON, with the key names of stg symex --stats (states,
transitions, time_ms).

Example:
   stg abstract examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml
   stg abstract --format dot examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml | dot -Tsvg > a.svg`,
		Flags: []cli.Flag{
			varsFlag(),
			&cli.BoolFlag{Name: "no-filter", Usage: "keep the transitions only the exact check refutes"},
			&cli.BoolFlag{Name: "reachable", Usage: "keep only the abstract states reachable from an initial one"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT`: text, yaml or dot; with --stats, text or json"},
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
	if err := checkFormat(c, format, []string{"text", "yaml", "dot"}); err != nil {
		return err
	}
	opts := predabs.Options{NoFilter: c.Bool("no-filter"), Reachable: c.Bool("reachable"), Vars: varsOf(c)}
	s, tp, err := loadSpecPurpose(args)
	if err != nil {
		return tool.InputError(err)
	}
	ctx, err := solver.NewContext()
	if err != nil {
		return tool.InputError(fmt.Errorf("stg abstract: cannot start the solver: %v", err))
	}
	defer ctx.Close()
	ctx.SetTimeout(c.Duration("solver-timeout"))
	start := time.Now()
	a, err := predabs.Abstract(ctx, s, tp, opts)
	if err != nil {
		return tool.InputError(err)
	}
	elapsed := time.Since(start)
	if err := compatible(tp, a); err != nil {
		return err
	}
	w := c.App.Writer
	switch {
	case c.Bool("stats"):
		f, err := abstractFiguresOf(ctx, a, elapsed)
		if err != nil {
			return tool.InputError(err)
		}
		if format == "json" {
			return writeStatsJSON(w, f)
		}
		f.writeText(w)
		return nil
	case format == "yaml":
		return writeAbstractYAML(w, a)
	case format == "dot":
		_, err := io.WriteString(w, abstractDOT(a).String())
		return err
	}
	writeAbstractText(w, a)
	return nil
}

// compatible fails when the purpose tp is not compatible with the
// abstraction a (Prop. 1 of the paper): with --vars, it may not be.
func compatible(tp *spec.Model, a *predabs.Abstraction) error {
	if len(a.Compatible) > 0 {
		return tool.InputError(fmt.Errorf("%s: the purpose is not compatible with the abstraction (Prop. 1): %s", tp.File, strings.Join(a.Compatible, "; ")))
	}
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

// abstractFigures are the columns of Table I: the behavioural model M,
// the purpose TP, the abstraction A and the product SP, with and without
// filtering (without: an abstraction made again with --no-filter).
type abstractFigures struct {
	Actions          int                  `json:"actions"` // #Act of M
	EGAs             int                  `json:"egas"`
	EnumVars         int                  `json:"enum_vars"`
	AvgDomain        float64              `json:"avg_domain"`
	NumVars          int                  `json:"num_vars"`
	ConcreteStates   *int                 `json:"concrete_states"` // of M, reachable; null: infinite (or not known)
	Purpose          abstractPurposeStats `json:"purpose"`
	Candidates       int                  `json:"candidate_states"`
	States           int                  `json:"states"`
	Reachable        int                  `json:"reachable_states"`
	LTSTransitions   int                  `json:"lts_transitions"` // by action
	Transitions      int                  `json:"transitions"`     // by EGA
	PO               int                  `json:"proof_obligations"`
	ProvedAbsent     int                  `json:"proved_absent"`
	Unproved         int                  `json:"unproved"`
	Filtered         int                  `json:"filtered"`
	POTimeMS         float64              `json:"po_time_ms"`
	FilterTimeMS     float64              `json:"filter_time_ms"`
	SP               productStats         `json:"sp"`
	WithoutFiltering abstractVariant      `json:"without_filtering"`
	TimeMS           float64              `json:"time_ms"` // of the abstraction asked for

	concreteStates     string // ConcreteStates, or why not
	poTime, filterTime time.Duration
	unprovedOf         int // the transitions without filtering, over which unproved counts
}

type abstractPurposeStats struct {
	States          int `json:"states"`
	Transitions     int `json:"transitions"`
	Actions         int `json:"actions"`
	StatePredicates int `json:"state_predicates"`
}

// productStats is the size of a product SP.
type productStats struct {
	States      int `json:"states"`
	Transitions int `json:"transitions"`
}

type abstractVariant struct {
	LTSTransitions int          `json:"lts_transitions"`
	Transitions    int          `json:"transitions"`
	SP             productStats `json:"sp"`
}

func abstractFiguresOf(ctx *solver.Context, a *predabs.Abstraction, elapsed time.Duration) (*abstractFigures, error) {
	st := a.Stats
	other := a
	if !a.Options.NoFilter {
		opts := a.Options
		opts.NoFilter = true
		var err error
		if other, err = predabs.Abstract(ctx, a.Behaviour.Spec, a.Purpose.Model, opts); err != nil {
			return nil, err
		}
	}
	sp, err := a.Product(ctx, false)
	if err != nil {
		return nil, err
	}
	spAll, err := other.Product(ctx, false)
	if err != nil {
		return nil, err
	}
	statesM, n := "infinite", (*int)(nil)
	if m, err := a.Behaviour.ReachableStates(ctx, maxStatesM); err == nil {
		statesM, n = fmt.Sprint(m), &m
	} else if !errors.Is(err, predabs.ErrInfinite) {
		statesM = err.Error()
	}
	return &abstractFigures{Actions: st.Actions, EGAs: st.EGAs, EnumVars: st.EnumVars, AvgDomain: st.AvgDomain, NumVars: st.NumVars,
		ConcreteStates: n, concreteStates: statesM,
		Purpose:    abstractPurposeStats{States: st.TPStates, Transitions: st.TPTrans, Actions: st.TPActions, StatePredicates: st.TPPreds},
		Candidates: st.Candidates, States: st.States, Reachable: st.Reachable, LTSTransitions: st.LTSTransitions, Transitions: st.Transitions,
		PO: st.PO, ProvedAbsent: st.ProvedAbsent, Unproved: st.Unproved, Filtered: st.Filtered,
		POTimeMS: timeMS(st.POTime), FilterTimeMS: timeMS(st.FilterTime),
		SP: productStats{len(sp.States), len(sp.Transitions)},
		WithoutFiltering: abstractVariant{LTSTransitions: other.Stats.LTSTransitions, Transitions: len(other.Transitions),
			SP: productStats{len(spAll.States), len(spAll.Transitions)}},
		TimeMS: timeMS(elapsed), poTime: st.POTime, filterTime: st.FilterTime, unprovedOf: len(other.Transitions)}, nil
}

// writeText prints the figures as the rows of Table I.
func (f *abstractFigures) writeText(w io.Writer) {
	pct := func(n, d int) string {
		if d == 0 {
			return "0"
		}
		return fmt.Sprintf("%d (%s)", n, percent(n, d))
	}
	wo := f.WithoutFiltering
	rows := [][2]string{
		{"#Act", fmt.Sprint(f.Actions)},
		{"#EGA", fmt.Sprint(f.EGAs)},
		{"enum vars (avg dom)", fmt.Sprintf("%d (%.2f)", f.EnumVars, f.AvgDomain)},
		{"num vars", fmt.Sprint(f.NumVars)},
		{"#states M (reachable)", f.concreteStates},
		{"TP states", fmt.Sprint(f.Purpose.States)},
		{"TP trans", fmt.Sprint(f.Purpose.Transitions)},
		{"TP act", fmt.Sprint(f.Purpose.Actions)},
		{"TP state preds", fmt.Sprint(f.Purpose.StatePredicates)},
		{"A candidate states", fmt.Sprint(f.Candidates)},
		{"A states", fmt.Sprint(f.States)},
		{"A reachable states", fmt.Sprint(f.Reachable)},
		{"A trans (LTS: by action)", fmt.Sprint(f.LTSTransitions)},
		{"A trans (by EGA)", fmt.Sprint(f.Transitions)},
		{"A trans without filtering", fmt.Sprintf("%d (by action), %d (by EGA)", wo.LTSTransitions, wo.Transitions)},
		{"#PO", fmt.Sprint(f.PO)},
		{"PO time", f.poTime.Round(1e5).String()},
		{"proved absent", fmt.Sprint(f.ProvedAbsent)},
		{"unproved", pct(f.Unproved, f.unprovedOf)},
		{"filtered", pct(f.Filtered, f.Unproved)},
		{"filter time", f.filterTime.Round(1e5).String()},
		{"SP states", fmt.Sprint(f.SP.States)},
		{"SP trans", fmt.Sprint(f.SP.Transitions)},
		{"SP states without filtering", fmt.Sprint(wo.SP.States)},
		{"SP trans without filtering", fmt.Sprint(wo.SP.Transitions)},
		{"SP filtered", fmt.Sprint(wo.SP.Transitions - f.SP.Transitions)},
	}
	for _, r := range rows {
		fmt.Fprintf(w, "%-28s %s\n", r[0]+":", r[1])
	}
}
