package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/project"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
	"github.com/stg-tool/stg/tool"
)

func purposesCommand() *cli.Command {
	return &cli.Command{
		Name:      "purposes",
		Usage:     "build symbolic test purposes from a coverage criterion",
		ArgsUsage: "SPEC",
		UsageText: "stg purposes SPEC (--length N | --k-inclusion K) [--split] [-o OUT|DIR] [--format yaml|dot|text] [--stats [--format json]]\n   stg purposes SYSTEM --on COMPONENT [--path ID | --all-leaves] [-o DIR]",
		Description: `Purposes builds a symbolic test purpose (AGATHA, Def. 13) from a criterion
on the spec's symbolic execution tree: its accept nodes, each named by its
path of transition names (a sympurpose file). --length N accepts every
path of length N ending with an output (quiescence included) and the
one-output extensions of those ending with an input (TG_N, Def. 18);
--k-inclusion K is --length K*p, p the longest path of the tree restricted
by inclusion (Def. 19). --split writes one purpose per accept node, into
the directory -o DIR, named after the spec, the criterion and the accept
path (atm-paper-TG2-deposit-ask-cash.yaml); their spec is written relative
to that directory.

With --on COMPONENT, SYSTEM is a system file: its maximal behaviours (or the
path to its node ID, --path ID) are projected onto the sub-system COMPONENT
(stg project) and each projection gives the test purpose of Def 18 of the
component-systems paper, a sympurpose of the component's own spec whose
accept path carries the external constraint the rest of the system puts on
the component (0 < s_bet.v <= 100 ...): stg run plays it against the
component's SUT alone, sending only what the system would send. With -o DIR
one file per purpose goes into DIR; else they are printed.

Example:
   stg purposes examples/atm-paper/spec.yaml --k-inclusion 1 --stats
   stg purposes examples/atm-paper/spec.yaml --length 2 --split -o purposes/
   stg run purposes/atm-paper-TG2-deposit-ask-cash.yaml -- ./atm-sut
   stg purposes examples/slot/system.yaml --on SM -o purposes/`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "length", Usage: "accept the paths of length `N` (TG_N)"},
			&cli.IntFlag{Name: "k-inclusion", Usage: "the `K`-inclusion criterion"},
			&cli.BoolFlag{Name: "split", Usage: "one purpose per accept node (needs -o DIR)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` (a directory with --split)"},
			&cli.StringFlag{Name: "format", Value: "yaml", Usage: "`FORMAT`: yaml (sympurpose), dot, text (the labelled tree), json with --stats"},
			&cli.BoolFlag{Name: "stats", Usage: "print the counts of nodes, accept, skip and bottom only"},
			&cli.IntFlag{Name: "max-nodes", Value: 100000, Usage: "stop after `K` nodes"},
			&cli.StringFlag{Name: "delta", Value: "sink", Usage: "quiescence leads to a `sink`, loops (purposes go on after it), or none (left out)"},
			&cli.StringFlag{Name: "functions", Usage: "calls of external functions: `summaries` (the default when a function has a table or an implementation) or uninterpreted"},
			&cli.StringFlag{Name: "tables", Usage: "add the rows of the tables file `T` to the spec's"},
			&cli.IntFlag{Name: "m", Usage: "let SolveTab execute the implementations up to `M` times per node"},
			&cli.BoolFlag{Name: "no-dep", Usage: "leave Dep out of SolveTab's search for new inputs"},
			&cli.BoolFlag{Name: "per-call", Usage: "let SolveTab first search new inputs for one call at a time"},
			&cli.StringFlag{Name: "order", Value: "bfs", Usage: "expand the tree in `ORDER`: bfs or dfs"},
			&cli.DurationFlag{Name: "call-timeout", Value: extfunc.DefaultTimeout, Usage: "bound each call of an implementation by `DURATION`"},
			&cli.DurationFlag{Name: "solver-timeout", Value: defaultSolverTimeout, Usage: "bound each solver query by `DURATION`"},
			&cli.StringFlag{Name: "on", Usage: "SYSTEM is a system: purposes for its sub-system `COMPONENT` (Def 18)"},
			&cli.IntFlag{Name: "path", Value: -1, Usage: "with --on: project the path to the system's node `ID` only"},
			&cli.BoolFlag{Name: "all-leaves", Usage: "with --on: project every maximal behaviour (the default)"},
		},
		Action: runPurposes,
	}
}

