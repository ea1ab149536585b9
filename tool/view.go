package tool

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
	"github.com/stg-tool/stg/view"
)

// ViewOptions are the options of stg view FILE | SPEC PURPOSE: the
// files (a purpose's spec is Spec, else the first of two Files, else the
// one spec of its directory), the Output page ("" for stdout), the JSON
// report whose Coverage marks a test case's transitions, and the Trace
// file of a run to step through.
type ViewOptions struct {
	Files    []string
	Spec     string
	Output   string
	Coverage string
	Trace    string
}

// View is stg view: one self-contained HTML page that shows a model, a
// symbolic tree or an abstraction as a graph.
func View(opts ViewOptions, stdout io.Writer) error {
	path, specPath, err := modelAndSpec("view", opts.Files, opts.Spec)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return InputError(err)
	}
	g, err := opts.graph(path, data, specPath)
	if err != nil {
		return InputError(err)
	}
	var out bytes.Buffer
	if err := view.Render(&out, g, view.SystemDot); err != nil {
		return InputError(err)
	}
	return WriteOutput(stdout, opts.Output, out.Bytes())
}

// graph reads the file to show as a graph: by its kind:, or, for the
// outputs of stg symex and stg abstract (which have none), by its keys.
func (o ViewOptions) graph(path string, data []byte, specPath string) (*view.Graph, error) {
	var top map[string]any
	if err := yaml.Unmarshal(data, &top); err != nil || top == nil {
		_, err := specfile.PeekKind(path, data) // for the message
		if err == nil {
			err = fmt.Errorf("%s: not a model, tree or abstraction", path)
		}
		return nil, err
	}
	_, hasKind := top["kind"]
	_, hasNodes := top["nodes"]
	_, hasStates := top["states"]
	extra := o.Coverage != "" || o.Trace != ""
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
	return o.modelGraph(path, specPath)
}

// modelGraph reads a spec, purpose, test case, system or symbolic
// purpose, with its coverage and trace.
func (o ViewOptions) modelGraph(path, specPath string) (*view.Graph, error) {
	f, m, err := loadDrawn(path, specPath)
	if err != nil {
		return nil, err
	}
	if f.Kind == spec.SymPurposeKind {
		return symPurposeGraph(f.SymPurpose)
	}
	g := view.FromModel(m)
	if f.Kind == spec.SystemKind {
		g.Title, g.Kind = "system "+m.Name+" (composed)", "system"
	}
	if p := o.Coverage; p != "" {
		rep, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if err := view.AddCoverage(g, m, p, rep); err != nil {
			return nil, err
		}
	}
	if p := o.Trace; p != "" {
		events, err := openTrace(p)
		if err != nil {
			return nil, err
		}
		view.AddTrace(g, m, events)
	}
	return g, nil
}

// symPurposeGraph shows a symbolic purpose on its spec's symbolic
// execution tree, as stg dot draws it: accept nodes green, ⊥ blue-grey.
func symPurposeGraph(sp *spec.SymPurpose) (*view.Graph, error) {
	var b bytes.Buffer
	err := onSymPurposeTree(sp, func(p *symex.Purpose, _ *spec.Model) error {
		return symex.WriteJSON(&b, p.Nodes, nil, func(n *symex.Node) string { return p.Label(n).String() })
	})
	if err != nil {
		return nil, err
	}
	nodes, err := view.ReadTree(sp.File, b.Bytes())
	if err != nil {
		return nil, err
	}
	g := view.FromTree("sympurpose "+sp.Name, nodes)
	g.Kind = "sympurpose"
	return g, nil
}

// openTrace reads the trace file path with Open; a file of another kind
// is refused.
func openTrace(path string) ([]specfile.TraceEvent, error) {
	f, err := specfile.Open(path)
	if err != nil {
		return nil, err
	}
	if f.Kind != spec.TraceKind {
		return nil, fmt.Errorf("%s: a %s, not a trace (JSON Lines, stg run --save-trace)", path, f.Kind)
	}
	return f.Trace, nil
}
