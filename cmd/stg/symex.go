package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
	"github.com/stg-tool/stg/tool"
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
		UsageText: "stg symex SPEC [--depth|--height N | --inclusion] [--max-nodes K] [--delta sink|loop|none] [--functions summaries|uninterpreted] [--tables T] [--m M] [--no-dep] [--order bfs|dfs] [--tables-out OUT] [--format text|yaml|dot|json] [--stats] [--tau-reduce] [-o OUT]",
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
--tables T (a tables file); --m M lets SolveTab execute the reference
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
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "depth", Aliases: []string{"height"}, Usage: "unfold paths of at most `N` steps"},
			&cli.BoolFlag{Name: "inclusion", Usage: "restrict the tree by inclusion (Def. 11)"},
			&cli.IntFlag{Name: "max-nodes", Value: defaultSymexMaxNodes, Usage: "stop after `K` nodes"},
			&cli.StringFlag{Name: "delta", Value: "sink", Usage: "quiescence leads to a `sink`, loops, or none (left out)"},
			&cli.StringFlag{Name: "functions", Value: "summaries", Usage: "calls of external functions: `summaries` or uninterpreted"},
			&cli.StringFlag{Name: "tables", Usage: "add the rows of the tables file `T` to the spec's"},
			&cli.IntFlag{Name: "m", Usage: "let SolveTab execute the implementations up to `M` times per node"},
			&cli.BoolFlag{Name: "no-dep", Usage: "leave Dep out of SolveTab's search for new inputs"},
			&cli.BoolFlag{Name: "per-call", Usage: "let SolveTab first search new inputs for one call at a time, the others within their tables"},
			&cli.StringFlag{Name: "order", Value: "bfs", Usage: "expand the tree in `ORDER`: bfs or dfs"},
			&cli.StringFlag{Name: "tables-out", Usage: "write the enriched tables to `FILE`"},
			&cli.DurationFlag{Name: "call-timeout", Value: extfunc.DefaultTimeout, Usage: "bound each call of an implementation by `DURATION`"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "`FORMAT`: text, yaml, dot or json"},
			&cli.BoolFlag{Name: "stats", Usage: "print the figures of the tree only"},
			&cli.BoolFlag{Name: "tau-reduce", Usage: "with --format text: print the τ-reduced tree (Def 13 of the component-systems paper), each internal chain hidden in the visible step it leads to"},
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
	inputs := append([]string{args[0]}, c.String("tables"))
	for _, o := range []struct{ flag, path string }{{"-o", c.String("output")}, {"--tables-out", c.String("tables-out")}} {
		if err := tool.RefuseOverwrite("stg symex: "+o.flag, o.path, inputs...); err != nil { // files.go
			return tool.InputError(err)
		}
	}
	m, err := loadModel(args[0], nil)
	if err != nil {
		return tool.InputError(err)
	}
	if m.Kind != spec.SpecKind {
		return tool.InputError(fmt.Errorf("%s: stg symex executes a spec, not a %s", args[0], m.Kind))
	}
	if t := c.String("tables"); t != "" {
		if err := spec.LoadTables(t, m); err != nil {
			return tool.InputError(err)
		}
	}
	closeReg, err := summaryExec(c, m, args[0], &opts)
	if err != nil {
		return err
	}
	defer closeReg()
	z, err := solver.NewContext()
	if err != nil {
		return tool.InputError(err)
	}
	defer z.Close()
	z.SetTimeout(c.Duration("solver-timeout"))
	e, err := symex.NewExecutor(z, m, opts)
	if err != nil {
		return tool.InputError(err)
	}
	stderr := c.App.ErrWriter
	for _, n := range e.Notes {
		fmt.Fprintln(stderr, pipeline.Warning(n))
	}
	start := time.Now()
	tree, err := e.Execute(func(n int) { fmt.Fprintf(stderr, "stg symex: %d nodes\n", n) })
	if err != nil {
		return tool.InputError(err)
	}
	elapsed := time.Since(start)
	if tree.Stats.BoundReached {
		fmt.Fprintf(stderr, "stg symex: bound reached: the tree has more than %d nodes (--max-nodes); it is shown as far as unfolded\n", opts.MaxNodes)
		if opts.Inclusion {
			fmt.Fprintf(stderr, "stg symex: the tree restricted by inclusion is infinite or larger than the bound%s\n", growingNote(tree))
		}
	}
	if tree.Stats.Undecided > 0 {
		fmt.Fprintf(stderr, "stg symex: %d node(s) kept because the solver could not decide their path condition\n", tree.Stats.Undecided)
	}
	if out := c.String("tables-out"); out != "" {
		data, err := e.Tab().Marshal(m)
		if err != nil {
			return tool.InputError(err)
		}
		if err := tool.WriteOutput(nil, out, data); err != nil {
			return err
		}
	}
	fig := symexFiguresOf(e, tree, opts, elapsed)
	var out bytes.Buffer
	if c.Bool("tau-reduce") && format == "text" && !c.Bool("stats") {
		err = symex.WriteTauText(&out, symex.TauReduce(tree.Root), m.Variables)
	} else {
		err = writeTree(&out, m, tree, fig, format, c.Bool("stats"))
	}
	if err != nil {
		return tool.InputError(err)
	}
	return tool.WriteOutput(c.App.Writer, c.String("output"), out.Bytes())
}

