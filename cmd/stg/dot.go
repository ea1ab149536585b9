package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
	"github.com/stg-tool/stg/tool"
	"github.com/urfave/cli/v2"
)

func dotCommand() *cli.Command {
	return &cli.Command{
		Name:      "dot",
		Usage:     "draw a spec, purpose or testcase with Graphviz",
		ArgsUsage: "MODEL | SPEC PURPOSE",
		UsageText: "stg dot MODEL [-o OUT] [--format dot|svg|png] [--all-edges]\nstg dot [--spec SPEC] PURPOSE [-o OUT] [--format dot|svg|png]",
		Description: `Dot writes a drawing of a model in Graphviz's DOT language, or renders it
as SVG or PNG with Graphviz's dot program. Locations are nodes (the
initial one has an arrow from nowhere, Accept locations are double
circles, verdicts are green, red and orange boxes); each transition is
an edge "?in(p) [guard] / x := e". In a spec or purpose ? marks the SUT's
inputs (solid edges) and ! its outputs (dashed); a testcase shows the
tester's view: !send (solid), ?receive (dashed). A purpose is read with
its spec, given by --spec or as the first of two files; alone, with the
one spec of its directory (spec.yaml when there are several).

In a testcase, the outputs that lead to Fail whatever their values are
not drawn one edge each: their location says "any other output → Fail"
(--all-edges draws them). A large model is laid out left to right, each
edge labelled by its action and transition index ("?result t6"), a legend
table giving the full labels.

Example:
   $ stg dot examples/cmp/spec.yaml -o cmp.dot
   $ stg dot --spec examples/cmp/spec.yaml examples/cmp/purpose.yaml --format svg -o purpose.svg`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "format", Value: "dot", Usage: "`FORMAT` of the output: dot, svg or png (svg and png need Graphviz)"},
			&cli.StringFlag{Name: "spec", Usage: "the `SPEC` of the purpose to draw (default: the spec in the purpose's directory)"},
			&cli.BoolFlag{Name: "all-edges", Usage: "draw every transition of a testcase, also each output that leads to Fail"},
			&cli.StringFlag{Name: "coverage", Usage: "colour the edges of a testcase by how often the runs of the JSON `REPORT` (stg run --report-json) took them; grey: never, red: proved unreachable"},
		},
		Action: runDot,
	}
}

func runDot(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	format := c.String("format")
	if format != "dot" && format != "svg" && format != "png" {
		return usageError(c, "unknown format %q: want dot, svg or png", format)
	}
	specPath := c.String("spec")
	switch {
	case len(args) == 2 && specPath == "":
		if err := swappedSpecPurpose("dot", args[0], args[1]); err != nil {
			return tool.InputError(err)
		}
		specPath, args = args[0], args[1:]
	case len(args) != 1:
		return usageError(c, "stg dot takes one model (or a spec and a purpose)")
	}
	path := args[0]
	if err := tool.RefuseOverwrite("stg dot: -o", c.String("output"), path, specPath, c.String("coverage")); err != nil { // files.go
		return tool.InputError(err)
	}

	var sp *spec.Model
	if specPath != "" {
		if sp, err = loadModel(specPath, nil); err != nil {
			return tool.InputError(err)
		}
		if sp.Kind != spec.SpecKind {
			return tool.InputError(fmt.Errorf("%s: --spec names a %s, not a spec", specPath, sp.Kind))
		}
	}
	data, err := spec.ReadModelFile(path)
	if err != nil {
		_, err = loadModel(path, nil) // for the message
		return tool.InputError(err)
	}
	kind, err := spec.PeekKind(path, data)
	if err != nil {
		return tool.InputError(err)
	}
	if kind == spec.SymPurposeKind {
		return drawSymPurpose(c, path, data, format)
	}
	if kind == spec.PurposeKind && sp == nil {
		if sp, err = siblingSpec(path); err != nil {
			return tool.InputError(err)
		}
	}
	if kind != spec.PurposeKind && sp != nil {
		return tool.InputError(fmt.Errorf("%s: a spec is given, so this must be a purpose, not a %s", path, kind))
	}
	m, err := parseModelOrSystem(path, data, sp) // compose.go: a system is composed
	if err != nil {
		return tool.InputError(err)
	}

	opts := emit.DrawOptions{AllEdges: c.Bool("all-edges")}
	if report := c.String("coverage"); report != "" {
		var takenIntoFail bool
		if opts.Coverage, takenIntoFail, err = drawCoverage(report, m); err != nil { // coverage.go
			return tool.InputError(err)
		}
		opts.AllEdges = opts.AllEdges || takenIntoFail
	}
	out := []byte(emit.DrawDOT(m, opts).String())
	if format != "dot" {
		if out, err = graphviz(out, format); err != nil {
			return tool.InputError(err)
		}
	}
	if o := c.String("output"); o != "" {
		if err := os.WriteFile(o, out, 0o644); err != nil {
			return tool.InputError(err)
		}
		return nil
	}
	_, err = c.App.Writer.Write(out)
	return err
}

