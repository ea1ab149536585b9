package tool

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/stg-tool/stg/instantiate"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// DefaultTourReflexive is stg tour's default of TourOptions.Reflexive
// (whose zero inserts no reflexive step).
const DefaultTourReflexive = 2

// TourOptions are the options of stg tour.
type TourOptions struct {
	Spec, Purpose string          // the spec and the purpose (LTS) files
	Abstraction   predabs.Options // --vars, --no-filter
	// Reflexive bounds the reflexive steps of SP' inserted before each
	// step (stg tour: DefaultTourReflexive).
	Reflexive int
	Output    string // write one test case per instance into this directory
	Format    string // of the test case files: yaml (the default) or go; with Stats, text or json
	Package   string // the package clause of Format go (default: PURPOSE_test)
	Stats     bool   // print the columns of Table II, with and without filtering

	SolverTimeout time.Duration // bound of each solver query (default pipeline.DefaultQueryTimeout)
}

// EnsureDefaults sets the options left zero to their defaults.
func (o *TourOptions) EnsureDefaults() {
	o.Format = statsFormat(o.Format, "yaml", o.Stats)
	if o.SolverTimeout == 0 {
		o.SolverTimeout = pipeline.DefaultQueryTimeout
	}
}

// Validate checks the options, worded after stg tour's flags.
func (o *TourOptions) Validate() error {
	if err := checkFormat(o.Format, o.Stats, "yaml", "go"); err != nil {
		return err
	}
	if o.Reflexive < 0 {
		return errors.New("--reflexive must be at least 0")
	}
	return nil
}

// Tour is stg tour: the covering tour of the product of the abstraction
// of the spec guided by the purpose with the purpose, its symbolic tests
// instantiated into test cases (written into o.Output), or the columns
// of Table II (Stats).
func Tour(o TourOptions, stdout io.Writer) error {
	o.EnsureDefaults()
	if err := o.Validate(); err != nil {
		return InputError(err)
	}
	s, tp, ctx, err := openSpecPurpose("stg tour", o.Spec, o.Purpose, o.SolverTimeout)
	if err != nil {
		return err
	}
	defer ctx.Close()
	opts := instantiate.Options{Reflexive: o.Reflexive, Abstraction: o.Abstraction, Testcases: o.Output != ""}
	if o.Stats {
		return writeTourStats(ctx, stdout, s, tp, opts, o.Format)
	}
	su, err := instantiate.Generate(ctx, s, tp, opts)
	if err != nil {
		return InputError(err)
	}
	if err := compatible(tp, su.Abstraction); err != nil {
		return err
	}
	writeTour(stdout, su)
	if su.Stats.Symbolic == 0 && len(su.Extra) == 0 {
		return InputError(noTour(o.Purpose, tp))
	}
	if o.Output == "" {
		return nil
	}
	pkg := o.Package
	if pkg == "" {
		pkg = goPackage(tp.Name)
	}
	return writeTourFiles(stdout, o.Output, o.Format, pkg, su)
}

// goPackage is the default package clause of --format go: the purpose's
// name as an identifier, with _test.
func goPackage(name string) string {
	b := []byte(name)
	for i, ch := range b {
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		b = append([]byte("tp_"), b...)
	}
	return string(b) + "_test"
}

// writeTour prints SP's size and every symbolic test with its instance
// or the reason it has none.
func writeTour(w io.Writer, su *instantiate.Suite) {
	st := su.Stats
	fmt.Fprintf(w, "SP: %d states, %d transitions (%d on no initial-final path); SP': %d transitions\n",
		st.SPStates, st.SPTransitions, st.Uncoverable, len(su.SPPrime.Transitions))
	fmt.Fprintf(w, "covering tour: %d symbolic tests, total length %d\n", st.Symbolic, su.Tour.Length())
	for i, path := range su.Symbolic {
		var acts []string
		for _, t := range path {
			acts = append(acts, t.Action)
		}
		fmt.Fprintf(w, "t%d  %s\n", i+1, strings.Join(acts, " "))
		if inst := su.Instances[i]; inst != nil {
			fmt.Fprintf(w, "    instance: %s\n", instanceString(inst))
		} else {
			fmt.Fprintf(w, "    %v\n", su.Reasons[i])
		}
	}
	fmt.Fprintf(w, "instantiated: %s\n", ratio(st.Instantiated, st.Symbolic))
	io.WriteString(w, su.Report()) // the tests the completion added, and SP's coverage
}