// growingNote names the variables that keep taking new values.
func growingNote(t *symex.Tree) string {
	g := t.Growing(10)
	if len(g) == 0 {
		return ""
	}
	return "; variables taking ever new values at one location: " + strings.Join(g, ", ") + " (a counter that grows for ever keeps every new node apart)"
}

// symexOptions reads the bounds of the unfolding and the treatment of
// external functions.
func symexOptions(c *cli.Context) (symex.Options, error) {
	opts := symex.Options{Depth: c.Int("depth"), Inclusion: c.Bool("inclusion"), MaxNodes: c.Int("max-nodes")}
	if opts.Depth < 0 || opts.MaxNodes < 1 {
		return opts, usageError(c, "--depth must be >= 0 and --max-nodes positive")
	}
	if err := treeOptions(c, &opts, c.String("functions")); err != nil {
		return opts, err
	}
	if opts.Depth == 0 && !opts.Inclusion {
		opts.Depth = defaultSymexDepth
	}
	return opts, nil
}

// treeOptions reads the flags stg symex and stg purposes share: --delta,
// --functions (given as functions), --order, --m, --no-dep, --per-call.
func treeOptions(c *cli.Context, opts *symex.Options, functions string) error {
	switch c.String("delta") {
	case "sink":
	case "loop":
		opts.DeltaLoop = true
	case "none":
		opts.NoDelta = true
	default:
		return usageError(c, "--delta must be sink, loop or none, not %q", c.String("delta"))
	}
	switch functions {
	case "summaries":
		opts.Functions = symex.Summaries
	case "uninterpreted":
		if c.IsSet("m") || c.IsSet("no-dep") || c.IsSet("per-call") || c.IsSet("tables-out") {
			return usageError(c, "--m, --no-dep, --per-call and --tables-out need --functions summaries")
		}
	default:
		return usageError(c, "--functions must be summaries or uninterpreted, not %q", functions)
	}
	switch c.String("order") {
	case "bfs":
	case "dfs":
		opts.Order = symex.DFS
	default:
		return usageError(c, "--order must be bfs or dfs, not %q", c.String("order"))
	}
	opts.Summary.M, opts.Summary.NoDep, opts.Summary.PerCall = c.Int("m"), c.Bool("no-dep"), c.Bool("per-call")
	if opts.Summary.M < 0 {
		return usageError(c, "--m must be >= 0")
	}
	return nil
}

// summaryExec gives SolveTab the implementations of m's functions (run
// in the directory of specFile) when opts uses summaries; the returned
// function releases them.
func summaryExec(c *cli.Context, m *spec.Model, specFile string, opts *symex.Options) (func(), error) {
	if opts.Functions != symex.Summaries {
		return func() {}, nil
	}
	reg, err := extfunc.New(m.Funcs, extfunc.Options{Timeout: c.Duration("call-timeout"), Dir: filepath.Dir(specFile), Stderr: c.App.ErrWriter})
	if err != nil {
		return nil, tool.InputError(err)
	}
	opts.Summary.Exec = reg.Exec
	return func() { reg.Close() }, nil
}

