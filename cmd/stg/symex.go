package main

import (
	"cmp"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/internal/cmdline"
	"github.com/stg-tool/stg/tool"
)

func symexCommand() *cli.Command {
	return &cli.Command{
		Name:      "symex",
		Usage:     "unfold the symbolic execution tree of a spec",
		ArgsUsage: "SPEC",
		UsageText: "stg symex SPEC [--depth|--height N | --inclusion] [--max-nodes K] [--delta sink|loop|none] [--functions summaries|uninterpreted] [--add-tables T] [--m M] [--no-dep] [--order bfs|dfs] [--tables-out OUT] [--format text|yaml|dot|json] [--stats] [--tau-reduce] [-o OUT]",
		Description: `Symex executes the spec symbolically (AGATHA, Defs. 8-11): every node is a
location, the variables as expressions over symbols (x@0 for an initial
value the spec leaves open, v@1, v@2, ... for the values received or
emitted) and a path condition over the symbols. A node is named by its
path of transition names from the root ("delta" for quiescence; unnamed
transitions get "from-action-to"). Children whose path condition is
unsatisfiable are pruned; a child the solver cannot decide is kept and
marked. Quiescence leads to a sink (--delta loop: a self-loop; --delta
none leaves it out, as the function-summaries paper does). Internal
transitions are edges of the tree like the others.

--depth N (or --height N) unfolds paths of at most N steps (default 4
without --inclusion); --inclusion cuts every node included in a node
created before it at the same location (Def. 11), which may still not
terminate: --max-nodes bounds the tree and the bound is reported.

Calls of external functions (function-summaries paper, DIVERSITY): with
--functions summaries (the default) every call is a fresh variable and a
call record, and a node is kept iff SolveTab finds a solution with the
functions' tables (Algorithm 1). The tables are the spec's, extended by
--add-tables T (a tables file); --m M lets SolveTab execute the reference
implementations (impl: commands, run in the spec's directory, each call
bounded by --call-timeout) up to M times per node to learn new rows
(--m 0: purely static). The tables grow across the whole tree, so the
order of expansion (--order bfs|dfs) matters; --no-dep drops Dep from
the search for new inputs (the paper's ablation); --per-call first
searches new inputs for one call at a time, the latest first, the other
calls within their tables (a query stronger than Algorithm 1's, which
implies Dep); --tables-out writes the enriched tables.
--functions uninterpreted lets calls return anything (the baseline).
--stats prints the paper's Table 2 row (m, height, rows per function,
states, transition coverage, time) and the transitions never covered;
the columns of the functions (m, rows) only for a spec that calls some.

Example:
   stg symex examples/atm-paper/spec.yaml --inclusion --stats
   stg symex examples/atm-paper/spec.yaml --depth 3 --format dot -o tree.dot
   stg symex examples/microgrid/spec.yaml --height 15 --delta none --m 1 --stats`,
		Flags: append(treeFlags(tool.DefaultSymexMaxNodes,
			&cli.StringFlag{Name: "delta", Value: "sink", Usage: "quiescence leads to a `sink`, loops, or none (left out)"},
			&cli.StringFlag{Name: "functions", Value: "summaries", Usage: "calls of external functions: `summaries` or uninterpreted (with --inclusion, uninterpreted unless given)"}),
			&cli.IntFlag{Name: "depth", Aliases: []string{"height"}, Usage: "unfold paths of at most `N` steps"},
			&cli.BoolFlag{Name: "inclusion", Usage: "restrict the tree by inclusion (Def. 11)"},
			&cli.StringFlag{Name: "tables-out", Usage: "write the enriched tables to `FILE`"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT`: text, yaml, dot or json"},
			&cli.BoolFlag{Name: "stats", Usage: "print the figures of the tree only"},
			&cli.BoolFlag{Name: "tau-reduce", Usage: "with --format text: print the τ-reduced tree (Def 13 of the component-systems paper), each internal chain hidden in the visible step it leads to"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout"},
		),
		Action: runSymex,
	}
}

func runSymex(c *cli.Context) error {
	args, err := nArgs(c, 1, "stg symex needs one SPEC")
	if err != nil {
		return err
	}
	o := tool.SymexOptions{Spec: args[0], Depth: c.Int("depth"), Inclusion: c.Bool("inclusion"), Tree: treeOptions(c),
		TablesOut: c.String("tables-out"), Format: c.String("format"), Stats: c.Bool("stats"), TauReduce: c.Bool("tau-reduce"), Output: cmdline.Output(c)}
	if err := checkTreeOptions(c, &o); err != nil {
		return err
	}
	return tool.Symex(o, c.App.Writer, c.App.ErrWriter)
}

// treeFlags are the flags of the symbolic execution tree that stg symex
// and stg purposes share (tool.TreeOptions), after the command's own
// --delta and --functions (own, for their help), for a tree of at most
// maxNodes nodes by default.
func treeFlags(maxNodes int, delta, functions cli.Flag) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "max-nodes", Value: maxNodes, Usage: "stop after `K` nodes"}, delta, functions,
		&cli.StringFlag{Name: "add-tables", Usage: "add the rows of the tables file `T` to the spec's"},
		&cli.StringFlag{Name: "tables", Usage: "deprecated here, as --add-tables `T` (--tables of run, verdict and generate replaces the tables)"},
		&cli.IntFlag{Name: "m", Usage: "let SolveTab execute the implementations up to `M` times per node"},
		&cli.BoolFlag{Name: "no-dep", Usage: "leave Dep out of SolveTab's search for new inputs"},
		&cli.BoolFlag{Name: "per-call", Usage: "let SolveTab first search new inputs for one call at a time, the others within their tables"},
		&cli.StringFlag{Name: "order", Value: "bfs", Usage: "expand the tree in `ORDER`: bfs or dfs"},
		&cli.DurationFlag{Name: "call-timeout", Value: extfunc.DefaultTimeout, Usage: "bound each call of an implementation by `DURATION`"},
		&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query by `DURATION`"},
	}
}

// given returns the value of the flag name when it is on the command
// line, "" otherwise (the command's default then depends on the other
// options).
func given(c *cli.Context, name string) string {
	if !c.IsSet(name) {
		return ""
	}
	return c.String(name)
}

// treeOptions reads the flags of treeFlags; --tables, which adds rows
// here, is said to be deprecated.
func treeOptions(c *cli.Context) tool.TreeOptions {
	if c.String("tables") != "" {
		fmt.Fprintf(c.App.ErrWriter, "%s: --tables is deprecated here: use --add-tables, which adds the rows of the file to the spec's (--tables of stg run, verdict and generate replaces them)\n", cmdline.CommandPath(c))
	}
	return tool.TreeOptions{MaxNodes: c.Int("max-nodes"), Delta: c.String("delta"), Functions: given(c, "functions"), Tables: cmp.Or(c.String("add-tables"), c.String("tables")),
		M: c.Int("m"), NoDep: c.Bool("no-dep"), PerCall: c.Bool("per-call"), Order: c.String("order"),
		CallTimeout: c.Duration("call-timeout"), SolverTimeout: c.Duration("solver-timeout")}
}

// checkTreeOptions is checkOptions, and refuses SolveTab's flags given
// with --functions uninterpreted, even with their zero value.
func checkTreeOptions(c *cli.Context, o commandOptions) error {
	if c.String("functions") == "uninterpreted" && (c.IsSet("m") || c.IsSet("no-dep") || c.IsSet("per-call") || c.IsSet("tables-out")) {
		return usageError(c, "--m, --no-dep, --per-call and --tables-out need --functions summaries")
	}
	return checkOptions(c, o)
}
