package tool

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/report"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// DotOptions are the options of stg dot MODEL | SPEC PURPOSE: the files
// (a purpose's spec is Spec, else the first of two Files, else the one
// spec of its directory), the Output file ("" for stdout), its Format
// (dot, svg or png), whether to draw every edge of a test case, and the
// JSON report whose Coverage colours its edges.
type DotOptions struct {
	Files    []string
	Spec     string
	Output   string
	Format   string
	AllEdges bool
	Coverage string
}

// EnsureDefaults sets the format dot when none is given.
func (o *DotOptions) EnsureDefaults() {
	if o.Format == "" {
		o.Format = "dot"
	}
}

// Dot is stg dot: a drawing of a model in Graphviz's DOT language, or
// rendered as SVG or PNG by Graphviz.
func Dot(opts DotOptions, stdout io.Writer) error {
	opts.EnsureDefaults()
	if f := opts.Format; f != "dot" && f != "svg" && f != "png" {
		return UsageError("stg dot", "unknown format %q: want dot, svg or png", f)
	}
	path, specPath, err := modelAndSpec("dot", opts.Files, opts.Spec)
	if err != nil {
		return err
	}
	if err := RefuseOverwrite("stg dot: -o", opts.Output, path, specPath, opts.Coverage); err != nil {
		return InputError(err)
	}
	f, m, err := loadDrawn(path, specPath)
	if err != nil {
		return InputError(err)
	}
	var out []byte
	if f.Kind == spec.SymPurposeKind {
		err = onSymPurposeTree(f.SymPurpose, func(p *symex.Purpose, m *spec.Model) error {
			out = []byte(emit.TreeDOT("sympurpose "+f.SymPurpose.Name, p.Nodes, m.Variables, p.Label).String())
			return nil
		})
		if err != nil {
			return InputError(err)
		}
	} else if out, err = drawModel(m, opts); err != nil {
		return InputError(err)
	}
	if opts.Format != "dot" {
		if out, err = graphviz(out, opts.Format); err != nil {
			return InputError(err)
		}
	}
	if f.Kind == spec.SymPurposeKind {
		return WriteOutput(stdout, opts.Output, out)
	}
	if opts.Output != "" {
		if err := os.WriteFile(opts.Output, out, 0o644); err != nil {
			return InputError(err)
		}
		return nil
	}
	_, err = stdout.Write(out)
	return err
}

// modelAndSpec reads the positional files of stg cmd (dot, view): one
// file, with specFlag its spec, or a spec and a purpose.
func modelAndSpec(cmd string, files []string, specFlag string) (path, specPath string, err error) {
	switch {
	case len(files) == 2 && specFlag == "":
		if err := SwappedSpecPurpose(cmd, files[0], files[1]); err != nil {
			return "", "", InputError(err)
		}
		return files[1], files[0], nil
	case len(files) != 1:
		what := map[string]string{"dot": "one model", "view": "one file"}[cmd]
		return "", "", UsageError("stg "+cmd, "stg %s takes %s (or a spec and a purpose)", cmd, what)
	}
	return files[0], specFlag, nil
}

// loadDrawn reads the file path that stg dot or stg view shows, and its
// model: a purpose with its spec (specPath, else the one beside it), a
// system flattened; a sympurpose has no model.
func loadDrawn(path, specPath string) (*specfile.File, *spec.Model, error) {
	var sp *spec.Model
	if specPath != "" {
		var err error
		if sp, err = LoadModel(specPath, nil); err != nil {
			return nil, nil, err
		}
		if sp.Kind != spec.SpecKind {
			return nil, nil, fmt.Errorf("%s: --spec names a %s, not a spec", specPath, sp.Kind)
		}
	}
	f, err := Open(path)
	if err != nil && (f == nil || f.Kind != spec.PurposeKind) {
		return nil, nil, err
	}
	switch {
	case f.Kind == spec.SymPurposeKind:
		return f, nil, nil
	case f.Kind == spec.PurposeKind && sp == nil:
		if sp, err = siblingSpec(path); err != nil {
			return nil, nil, err
		}
	case f.Kind != spec.PurposeKind && sp != nil:
		return nil, nil, fmt.Errorf("%s: a spec is given, so this must be a purpose, not a %s", path, f.Kind)
	}
	m, err := ModelOf(f, sp)
	return f, m, err
}