// symexFigures are the figures of a tree: the columns of Table 2 of the
// function-summaries paper (m, height, rows per function, states,
// transition coverage, time) and the tree's Stats. The columns of the
// functions are left out for a spec without external functions.
type symexFigures struct {
	symex.Stats
	*symexFuncFigures
	Order    string        `json:"order"`
	Height   int           `json:"height"`
	States   int           `json:"states"`
	Coverage symexCoverage `json:"coverage"`
	TimeMS   float64       `json:"time_ms"`

	funcs []string // external functions, in the spec's order
	time  time.Duration
}

// symexFuncFigures are the figures of the external functions.
type symexFuncFigures struct {
	Functions string           `json:"functions"`
	M         int              `json:"m"`
	Dep       bool             `json:"dep"`
	PerCall   bool             `json:"per_call"`
	Rows      map[string]int   `json:"rows"`
	SolveTab  symex.SolveStats `json:"solvetab"`
}

type symexCoverage struct {
	symex.Coverage
	Percent float64 `json:"percent"`
}

func symexFiguresOf(e *symex.Executor, tree *symex.Tree, opts symex.Options, d time.Duration) symexFigures {
	f := symexFigures{Stats: tree.Stats, Order: opts.Order.String(), Height: opts.Depth, States: tree.Stats.Nodes,
		Coverage: symexCoverage{tree.Coverage, tree.Coverage.Percent()}, TimeMS: float64(d.Microseconds()) / 1000, time: d}
	ff := &symexFuncFigures{Functions: opts.Functions.String(), M: opts.Summary.M, Dep: !opts.Summary.NoDep, PerCall: opts.Summary.PerCall,
		Rows: map[string]int{}, SolveTab: e.SolveStats()}
	for _, fn := range e.Spec().Funcs {
		if !fn.IsExternal() {
			continue
		}
		f.funcs = append(f.funcs, fn.Name)
		if tab := e.Tab(); tab != nil {
			ff.Rows[fn.Name] = len(tab[fn.Name])
		} else {
			ff.Rows[fn.Name] = len(fn.Table)
		}
	}
	if len(f.funcs) > 0 {
		f.symexFuncFigures = ff
	}
	return f
}

// writeRow prints the Table 2 row of the figures, then the transitions
// never covered.
func (f symexFigures) writeRow(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head, row := []string{"height"}, []string{strconv.Itoa(f.Height)}
	if f.symexFuncFigures != nil {
		head, row = append([]string{"m"}, head...), append([]string{strconv.Itoa(f.M)}, row...)
	}
	for _, name := range f.funcs {
		head, row = append(head, name), append(row, strconv.Itoa(f.Rows[name]))
	}
	cov := ratio(f.Coverage.Covered, f.Coverage.Total) // stats.go: "8/15 (53.3 %)"
	head = append(head, "states", "coverage", "time")
	row = append(row, strconv.Itoa(f.States), cov, f.time.Round(time.Millisecond).String())
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	fmt.Fprintln(tw, strings.Join(row, "\t"))
	tw.Flush()
	unc := strings.Join(f.Coverage.Uncovered, ", ")
	if unc == "" {
		unc = "none"
	}
	fmt.Fprintf(w, "uncovered: %s\n", unc)
}

// writeTree writes the tree, or its figures with stats, in format.
func writeTree(w io.Writer, m *spec.Model, tree *symex.Tree, f symexFigures, format string, stats bool) error {
	s := tree.Stats
	switch {
	case stats && format == "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(f)
	case stats:
		if f.symexFuncFigures != nil {
			fmt.Fprintf(w, "functions: %s (order %s", f.Functions, f.Order)
			if f.Functions == symex.Summaries.String() {
				fmt.Fprintf(w, ", Dep %v, per-call %v; SolveTab: %d calls, %d attempts, %d executions, %d rows added", f.Dep, f.PerCall, f.SolveTab.Calls, f.SolveTab.Attempts, f.SolveTab.Execs, f.SolveTab.Added)
			}
			fmt.Fprintln(w, ")")
		}
		f.writeRow(w)
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
	fmt.Fprintf(w, "symbolic execution of %s: %d nodes, %d cut by inclusion, longest path %d, transition coverage %d/%d\n",
		m.Name, s.Nodes, s.CutByInclusion, s.LongestPath, tree.Coverage.Covered, tree.Coverage.Total)
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