func runPurposes(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	if c.String("on") != "" {
		return runProjectPurposes(c)
	}
	if len(args) != 1 {
		return usageError(c, "stg purposes needs one SPEC")
	}
	n, k := c.Int("length"), c.Int("k-inclusion")
	if (n > 0) == (k > 0) || n < 0 || k < 0 {
		return usageError(c, "give a positive --length N or --k-inclusion K (one of them)")
	}
	if c.Bool("split") && c.String("output") == "" && !c.Bool("stats") {
		return usageError(c, "--split writes one file per purpose: give -o DIR")
	}
	m, err := loadModel(args[0], nil)
	if err != nil {
		return tool.InputError(err)
	}
	if m.Kind != spec.SpecKind {
		return tool.InputError(fmt.Errorf("%s: stg purposes needs a spec, not a %s", args[0], m.Kind))
	}
	if t := c.String("tables"); t != "" {
		if err := spec.LoadTables(t, m); err != nil {
			return tool.InputError(err)
		}
	}
	opts := symex.Options{MaxNodes: c.Int("max-nodes")}
	if err := treeOptions(c, &opts, purposeFunctions(c, m)); err != nil {
		return err
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
	var p *symex.Purpose
	if n > 0 {
		p, err = e.Length(n)
	} else {
		p, err = e.KInclusion(k)
	}
	if err != nil {
		return tool.InputError(fmt.Errorf("%s: %v", args[0], err))
	}
	return writePurposes(c, args[0], m, p)
}

// purposeFunctions returns --functions, by default summaries when an
// external function of m has a table row or an implementation (the
// purposes' paths are then ones the tables explain), else uninterpreted.
func purposeFunctions(c *cli.Context, m *spec.Model) string {
	if f := c.String("functions"); f != "" {
		return f
	}
	for _, f := range m.Funcs {
		if f.IsExternal() && (len(f.Table) > 0 || f.Impl != "") {
			return "summaries"
		}
	}
	return "uninterpreted"
}

// writePurposes writes p (or its split) in the requested format.
func writePurposes(c *cli.Context, specFile string, m *spec.Model, p *symex.Purpose) error {
	w := c.App.Writer
	if c.Bool("stats") {
		s := p.Stats()
		if c.String("format") == "json" {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(s)
		}
		_, err := fmt.Fprintf(w, "criterion: %s\nnodes: %d\naccept: %d\nskip: %d\nbottom: %d\n", p.Criterion, s.Nodes, s.Accept, s.Skip, s.Bottom)
		return err
	}
	var out bytes.Buffer
	switch c.String("format") {
	case "dot":
		out.WriteString(emit.TreeDOT("purpose "+p.Criterion+" of "+m.Name, p.Nodes, m.Variables, p.Label).String())
	case "text":
		fmt.Fprintf(&out, "purpose %s of %s: %+v\n", p.Criterion, m.Name, p.Stats())
		if err := symex.WriteText(&out, p.Nodes, m.Variables, func(n *symex.Node) string { return p.Label(n).String() }); err != nil {
			return tool.InputError(err)
		}
	case "yaml":
		if c.Bool("split") {
			return writeSplit(c, specFile, m, p)
		}
		data, err := symPurposeFile(m, p, specFile, c.String("output"), m.Name+"-"+criterionTag(p))
		if err != nil {
			return tool.InputError(err)
		}
		out.Write(data)
	default:
		return usageError(c, "--format must be yaml, dot or text (json with --stats), not %q", c.String("format"))
	}
	return tool.WriteOutput(w, c.String("output"), out.Bytes())
}

// writeSplit writes one sympurpose file per accept node into -o DIR.
func writeSplit(c *cli.Context, specFile string, m *spec.Model, p *symex.Purpose) error {
	dir := c.String("output")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return tool.InputError(err)
	}
	base := m.Name + "-" + criterionTag(p)
	// Every file is made before any is written: an error writes nothing.
	var files, texts []string
	for _, q := range p.Split() {
		name := base + "-" + nameSafe(strings.Join(q.Accept[0].Path(), "-"))
		file := filepath.Join(dir, name+".yaml")
		data, err := symPurposeFile(m, q, specFile, file, name)
		if err != nil {
			return tool.InputError(fmt.Errorf("%s: %v", specFile, err))
		}
		files, texts = append(files, file), append(texts, string(data))
	}
	for i, file := range files {
		if err := os.WriteFile(file, []byte(texts[i]), 0o644); err != nil {
			return tool.InputError(err)
		}
	}
	fmt.Fprintf(c.App.ErrWriter, "stg purposes: wrote %d purposes to %s\n", len(p.Accept), dir)
	return nil
}

