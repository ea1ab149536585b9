package main

import (
	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/tool"
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

--annotate writes the same reach and coreach into the test case, as its
section analysis: after the transitions (docs/reference.md#testcase), for
stg view to show beside each location and transition. stg run, check, dot
and the Go harness ignore it. Without --annotate the file is as before.

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
			&cli.BoolFlag{Name: "annotate", Usage: "write reach and coreach of each location into the test case (section analysis:, shown by stg view)"},
			&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "print each stage's size and duration on stderr"},
			&cli.StringFlag{Name: "functions", Value: "tables", Usage: "calls of external functions: uninterpreted, constrained by the rows of their `tables`, or uninterpreted only"},
			&cli.StringFlag{Name: "tables", Usage: "the known tuples of the external functions: the tables file `FILE`, instead of the spec's tables"},
		},
		Action: runGenerate,
	}
}

// runGenerate is the action of stg generate.
func runGenerate(c *cli.Context) error {
	args := cmdline.Args(c)
	if len(args) < 2 {
		return usageError(c, "stg generate needs SPEC and PURPOSE")
	}
	return tool.Generate(tool.GenerateOptions{
		Spec: args[0], Purposes: args[1:], Output: cmdline.Output(c), Format: c.String("format"), Package: c.String("package"),
		Domain: c.String("domain"), Functions: c.String("functions"), Tables: c.String("tables"),
		SolverTimeout: c.Duration("solver-timeout"), Explain: c.Bool("explain"), Annotate: c.Bool("annotate"), Verbose: c.Bool("verbose"),
	}, c.App.Writer, c.App.ErrWriter)
}
