package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/instantiate"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/predabs"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

func tourCommand() *cli.Command {
	return &cli.Command{
		Name:      "tour",
		Usage:     "covering tour of the product of an abstraction with a purpose, instantiated into test cases (LTG/GeneSyst)",
		ArgsUsage: "SPEC PURPOSE",
		UsageText: "stg tour SPEC PURPOSE [-o DIR] [--vars X,Y] [--reflexive K] [--no-filter] [--format yaml|go] [--package PACKAGE] [--stats [--format json]] [--solver-timeout DURATION]",
		Description: `Tour builds the abstraction of SPEC guided by PURPOSE (as stg abstract does),
its synchronised product SP with the purpose, and a covering tour of SP: a
set of paths from the initial state to final states that traverses every
transition of SP lying on such a path, of minimal total length (directed
Chinese postman by min-cost flow). Each path is a symbolic test: a
sequence of actions with the abstract state expected after each. Each is
then animated on SPEC with Z3: values for the parameters such that every
step is enabled and every state lies in its abstract state, with up to K
reflexive steps of SP' (--reflexive) inserted before each step where the
action is not enabled, and inputs sent only where SPEC predicts
quiescence. An instance becomes a linear test case (stg generate on a
purpose that follows it): sends with the chosen values, receives with
the outputs SPEC predicts, Fail on an unspecified output, Inconc on an
allowed one off the path, Pass at the end.

Without -o, tour prints the symbolic tests and their instances; with
-o DIR it also writes one test case per instance into DIR, named
PURPOSE-tI.yaml (or PURPOSE-tI_test.go with --format go, all in the
package --package). --vars chooses the abstraction variables, as for stg
abstract. --stats prints the columns of Table II instead, with and without
filtering; --stats --format json prints them as JSON, with the key names
of stg symex --stats: states and transitions (of SP), coverage (the spec
transitions the instances take: covered, total, percent) and time_ms.

Example:
   stg tour examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml --stats
   stg tour examples/quidonc/spec.yaml examples/quidonc/purpose-fig4.yaml -o tests/
   stg run tests/quidonc-fig4-t1.yaml -- ./quidonc-sut`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "o", Aliases: []string{"output"}, Usage: "write one test case per instantiated test into `DIR`"},
			varsFlag(),
			&cli.IntFlag{Name: "reflexive", Value: 2, Usage: "insert at most `K` reflexive steps before each step"},
			&cli.BoolFlag{Name: "no-filter", Usage: "abstraction without filtering (keep the transitions only the exact check refutes)"},
			&cli.StringFlag{Name: "format", Value: "yaml", Usage: "`FORMAT` of the test case files: yaml or go; with --stats, text or json"},
			&cli.StringFlag{Name: "package", Usage: "`PACKAGE` clause of --format go (default: PURPOSE_test)"},
			&cli.BoolFlag{Name: "stats", Usage: "print the columns of Table II, with and without filtering"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query to `DURATION`"},
		},
		Action: runTour,
	}
}

func runTour(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(args) != 2 {
		return usageError(c, "stg tour needs SPEC and PURPOSE")
	}
	format := c.String("format")
	if c.Bool("stats") && format == "yaml" {
		format = "text" // the default
	}
	if err := checkFormat(c, format, []string{"yaml", "go"}); err != nil {
		return err
	}
	k := c.Int("reflexive")
	if k < 0 {
		return usageError(c, "--reflexive must be at least 0")
	}
	s, tp, err := loadSpecPurpose(args)
	if err != nil {
		return tool.InputError(err)
	}
	ctx, err := solver.NewContext()
	if err != nil {
		return tool.InputError(fmt.Errorf("stg tour: cannot start the solver: %v", err))
	}
	defer ctx.Close()
	ctx.SetTimeout(c.Duration("solver-timeout"))
	opts := instantiate.Options{Reflexive: k, Abstraction: predabs.Options{NoFilter: c.Bool("no-filter"), Vars: varsOf(c)}, Testcases: c.String("o") != ""}
	if c.Bool("stats") {
		return writeTourStats(ctx, c.App.Writer, s, tp, opts, format)
	}
	su, err := instantiate.Generate(ctx, s, tp, opts)
	if err != nil {
		return tool.InputError(err)
	}
	if err := compatible(tp, su.Abstraction); err != nil {
		return err
	}
	writeTour(c.App.Writer, su)
	if dir := c.String("o"); dir != "" {
		pkg := c.String("package")
		if pkg == "" {
			pkg = goPackage(tp.Name)
		}
		return writeTourFiles(c.App.Writer, dir, format, pkg, su)
	}
	return nil
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
		for _, name := range paramNames(st) {
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

func paramNames(st instantiate.Step) []string {
	var names []string
	for name := range st.Args {
		names = append(names, name)
	}
	// few parameters: a simple insertion sort keeps the output stable
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && names[j] < names[j-1]; j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
	return names
}

// writeTourFiles writes the test case of every instance into dir.
func writeTourFiles(w io.Writer, dir, format, pkg string, su *instantiate.Suite) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return tool.InputError(err)
	}
	for _, tc := range su.Testcases {
		if tc == nil {
			continue
		}
		data, err := pipeline.Encode(tc, format, pkg)
		if err != nil {
			return tool.InputError(err)
		}
		name := tc.Name + ".yaml"
		if format == "go" {
			name = strings.ReplaceAll(tc.Name, "-", "_") + "_test.go"
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return tool.InputError(err)
		}
		fmt.Fprintf(w, "wrote %s\n", path)
	}
	return nil
}

// tourFigures are the columns of Table II for one variant of the
// abstraction, and the spec transitions its instances take.
type tourFigures struct {
	States          int           `json:"states"`      // of SP
	Transitions     int           `json:"transitions"` // of SP
	Uncoverable     int           `json:"uncoverable_transitions"`
	Symbolic        int           `json:"symbolic_tests"`
	SymbolicLen     float64       `json:"symbolic_avg_length"`
	Filtered        int           `json:"filtered"`
	Instantiated    int           `json:"instantiated"`
	InstantiatedLen float64       `json:"instantiated_avg_length"`
	Inserted        int           `json:"inserted"`
	Coverage        statsCoverage `json:"coverage"`
	TimeMS          float64       `json:"time_ms"` // of the tour and the instantiation

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
func tourCoverage(su *instantiate.Suite) statsCoverage {
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
			unc = append(unc, egaName(g))
		}
	}
	return newStatsCoverage(len(egas)-len(unc), len(egas), unc)
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
			return tool.InputError(err)
		}
		if err := compatible(tp, su.Abstraction); err != nil {
			return err
		}
		figs = append(figs, tourFiguresOf(su))
	}
	if format == "json" {
		figs[1].WithoutFiltering = figs[0]
		return writeStatsJSON(w, figs[1])
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
