package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// Default bounds of stg symex.
const (
	defaultSymexDepth    = 4
	defaultSymexMaxNodes = 2000
)

func symexCommand() *cli.Command {
	return &cli.Command{
		Name:      "symex",
		Usage:     "unfold the symbolic execution tree of a spec",
		ArgsUsage: "SPEC",
		UsageText: "stg symex SPEC [--depth N | --inclusion] [--max-nodes K] [--delta sink|loop] [--format text|yaml|dot|json] [--stats] [-o OUT]",
		Description: `Symex executes the spec symbolically (AGATHA, Defs. 8-11): every node is a
location, the variables as expressions over symbols (x@0 for an initial
value the spec leaves open, v@1, v@2, ... for the values received or
emitted) and a path condition over the symbols. A node is named by its
path of transition names from the root ("delta" for quiescence; unnamed
transitions get "from-action-to"). Children whose path condition is
unsatisfiable are pruned; a child the solver cannot decide is kept and
marked. Quiescence leads to a sink (--delta loop: a self-loop).

--depth N unfolds paths of at most N steps (default 4 without
--inclusion); --inclusion cuts every node included in a node created
before it at the same location (Def. 11), which may still not terminate:
--max-nodes bounds the tree and the bound is reported.

Example:
   stg symex examples/atm-paper/spec.yaml --inclusion --stats
   stg symex examples/atm-paper/spec.yaml --depth 3 --format dot -o tree.dot`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "depth", Usage: "unfold paths of at most `N` steps"},
			&cli.BoolFlag{Name: "inclusion", Usage: "restrict the tree by inclusion (Def. 11)"},
			&cli.IntFlag{Name: "max-nodes", Value: defaultSymexMaxNodes, Usage: "stop after `K` nodes"},
			&cli.StringFlag{Name: "delta", Value: "sink", Usage: "quiescence leads to a `sink` or loops"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT`: text, yaml, dot or json"},
			&cli.BoolFlag{Name: "stats", Usage: "print the figures of the tree only"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query by `DURATION`"},
		},
		Action: runSymex,
	}
}

func runSymex(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if len(args) != 1 {
		return usageError(c, "stg symex needs one SPEC")
	}
	opts, err := symexOptions(c)
	if err != nil {
		return err
	}
	format := c.String("format")
	switch format {
	case "text", "yaml", "dot", "json":
	default:
		return usageError(c, "--format must be text, yaml, dot or json, not %q", format)
	}
	m, err := loadModel(args[0], nil)
	if err != nil {
		return inputError(err)
	}
	if m.Kind != spec.SpecKind {
		return inputError(fmt.Errorf("%s: stg symex executes a spec, not a %s", args[0], m.Kind))
	}
	z, err := solver.NewContext()
	if err != nil {
		return inputError(err)
	}
	defer z.Close()
	z.SetTimeout(c.Duration("solver-timeout"))
	e, err := symex.NewExecutor(z, m, opts)
	if err != nil {
		return inputError(err)
	}
	stderr := c.App.ErrWriter
	for _, n := range e.Notes {
		fmt.Fprintln(stderr, "warning:", n)
	}
	tree, err := e.Execute(func(n int) { fmt.Fprintf(stderr, "stg symex: %d nodes\n", n) })
	if err != nil {
		return inputError(err)
	}
	if tree.Stats.BoundReached {
		fmt.Fprintf(stderr, "stg symex: bound reached: the tree has more than %d nodes (--max-nodes); it is shown as far as unfolded\n", opts.MaxNodes)
	}
	if tree.Stats.Undecided > 0 {
		fmt.Fprintf(stderr, "stg symex: %d node(s) kept because the solver could not decide their path condition\n", tree.Stats.Undecided)
	}
	var out bytes.Buffer
	if err := writeTree(&out, m, tree, format, c.Bool("stats")); err != nil {
		return inputError(err)
	}
	return writeOutput(c.App.Writer, c.String("output"), out.Bytes())
}

// symexOptions reads the bounds of the unfolding.
func symexOptions(c *cli.Context) (symex.Options, error) {
	opts := symex.Options{Depth: c.Int("depth"), Inclusion: c.Bool("inclusion"), MaxNodes: c.Int("max-nodes")}
	if opts.Depth < 0 || opts.MaxNodes < 1 {
		return opts, usageError(c, "--depth must be >= 0 and --max-nodes positive")
	}
	switch c.String("delta") {
	case "sink":
	case "loop":
		opts.DeltaLoop = true
	default:
		return opts, usageError(c, "--delta must be sink or loop, not %q", c.String("delta"))
	}
	if opts.Depth == 0 && !opts.Inclusion {
		opts.Depth = defaultSymexDepth
	}
	return opts, nil
}

// writeTree writes the tree, or its figures with stats, in format.
func writeTree(w io.Writer, m *spec.Model, tree *symex.Tree, format string, stats bool) error {
	s := tree.Stats
	switch {
	case stats && format == "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	case stats:
		_, err := fmt.Fprintf(w, "nodes: %d\ntransitions: %d\ncut_by_inclusion: %d\nlongest_path: %d\nundecided: %d\nbound_reached: %v\nsolver_queries: %d\n",
			s.Nodes, s.Transitions, s.CutByInclusion, s.LongestPath, s.Undecided, s.BoundReached, s.Queries)
		return err
	}
	switch format {
	case "dot":
		_, err := io.WriteString(w, emit.TreeDOT("symbolic execution of "+m.Name, tree.Nodes, m.Variables, nil).String())
		return err
	case "json":
		return symex.WriteJSON(w, tree.Nodes, s, nil)
	case "yaml":
		return writeYAMLOf(w, func(b *bytes.Buffer) error { return symex.WriteJSON(b, tree.Nodes, s, nil) })
	}
	fmt.Fprintf(w, "symbolic execution of %s: %d nodes, %d cut by inclusion, longest path %d\n", m.Name, s.Nodes, s.CutByInclusion, s.LongestPath)
	return symex.WriteText(w, tree.Nodes, m.Variables, nil)
}

// writeYAMLOf writes as YAML what write writes as JSON.
func writeYAMLOf(w io.Writer, write func(*bytes.Buffer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return enc.Close()
}