// graphviz renders a DOT text with Graphviz's dot program.
func graphviz(src []byte, format string) ([]byte, error) {
	out, err := emit.Render(src, format)
	if errors.Is(err, emit.ErrNoGraphviz) {
		return nil, fmt.Errorf("Graphviz's dot is not installed; use --format dot")
	}
	return out, err
}

// drawSymPurpose draws a symbolic purpose on its spec's symbolic
// execution tree: accept nodes green, skip white, ⊥ blue-grey.
func drawSymPurpose(c *cli.Context, path string, data []byte, format string) error {
	sp, err := spec.ParseSymPurpose(path, data)
	if err != nil {
		return tool.InputError(err)
	}
	m, err := loadModel(sp.SpecPath(), nil)
	if err != nil {
		return tool.InputError(err)
	}
	names := symex.Names(m)
	if err := sp.Check(m, func(t *spec.Transition) string { return names[t] }); err != nil {
		return tool.InputError(err)
	}
	z, err := solver.NewContext()
	if err != nil {
		return tool.InputError(err)
	}
	defer z.Close()
	z.SetTimeout(defaultSolverTimeout)
	e, err := symex.NewExecutor(z, m, symex.Options{})
	if err != nil {
		return tool.InputError(err)
	}
	var paths [][]string
	for _, a := range sp.Accept {
		paths = append(paths, a.Names)
	}
	p, err := e.PurposeOf(sp.Name, paths)
	if err != nil {
		return tool.InputError(fmt.Errorf("%s: %v", path, err))
	}
	out := []byte(emit.TreeDOT("sympurpose "+sp.Name, p.Nodes, m.Variables, p.Label).String())
	if format != "dot" {
		if out, err = graphviz(out, format); err != nil {
			return tool.InputError(err)
		}
	}
	return tool.WriteOutput(c.App.Writer, c.String("output"), out)
}

// siblingSpec returns the spec a purpose drawn alone is read with: the
// one spec (or system) of the purpose's directory, spec.yaml when there
// are several.
func siblingSpec(purpose string) (*spec.Model, error) {
	dir := filepath.Dir(purpose)
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	yml, _ := filepath.Glob(filepath.Join(dir, "*.yml"))
	var specs []string
	for _, f := range append(files, yml...) {
		data, err := spec.ReadModelFile(f)
		if err != nil {
			continue
		}
		if k, err := spec.PeekKind(f, data); err == nil && (k == spec.SpecKind || k == spec.SystemKind) {
			specs = append(specs, f)
		}
	}
	if len(specs) > 1 {
		for _, f := range specs {
			if filepath.Base(f) == "spec.yaml" {
				specs = []string{f}
				break
			}
		}
	}
	switch len(specs) {
	case 0:
		return nil, fmt.Errorf("%s: a purpose is drawn with its spec, and its directory has none: stg dot --spec SPEC %s", purpose, purpose)
	case 1:
		sp, err := loadModel(specs[0], nil)
		if err != nil {
			return nil, fmt.Errorf("%v (the spec of %s, found beside it; --spec names another)", err, purpose)
		}
		return sp, nil
	}
	return nil, fmt.Errorf("%s: a purpose is drawn with its spec, and its directory has several (%s): stg dot --spec SPEC %s", purpose, strings.Join(specs, ", "), purpose)
}