// drawModel draws the model m, its edges coloured by opts.Coverage.
func drawModel(m *spec.Model, opts DotOptions) ([]byte, error) {
	dopts := emit.DrawOptions{AllEdges: opts.AllEdges}
	if opts.Coverage != "" {
		var takenIntoFail bool
		var err error
		if dopts.Coverage, takenIntoFail, err = drawCoverage(opts.Coverage, m); err != nil {
			return nil, err
		}
		dopts.AllEdges = dopts.AllEdges || takenIntoFail
	}
	return []byte(emit.DrawDOT(m, dopts).String()), nil
}

// graphviz renders a DOT text with Graphviz's dot program.
func graphviz(src []byte, format string) ([]byte, error) {
	out, err := emit.Render(src, format)
	if errors.Is(err, emit.ErrNoGraphviz) {
		return nil, fmt.Errorf("Graphviz's dot is not installed; use --format dot")
	}
	return out, err
}

// onSymPurposeTree calls show with the symbolic purpose sp on its spec's
// symbolic execution tree (accept nodes, skip, ⊥) and the spec, for a
// drawing; the solver lives until show returns.
func onSymPurposeTree(sp *spec.SymPurpose, show func(*symex.Purpose, *spec.Model) error) error {
	m, err := LoadModel(sp.SpecPath(), nil)
	if err != nil {
		return err
	}
	names := symex.Names(m)
	if err := sp.Check(m, func(t *spec.Transition) string { return names[t] }); err != nil {
		return err
	}
	z, err := solver.NewContext()
	if err != nil {
		return err
	}
	defer z.Close()
	z.SetTimeout(DefaultSolverTimeout)
	e, err := symex.NewExecutor(z, m, symex.Options{})
	if err != nil {
		return err
	}
	var paths [][]string
	for _, a := range sp.Accept {
		paths = append(paths, a.Names)
	}
	p, err := e.PurposeOf(sp.Name, paths)
	if err != nil {
		return fmt.Errorf("%s: %v", sp.File, err)
	}
	return show(p, m)
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
		if k, ok := kindOf(f); ok && (k == spec.SpecKind || k == spec.SystemKind) {
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
		sp, err := LoadModel(specs[0], nil)
		if err != nil {
			return nil, fmt.Errorf("%v (the spec of %s, found beside it; --spec names another)", err, purpose)
		}
		return sp, nil
	}
	return nil, fmt.Errorf("%s: a purpose is drawn with its spec, and its directory has several (%s): stg dot --spec SPEC %s", purpose, strings.Join(specs, ", "), purpose)
}

// drawCoverage reads the coverage of a JSON report of stg run
// (--report-json, or stg report merge -o) for a drawing of the test case
// m: the coverage of each transition, and whether a transition that the
// drawing would sum up in a note (an output into Fail) was taken, so that
// every edge must be drawn.
func drawCoverage(path string, m *spec.Model) (map[*spec.Transition]emit.EdgeCoverage, bool, error) {
	rep, err := report.ReadJSON(path)
	if err != nil {
		return nil, false, err
	}
	switch {
	case m.Kind != spec.TestcaseKind:
		return nil, false, fmt.Errorf("--coverage colours a testcase, not a %s", m.Kind)
	case rep.Coverage == nil:
		return nil, false, fmt.Errorf("%s: the report has no coverage (stg run writes it with --report-json)", path)
	case rep.Testcase != m.Name || len(rep.Coverage.Trans) != len(m.Transitions):
		return nil, false, fmt.Errorf("%s: the report is of test case %s (%d transitions), not of %s (%d)", path, rep.Testcase, len(rep.Coverage.Trans), m.Name, len(m.Transitions))
	}
	cov := map[*spec.Transition]emit.EdgeCoverage{}
	allEdges := false
	for i, t := range m.Transitions {
		jt := rep.Coverage.Trans[i]
		if jt.Label != t.Label() {
			return nil, false, fmt.Errorf("%s: transition %d is %s in the report, %s in the test case", path, i, jt.Label, t.Label())
		}
		cov[t] = emit.EdgeCoverage{Taken: jt.Taken, Unreachable: jt.Reach == "unreachable", Depth: rep.Coverage.Depth}
		allEdges = allEdges || jt.Taken > 0 && m.Verdict(t.To) == "fail"
	}
	return cov, allEdges, nil
}
