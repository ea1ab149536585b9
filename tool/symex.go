package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/symex"
)

// Defaults of stg symex.
const (
	DefaultSymexDepth    = 4    // without Inclusion
	DefaultSymexMaxNodes = 2000 // TreeOptions.MaxNodes
)

// SymexOptions are the options of stg symex.
type SymexOptions struct {
	Spec      string // the spec (or system) file
	Depth     int    // unfold paths of at most Depth steps (default DefaultSymexDepth without Inclusion)
	Inclusion bool   // restrict the tree by inclusion (Def. 11); calls uninterpreted unless Tree.Functions says summaries (refused)
	Tree      TreeOptions
	TablesOut string // write the enriched tables to this file

	Format    string // text (the default), yaml, dot or json
	Stats     bool   // print the figures of the tree only
	TauReduce bool   // with text: print the τ-reduced tree
	Output    string // write to this file instead of stdout
}

// EnsureDefaults sets the options left zero to their defaults.
func (o *SymexOptions) EnsureDefaults() {
	o.Tree.ensureDefaults(DefaultSymexMaxNodes)
	if o.Tree.Functions == "" {
		o.Tree.Functions = "summaries"
		if o.Inclusion && o.Tree.M == 0 && !o.Tree.NoDep && !o.Tree.PerCall && o.TablesOut == "" {
			// Restriction by inclusion compares states without
			// summaries: calls uninterpreted, whose inclusion holds
			// for every interpretation, the true functions included
			// (as symex.Executor.KInclusion builds its tree).
			o.Tree.Functions = "uninterpreted"
		}
	}
	if o.Depth == 0 && !o.Inclusion {
		o.Depth = DefaultSymexDepth
	}
	if o.Format == "" {
		o.Format = "text"
	}
}

// Validate checks the options, worded after stg symex's flags.
func (o *SymexOptions) Validate() error {
	if o.Depth < 0 || o.Tree.MaxNodes < 1 {
		return errors.New("--depth must be >= 0 and --max-nodes positive")
	}
	if err := o.Tree.validate(o.TablesOut != ""); err != nil {
		return err
	}
	switch o.Format {
	case "text", "yaml", "dot", "json":
		return nil
	}
	return fmt.Errorf("--format must be text, yaml, dot or json, not %q", o.Format)
}

// Symex is stg symex: it unfolds the symbolic execution tree of the
// spec o.Spec and writes it, or its figures (Stats), to stdout or
// o.Output, the enriched tables to o.TablesOut; progress, bounds and
// warnings go to stderr.
func Symex(o SymexOptions, stdout, stderr io.Writer) error {
	o.EnsureDefaults()
	if err := o.Validate(); err != nil {
		return InputError(err)
	}
	for _, out := range []struct{ flag, path string }{{"-o", o.Output}, {"--tables-out", o.TablesOut}} {
		if err := RefuseOverwrite("stg symex: "+out.flag, out.path, o.Spec, o.Tree.Tables); err != nil {
			return InputError(err)
		}
	}
	m, err := o.Tree.loadSpec(o.Spec, "%s: stg symex executes a spec, not a %s")
	if err != nil {
		return InputError(err)
	}
	opts := o.Tree.symexOptions()
	opts.Depth, opts.Inclusion = o.Depth, o.Inclusion
	e, release, err := o.Tree.executor(m, o.Spec, opts, stderr)
	if err != nil {
		return err
	}
	defer release()
	for _, n := range e.Notes {
		fmt.Fprintln(stderr, pipeline.Warning(n))
	}
	start := time.Now()
	tree, err := e.Execute(func(n int) { fmt.Fprintf(stderr, "stg symex: %d nodes\n", n) })
	if err != nil {
		return InputError(err)
	}
	fig := symexFiguresOf(e, tree, opts, time.Since(start))
	warnTree(stderr, tree, opts)
	if o.TablesOut != "" {
		data, err := e.Tab().Marshal(m)
		if err != nil {
			return InputError(err)
		}
		if err := WriteOutput(nil, o.TablesOut, data); err != nil {
			return err
		}
	}
	var out bytes.Buffer
	if o.TauReduce && o.Format == "text" && !o.Stats {
		err = symex.WriteTauText(&out, symex.TauReduce(tree.Root), m.Variables)
	} else {
		err = writeTree(&out, m, tree, fig, o.Format, o.Stats)
	}
	if err != nil {
		return InputError(err)
	}
	return WriteOutput(stdout, o.Output, out.Bytes())
}

// warnTree tells on stderr that the tree reached its bound or kept
// nodes the solver could not decide.
func warnTree(stderr io.Writer, tree *symex.Tree, opts symex.Options) {
	if tree.Stats.BoundReached {
		fmt.Fprintf(stderr, "stg symex: bound reached: the tree has more than %d nodes (--max-nodes); it is shown as far as unfolded\n", opts.MaxNodes)
		if opts.Inclusion {
			fmt.Fprintf(stderr, "stg symex: the tree restricted by inclusion is infinite or larger than the bound%s\n", growingNote(tree))
		}
	}
	if tree.Stats.Undecided > 0 {
		fmt.Fprintf(stderr, "stg symex: %d node(s) kept because the solver could not decide their path condition\n", tree.Stats.Undecided)
	}
}

// growingNote names the variables that keep taking new values.
func growingNote(t *symex.Tree) string {
	g := t.Growing(10)
	if len(g) == 0 {
		return ""
	}
	return "; variables taking ever new values at one location: " + strings.Join(g, ", ") + " (a counter that grows for ever keeps every new node apart)"
}

// writeTree writes the tree, or its figures with stats, in format.
func writeTree(w io.Writer, m *spec.Model, tree *symex.Tree, f symexFigures, format string, stats bool) error {
	s := tree.Stats
	switch {
	case stats && format == "json":
		return writeJSON(w, f)
	case stats:
		return f.writeText(w)
	case format == "dot":
		_, err := io.WriteString(w, emit.TreeDOT("symbolic execution of "+m.Name, tree.Nodes, m.Variables, nil).String())
		return err
	case format == "json":
		return symex.WriteJSON(w, tree.Nodes, s, nil)
	case format == "yaml":
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