// symPurposeFile returns the sympurpose text of p, its spec written
// relative to the directory of the file it goes to.
func symPurposeFile(m *spec.Model, p *symex.Purpose, specFile, outFile, name string) ([]byte, error) {
	rel := specFile
	if outFile != "" {
		from := filepath.Dir(outFile)
		if fi, err := os.Stat(outFile); err == nil && fi.IsDir() {
			from = outFile
		}
		if abs, err := filepath.Abs(specFile); err == nil {
			if fromAbs, err := filepath.Abs(from); err == nil {
				if r, err := filepath.Rel(fromAbs, abs); err == nil {
					rel = r
				}
			}
		}
	}
	sp := &spec.SymPurpose{Name: name, Spec: rel}
	if p.K > 0 {
		sp.Criterion.Inclusion = p.K
	} else {
		sp.Criterion.Length = p.Length
	}
	for _, path := range p.AcceptPaths() {
		sp.Accept = append(sp.Accept, spec.AcceptPath{Names: path})
	}
	return spec.MarshalSymPurpose(sp)
}

// criterionTag names a criterion in file names: TG2, K1.
func criterionTag(p *symex.Purpose) string {
	if p.K > 0 {
		return fmt.Sprintf("K%d", p.K)
	}
	return fmt.Sprintf("TG%d", p.Length)
}

// nameSafe replaces what the name of a sympurpose may not hold (it takes
// letters, digits, _, - and .; transitions may be named with anything,
// locations too) by _, so that the name serves as a file name too.
func nameSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r == '_' || r == '-' || r == '.' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, s)
}

// runProjectPurposes is stg purposes SYSTEM --on COMPONENT: the Def 18
// purposes of the projected behaviours, as sympurpose files.
func runProjectPurposes(c *cli.Context) error {
	if c.Int("length") > 0 || c.Int("k-inclusion") > 0 || c.Bool("split") || c.Bool("stats") {
		return usageError(c, "--on takes no criterion: the system's behaviours are the purposes")
	}
	z, err := solver.NewContext()
	if err != nil {
		return tool.InputError(err)
	}
	defer z.Close()
	s, leaves, err := projectSession(c, z, true)
	if err != nil {
		return err
	}
	dir := c.String("output")
	files, skipped, err := s.PurposeFiles(z, leaves, dir)
	if err != nil {
		return tool.InputError(err)
	}
	for _, msg := range skipped {
		fmt.Fprintf(c.App.ErrWriter, "stg purposes: %s\n", msg)
	}
	if dir == "" {
		// Printed, the spec paths are relative to the working directory.
		for i, f := range files {
			if i > 0 {
				fmt.Fprintln(c.App.Writer, "---")
			}
			if _, err := c.App.Writer.Write(f.Data); err != nil {
				return err
			}
		}
		return nil
	}
	if err := project.Write(files); err != nil {
		return tool.InputError(err)
	}
	fmt.Fprintf(c.App.ErrWriter, "stg purposes: wrote %d files to %s\n", len(files), dir)
	return nil
}
