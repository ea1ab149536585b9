package tool

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
)

// maxStatesM bounds the enumeration of the concrete reachable states
// that stg abstract --stats reports.
const maxStatesM = 100000

// AbstractOptions are the options of stg abstract.
type AbstractOptions struct {
	Spec, Purpose string          // the spec and the purpose (LTS) files
	Abstraction   predabs.Options // --vars, --no-filter, --reachable
	Format        string          // text (the default), yaml or dot; with Stats, text or json
	Stats         bool            // print the columns of Table I instead

	SolverTimeout time.Duration // bound of each solver query (default pipeline.DefaultQueryTimeout)
}

// EnsureDefaults sets the options left zero to their defaults.
func (o *AbstractOptions) EnsureDefaults() {
	o.Format = statsFormat(o.Format, "text", o.Stats)
	if o.SolverTimeout == 0 {
		o.SolverTimeout = pipeline.DefaultQueryTimeout
	}
}

// Validate checks the options, worded after stg abstract's flags.
func (o *AbstractOptions) Validate() error {
	return checkFormat(o.Format, o.Stats, "text", "yaml", "dot")
}

// Abstract is stg abstract: the predicate abstraction of the spec
// guided by the purpose (LTG/GeneSyst), printed, or its Table I row
// (Stats).
func Abstract(o AbstractOptions, stdout io.Writer) error {
	o.EnsureDefaults()
	if err := o.Validate(); err != nil {
		return InputError(err)
	}
	s, tp, ctx, err := openSpecPurpose("stg abstract", o.Spec, o.Purpose, o.SolverTimeout)
	if err != nil {
		return err
	}
	defer ctx.Close()
	start := time.Now()
	a, err := predabs.Abstract(ctx, s, tp, o.Abstraction)
	if err != nil {
		return InputError(err)
	}
	elapsed := time.Since(start)
	if err := compatible(tp, a); err != nil {
		return err
	}
	switch {
	case o.Stats:
		f, err := abstractFiguresOf(ctx, a, elapsed)
		if err != nil {
			return InputError(err)
		}
		if o.Format == "json" {
			return writeJSON(stdout, f)
		}
		f.writeText(stdout)
		return nil
	case o.Format == "yaml":
		return a.WriteYAML(stdout)
	case o.Format == "dot":
		_, err := io.WriteString(stdout, a.DOT().String())
		return err
	}
	a.WriteText(stdout)
	return nil
}

// compatible fails when the purpose tp is not compatible with the
// abstraction a (Prop. 1 of the paper): with chosen variables, it may
// not be.
func compatible(tp *spec.Model, a *predabs.Abstraction) error {
	if len(a.Compatible) > 0 {
		return InputError(fmt.Errorf("%s: the purpose is not compatible with the abstraction (Prop. 1): %s", tp.File, strings.Join(a.Compatible, "; ")))
	}
	return nil
}

// openSpecPurpose reads the spec and the purpose of the command cmd
// (loadSpecPurpose) and starts its solver (newSolver); the caller closes
// the solver. Its errors are InputErrors.
func openSpecPurpose(cmd, specFile, purposeFile string, timeout time.Duration) (*spec.Model, *spec.Model, *solver.Context, error) {
	s, tp, err := loadSpecPurpose(specFile, purposeFile)
	if err != nil {
		return nil, nil, nil, InputError(err)
	}
	ctx, err := newSolver(cmd, timeout)
	if err != nil {
		return nil, nil, nil, err
	}
	return s, tp, ctx, nil
}

// loadSpecPurpose reads the spec and the purpose, checking their kinds.
func loadSpecPurpose(specFile, purposeFile string) (*spec.Model, *spec.Model, error) {
	s, err := LoadModel(specFile, nil)
	if err != nil {
		return nil, nil, err
	}
	if s.Kind != spec.SpecKind {
		return nil, nil, fmt.Errorf("%s: the first file must be a spec, not a %s", specFile, s.Kind)
	}
	tp, err := LoadModel(purposeFile, s)
	if err != nil {
		return nil, nil, err
	}
	if tp.Kind != spec.PurposeKind {
		return nil, nil, fmt.Errorf("%s: the second file must be a purpose, not a %s", purposeFile, tp.Kind)
	}
	return s, tp, nil
}

// abstractFigures are the columns of Table I: the behavioural model M,
// the purpose TP, the abstraction A and the product SP, with and without
// filtering (without: an abstraction made again with NoFilter).
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