// instanceString prints the steps of an instance: inputs with ?,
// outputs with !, inserted reflexive steps in brackets.
func instanceString(inst *instantiate.Instance) string {
	var parts []string
	for _, st := range inst.Steps {
		mark := "!"
		if st.Input {
			mark = "?"
		}
		var args []string
		for _, name := range slices.Sorted(maps.Keys(st.Args)) {
			args = append(args, name+"="+st.Args[name].String())
		}
		s := st.Transition.Action + mark
		if len(args) > 0 {
			s += "(" + strings.Join(args, ", ") + ")"
		}
		if st.Reflexive {
			s = "[" + s + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// writeTourFiles writes the test case of every instance into dir.
func writeTourFiles(w io.Writer, dir, format, pkg string, su *instantiate.Suite) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return InputError(err)
	}
	for _, tc := range su.Testcases {
		if tc == nil {
			continue
		}
		data, err := pipeline.Encode(tc, format, pkg)
		if err != nil {
			return InputError(err)
		}
		name := tc.Name + ".yaml"
		if format == "go" {
			name = strings.ReplaceAll(tc.Name, "-", "_") + "_test.go"
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return InputError(err)
		}
		fmt.Fprintf(w, "wrote %s\n", path)
	}
	return nil
}

// tourFigures are the columns of Table II for one variant of the
// abstraction, and the spec transitions its instances take.
type tourFigures struct {
	States          int      `json:"states"`      // of SP
	Transitions     int      `json:"transitions"` // of SP
	Uncoverable     int      `json:"uncoverable_transitions"`
	Symbolic        int      `json:"symbolic_tests"`
	SymbolicLen     float64  `json:"symbolic_avg_length"`
	Filtered        int      `json:"filtered"`
	Instantiated    int      `json:"instantiated"`
	InstantiatedLen float64  `json:"instantiated_avg_length"`
	Inserted        int      `json:"inserted"`
	Coverage        Coverage `json:"coverage"`
	TimeMS          float64  `json:"time_ms"` // of the tour and the instantiation

	WithoutFiltering *tourFigures `json:"without_filtering,omitempty"`
	time             time.Duration
}

func tourFiguresOf(su *instantiate.Suite) *tourFigures {
	st := su.Stats
	return &tourFigures{States: st.SPStates, Transitions: st.SPTransitions, Uncoverable: st.Uncoverable,
		Symbolic: st.Symbolic, SymbolicLen: st.SymbolicLen, Filtered: st.Filtered, Instantiated: st.Instantiated,
		InstantiatedLen: st.InstantiatedLen, Inserted: st.Inserted, Coverage: tourCoverage(su), TimeMS: timeMS(st.Time), time: st.Time}
}

// tourCoverage counts the spec transitions (EGAs) that the instances
// take, reflexive steps included.
func tourCoverage(su *instantiate.Suite) Coverage {
	taken := map[*spec.Transition]bool{}
	for _, inst := range su.Instances {
		if inst == nil {
			continue
		}
		for _, st := range inst.Steps {
			taken[st.Transition] = true
		}
	}
	var unc []string
	egas := su.Abstraction.Behaviour.EGAs
	for _, g := range egas {
		if !taken[g.Transition] {
			unc = append(unc, g.Name())
		}
	}
	return coverageOf(symex.Coverage{Covered: len(egas) - len(unc), Total: len(egas), Uncovered: unc})
}

// writeTourStats prints the columns of Table II for the abstraction
// without filtering and with, in format text or json.
func writeTourStats(ctx *solver.Context, w io.Writer, s, tp *spec.Model, opts instantiate.Options, format string) error {
	var figs []*tourFigures
	for _, noFilter := range []bool{true, false} {
		o := opts
		o.Testcases = false
		o.Abstraction.NoFilter = noFilter
		su, err := instantiate.Generate(ctx, s, tp, o)
		if err != nil {
			return InputError(err)
		}
		if err := compatible(tp, su.Abstraction); err != nil {
			return err
		}
		figs = append(figs, tourFiguresOf(su))
	}
	if format == "json" {
		figs[1].WithoutFiltering = figs[0]
		return writeJSON(w, figs[1])
	}
	fmt.Fprintf(w, "%-16s %9s %8s %9s %13s %8s %7s %9s %9s\n", "variant", "#symbolic", "avg len", "#filtered", "#instantiated", "avg len", "ratio", "inserted", "time")
	for i, f := range figs {
		name, filtered := "without", "-"
		if i == 1 {
			name, filtered = "with filtering", fmt.Sprint(f.Filtered)
		}
		fmt.Fprintf(w, "%-16s %9d %8.2f %9s %13d %8.2f %7s %9d %9s\n", name, f.Symbolic, f.SymbolicLen, filtered,
			f.Instantiated, f.InstantiatedLen, percent(f.Instantiated, f.Symbolic), f.Inserted, f.time.Round(1e6))
	}
	return nil
}

// noTour explains an empty tour: no path of SP reaches a final state,
// most often because the purpose, read as a labelled transition system,
// lists too few actions.
func noTour(path string, tp *spec.Model) error {
	return fmt.Errorf("%s: no path of SP from the initial state reaches a final state of %s, so there is no test to write; "+
		"stg tour reads a purpose as a labelled transition system: a location allows only the actions its transitions list "+
		"(stg generate completes them with self-loops, stg tour does not); to wait in %s for an action A, add "+
		"{from: %s, action: {except: [A]}, to: %s} (docs/model-language.md, section 5)", path, tp.Name, tp.Initial.Location, tp.Initial.Location, tp.Initial.Location)
}
