package main

import (
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/tool"
)

// Bounds of the search for a run to Pass that generate makes with
// --domain none or interval: runs of at most passDepth steps (the
// property tests' bound; every example passes within it), at most
// passBudget solver queries.
const (
	passDepth  = 12
	passBudget = 2000
)

func generateCommand() *cli.Command {
	return &cli.Command{
		Name:      "generate",
		Usage:     "select a test case from a spec and a test purpose",
		ArgsUsage: "SPEC PURPOSE [PURPOSE...]",
		Description: `Builds the test case of the STG method: suspension and canonical tester of
SPEC, product with PURPOSE, approximate co-reachability of Accept, Keep/Inconc
selection, mirroring. The test case is written as YAML (read by stg run and
stg dot), Graphviz DOT, or a Go _test.go file. -o never overwrites SPEC or
PURPOSE.

A Go file's package is --package, else the one that compiles beside the Go
files of -o's directory (P_test beside package P; stgtests in a directory
without Go files, and on stdout): never the purpose's, so that the files of
several purposes share a directory. Several purposes give one test case
each: with --format go one file, a table-driven test named after the spec;
with yaml or dot, -o DIR writes DIR/NAME.tc.yaml or DIR/NAME.dot each.

--explain prints, per product location (spec location, purpose location),
reach: the values of the variables with which the location may be entered
from the initial condition, and coreach: those from which Accept may still
be reached. Both over-approximate (a location never reached has reach
false); with interval or polyhedra each is computed within the other (one
round of slicing: coreach implies reach), with none they are true or
false. Selection keeps a transition where it can lead into coreach.

With --domain none or interval the analysis may keep paths that can never
reach Pass; generate then searches the test case for a feasible run to Pass
of at most 12 steps and warns on stderr when it finds none.

Calls of external functions are uninterpreted functions: a guard
INTGR(v) > 200 may hold for any v, which keeps every behaviour of the real
function. With --functions tables (the default) the rows of the functions'
tables (the spec's table: and tables: file, or --tables FILE, which
replaces them) are moreover facts of every solver question, INTGR(123, 96)
== 228: where a guard's arguments are fixed to a row's inputs (by the
guard itself, by the purpose or by earlier steps), the row decides it:
transitions it rules out are not selected (a purpose that needs them is
unreachable), and the test case's guards read as decided. Elsewhere the
call stays free, so the test case is sound for every function consistent
with the tables. The reference implementations are never run by
generate. --functions uninterpreted ignores the tables (the baseline of
the function-summaries paper). The test case carries the rows: stg run
answers calls from them first, and stg check and stg run check the test
case under them.

Example:
   stg generate examples/cmp/spec.yaml examples/cmp/purpose.yaml -o cmp.tc.yaml
   stg generate --format dot examples/cmp/spec.yaml examples/cmp/purpose.yaml | dot -Tsvg > tc.svg
   stg generate --format go -o cmp_stg_test.go examples/cmp/spec.yaml examples/cmp/purpose.yaml
   stg generate --format go -o buffer_stg_test.go examples/buffer/spec.yaml examples/buffer/purpose*.yaml
   stg generate --tables examples/microgrid/tables-3.yaml examples/microgrid/spec.yaml examples/microgrid/testdata/purpose-300.yaml`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "o", Aliases: []string{"output"}, Usage: "write to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "format", Value: "yaml", Usage: "yaml, dot or go"},
			&cli.StringFlag{Name: "domain", Value: "polyhedra", Usage: "abstract domain of the co-reachability analysis: none, interval or polyhedra"},
			&cli.StringFlag{Name: "package", Value: "", Usage: "package clause of --format go (default: P_test beside package P in -o's directory, else stgtests)"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query to `DURATION`"},
			&cli.BoolFlag{Name: "explain", Usage: "print, per product location, reach (values with which it may be entered) and coreach (values from which Accept may be reached; within reach) on stderr"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print each stage's size and duration on stderr"},
			&cli.StringFlag{Name: "functions", Value: "tables", Usage: "calls of external functions: uninterpreted, constrained by the rows of their `tables`, or uninterpreted only"},
			&cli.StringFlag{Name: "tables", Usage: "the known tuples of the external functions: the tables file `FILE`, instead of the spec's tables"},
		},
		Action: runGenerate,
	}
}

// runGenerate is the action of stg generate.
func runGenerate(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(args) < 2 {
		return usageError(c, "stg generate needs SPEC and PURPOSE")
	}
	if err := swappedSpecPurpose("generate", args[0], args[1]); err != nil { // suggest.go
		return tool.InputError(err)
	}
	opts := pipeline.Options{Domain: c.String("domain"), Warn: c.App.ErrWriter, QueryTimeout: c.Duration("solver-timeout")}
	switch opts.Domain {
	case "none", "interval", "polyhedra":
	default:
		return usageError(c, "unknown --domain %q: want none, interval or polyhedra", opts.Domain)
	}
	if opts.QueryTimeout <= 0 {
		return usageError(c, "--solver-timeout must be positive")
	}
	if opts.Functions, err = pipeline.ParseFunctions(c.String("functions")); err != nil {
		return usageError(c, "--functions must be tables or uninterpreted, not %q", c.String("functions"))
	}
	opts.Tables = c.String("tables")
	if opts.Tables != "" && opts.Functions == pipeline.Uninterpreted {
		return usageError(c, "--tables needs --functions tables")
	}
	if c.Bool("verbose") {
		opts.Progress = c.App.ErrWriter
	}
	if c.Bool("explain") {
		opts.Explain = c.App.ErrWriter
	}
	format := c.String("format")
	switch format {
	case "yaml", "dot", "go":
	default:
		return usageError(c, "unknown --format %q: want yaml, dot or go", format)
	}
	if len(args) > 2 {
		return generateSeveral(c, args, opts, format) // gotests.go
	}
	if err := notAnInput(c.String("o"), args); err != nil {
		return tool.InputError(err)
	}
	res, err := generateFiles(args[0], args[1], opts) // compose.go: SPEC may be a system
	if err != nil {
		return tool.InputError(err)
	}
	if opts.Domain != "polyhedra" {
		if err := warnPassReachable(res.Testcase, opts.QueryTimeout, c.App.ErrWriter); err != nil {
			return tool.InputError(err)
		}
	}
	if err := anchorImpls(res.Testcase, outputDir(c.String("o"))); err != nil { // funcs.go: impl: commands keep their directory
		return tool.InputError(err)
	}
	out, err := encodeTestcase(c, res.Testcase, format) // gotests.go: package and -o rules of --format go
	if err != nil {
		return tool.InputError(err)
	}
	return tool.WriteOutput(c.App.Writer, c.String("o"), out)
}

// warnPassReachable warns on w when no feasible run of at most passDepth
// steps of tc is known to reach Pass.
func warnPassReachable(tc *spec.Model, timeout time.Duration, w io.Writer) error {
	ctx, err := solver.NewContext()
	if err != nil {
		return fmt.Errorf("cannot start the solver: %v", err)
	}
	defer ctx.Close()
	ctx.SetTimeout(timeout)
	if err := assumeTables(ctx, tc); err != nil {
		return fmt.Errorf("test case %s: %v", tc.Name, err)
	}
	r, err := check.PassReachable(ctx, tc, passDepth, passBudget)
	if err != nil {
		return fmt.Errorf("test case %s: searching a run to Pass: %v", tc.Name, err)
	}
	switch r {
	case solver.Unsat:
		fmt.Fprintln(w, pipeline.Warning(fmt.Sprintf("test case %s: no run of at most %d steps reaches Pass; the analysis of this domain may have kept paths that cannot (try --domain polyhedra)", tc.Name, passDepth)))
	case solver.Unknown:
		fmt.Fprintln(w, pipeline.Warning(fmt.Sprintf("test case %s: not known whether a run of at most %d steps reaches Pass (the search was undecided or ran past %d solver queries)", tc.Name, passDepth, passBudget)))
	}
	return nil
}

// assumeTables makes the rows of the tables of tc's functions facts of
// ctx: they hold of the functions as stg run evaluates them.
func assumeTables(ctx *solver.Context, tc *spec.Model) error {
	reg, err := extfunc.New(tc.Funcs, extfunc.Options{})
	if err != nil {
		return err
	}
	defer reg.Close()
	return ctx.SetFacts(reg.TableFacts())
}

// notAnInput refuses an -o of stg generate that names one of its inputs.
func notAnInput(out string, inputs []string) error {
	return tool.RefuseOverwrite("stg generate: -o", out, inputs...)
}
