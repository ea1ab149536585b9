package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
	"github.com/stg-tool/stg/tool"
	"github.com/stg-tool/stg/view"
	"github.com/urfave/cli/v2"
	"gopkg.in/yaml.v3"
)

func viewCommand() *cli.Command {
	return &cli.Command{
		Name:      "view",
		Usage:     "write a model, tree or abstraction as an interactive HTML page",
		ArgsUsage: "FILE | SPEC PURPOSE",
		UsageText: "stg view FILE [--spec SPEC] [--coverage REPORT.json] [--trace TRACE.jsonl] [-o PAGE.html]",
		Description: `View writes one self-contained HTML page (inline SVG, style and script;
it fetches nothing, opens from disk and can be attached to a CI run) that
shows FILE as a graph laid out by Graphviz's dot: a spec, purpose, test
case, symbolic purpose or system, a symbolic tree (stg symex --format
json or yaml) or an abstraction (stg abstract --format yaml).

Edges carry a short label, the action and a transition id ("?result t6",
t6 the 7th transition of the file); clicking or hovering an edge shows its
guard, assignments and, in a test case, the spec transition behind it.
The edges of a test case into Fail are folded, a check box shows them.
Drag to pan, wheel to zoom, search by location or action.

--coverage REPORT.json (stg run --report-json, or stg report merge) marks
each transition of a test case with its count, the never-taken ones with
what the report's search found (unreachable, or reachable by a path).
--trace TRACE.jsonl (stg run --save-trace) lists the run's steps; stepping
highlights the current location and transition, and the failing
observation.

Example:
   $ stg generate examples/jobs/spec.yaml examples/jobs/purpose-park.yaml -o park.tc.yaml
   $ stg run park.tc.yaml --runs 10 --report-json park.json -- ./jobs-sut
   $ stg view park.tc.yaml --coverage park.json -o park.html`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the page to `FILE` instead of stdout"},
			&cli.StringFlag{Name: "spec", Usage: "the `SPEC` of a purpose (default: the spec in the purpose's directory)"},
			&cli.StringFlag{Name: "coverage", Usage: "mark the transitions of a test case with the coverage of the JSON `REPORT` (stg run --report-json)"},
			&cli.StringFlag{Name: "trace", Usage: "list and step through the run of the trace `FILE` (stg run --save-trace)"},
		},
		Action: runView,
	}
}

func runView(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return usageError(c, "%v", err)
	}
	specPath := c.String("spec")
	switch {
	case len(args) == 2 && specPath == "":
		if err := swappedSpecPurpose("view", args[0], args[1]); err != nil {
			return tool.InputError(err)
		}
		specPath, args = args[0], args[1:]
	case len(args) != 1:
		return usageError(c, "stg view takes one file (or a spec and a purpose)")
	}
	path := args[0]
	data, err := os.ReadFile(path)
	if err != nil {
		return tool.InputError(err)
	}
	g, err := viewGraph(c, path, data, specPath)
	if err != nil {
		return tool.InputError(err)
	}
	var out bytes.Buffer
	if err := view.Render(&out, g, view.SystemDot); err != nil {
		return tool.InputError(err)
	}
	return tool.WriteOutput(c.App.Writer, c.String("output"), out.Bytes())
}

// viewGraph reads the file to show as a graph: by its kind:, or, for the
// outputs of stg symex and stg abstract (which have none), by its keys.
func viewGraph(c *cli.Context, path string, data []byte, specPath string) (*view.Graph, error) {
	var top map[string]any
	if err := yaml.Unmarshal(data, &top); err != nil || top == nil {
		_, err := spec.PeekKind(path, data) // for the message
		if err == nil {
			err = fmt.Errorf("%s: not a model, tree or abstraction", path)
		}
		return nil, err
	}
	_, hasKind := top["kind"]
	_, hasNodes := top["nodes"]
	_, hasStates := top["states"]
	extra := c.String("coverage") != "" || c.String("trace") != ""
	switch {
	case !hasKind && hasNodes:
		if extra {
			return nil, fmt.Errorf("%s: --coverage and --trace are for a test case or a model, not a tree", path)
		}
		nodes, err := view.ReadTree(path, data)
		if err != nil {
			return nil, err
		}
		return view.FromTree("symbolic tree "+path, nodes), nil
	case !hasKind && hasStates:
		var a view.Abstraction
		if err := yaml.Unmarshal(data, &a); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if extra {
			return nil, fmt.Errorf("%s: --coverage and --trace are for a test case or a model, not an abstraction", path)
		}
		return view.FromAbstraction(&a), nil
	}
	return viewModel(c, path, data, specPath)
}

// viewModel reads a spec, purpose, test case, system or symbolic
// purpose, with its coverage and trace.
func viewModel(c *cli.Context, path string, data []byte, specPath string) (*view.Graph, error) {
	kind, err := spec.PeekKind(path, data)
	if err != nil {
		return nil, err
	}
	if kind == spec.SymPurposeKind {
		return viewSymPurpose(path, data)
	}
	var sp *spec.Model
	switch {
	case specPath != "":
		if sp, err = loadModel(specPath, nil); err != nil {
			return nil, err
		}
	case kind == spec.PurposeKind:
		if sp, err = siblingSpec(path); err != nil { // dot.go
			return nil, err
		}
	}
	if kind != spec.PurposeKind && sp != nil {
		return nil, fmt.Errorf("%s: a spec is given, so this must be a purpose, not a %s", path, kind)
	}
	m, err := parseModelOrSystem(path, data, sp) // compose.go: a system is composed
	if err != nil {
		return nil, err
	}
	g := view.FromModel(m)
	if kind == spec.SystemKind {
		g.Title, g.Kind = "system "+m.Name+" (composed)", "system"
	}
	if p := c.String("coverage"); p != "" {
		rep, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if err := view.AddCoverage(g, m, p, rep); err != nil {
			return nil, err
		}
	}
	if p := c.String("trace"); p != "" {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		events, err := spec.ReadTrace(p, f)
		if err != nil {
			return nil, err
		}
		view.AddTrace(g, m, events)
	}
	return g, nil
}

// viewSymPurpose shows a symbolic purpose on its spec's symbolic
// execution tree, as stg dot draws it: accept nodes green, ⊥ blue-grey.
func viewSymPurpose(path string, data []byte) (*view.Graph, error) {
	sp, err := spec.ParseSymPurpose(path, data)
	if err != nil {
		return nil, err
	}
	m, err := loadModel(sp.SpecPath(), nil)
	if err != nil {
		return nil, err
	}
	names := symex.Names(m)
	if err := sp.Check(m, func(t *spec.Transition) string { return names[t] }); err != nil {
		return nil, err
	}
	z, err := solver.NewContext()
	if err != nil {
		return nil, err
	}
	defer z.Close()
	z.SetTimeout(defaultSolverTimeout)
	e, err := symex.NewExecutor(z, m, symex.Options{})
	if err != nil {
		return nil, err
	}
	var paths [][]string
	for _, a := range sp.Accept {
		paths = append(paths, a.Names)
	}
	p, err := e.PurposeOf(sp.Name, paths)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var b bytes.Buffer
	if err := symex.WriteJSON(&b, p.Nodes, nil, func(n *symex.Node) string { return p.Label(n).String() }); err != nil {
		return nil, err
	}
	nodes, err := view.ReadTree(path, b.Bytes())
	if err != nil {
		return nil, err
	}
	g := view.FromTree("sympurpose "+sp.Name, nodes)
	g.Kind = "sympurpose"
	return g, nil
}
