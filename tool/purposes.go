package tool

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// DefaultPurposesMaxNodes is the default bound of the tree of stg
// purposes (TreeOptions.MaxNodes).
const DefaultPurposesMaxNodes = 100000

// PurposesOptions are the options of stg purposes.
type PurposesOptions struct {
	Spec       string // the spec (or system) file; the system with On
	Length     int    // accept the paths of length Length (TG_N)
	KInclusion int    // or: the K-inclusion criterion
	Split      bool   // one purpose per accept node, into the directory Output
	Output     string // write to this file (a directory with Split) instead of stdout
	Format     string // yaml (a sympurpose, the default), dot or text; json with Stats
	Stats      bool   // print the counts of nodes, accept, skip and bottom only
	// Tree.Functions defaults to summaries when an external function of
	// the spec has a table row or an implementation, else uninterpreted.
	Tree TreeOptions

	// On, when not empty, makes Spec a system: the purposes are the
	// projections of its behaviours onto the sub-system On (Def 18),
	// the path to the node Path (>= 0) or every maximal behaviour.
	On        string
	Path      int
	AllLeaves bool
}

// EnsureDefaults sets the options left zero to their defaults.
func (o *PurposesOptions) EnsureDefaults() {
	o.Tree.ensureDefaults(DefaultPurposesMaxNodes)
	if o.Format == "" {
		o.Format = "yaml"
	}
}

// Validate checks the options, worded after stg purposes' flags.
func (o *PurposesOptions) Validate() error {
	if o.On != "" {
		if o.Length > 0 || o.KInclusion > 0 || o.Split || o.Stats {
			return errors.New("--on takes no criterion: the system's behaviours are the purposes")
		}
		return o.projection().validate(true)
	}
	n, k := o.Length, o.KInclusion
	if (n > 0) == (k > 0) || n < 0 || k < 0 {
		return errors.New("give a positive --length N or --k-inclusion K (one of them)")
	}
	if o.Split && o.Output == "" && !o.Stats {
		return errors.New("--split writes one file per purpose: give -o DIR")
	}
	if err := o.Tree.validate(false); err != nil {
		return err
	}
	switch {
	case o.Stats, o.Format == "yaml", o.Format == "dot", o.Format == "text":
		return nil
	}
	return fmt.Errorf("--format must be yaml, dot or text (json with --stats), not %q", o.Format)
}

func (o *PurposesOptions) projection() Projection {
	return Projection{System: o.Spec, On: o.On, Path: o.Path, AllLeaves: o.AllLeaves, SolverTimeout: o.Tree.SolverTimeout}
}

// Purposes is stg purposes: it builds the symbolic test purpose of the
// criterion on the spec's symbolic execution tree (AGATHA, Def. 13) and
// writes it, its split or its counts to stdout or o.Output; with On,
// the purposes of the projected behaviours of a system.
func Purposes(o PurposesOptions, stdout, stderr io.Writer) error {
	o.EnsureDefaults()
	if err := o.Validate(); err != nil {
		return InputError(err)
	}
	if o.On != "" {
		return projectPurposes(o.projection(), o.Output, stdout, stderr)
	}
	m, err := o.Tree.loadSpec(o.Spec, "%s: stg purposes needs a spec, not a %s")
	if err != nil {
		return InputError(err)
	}
	tree := o.Tree
	if tree.Functions == "" {
		tree.Functions = purposeFunctions(m)
		if err := tree.validate(false); err != nil {
			return InputError(err)
		}
	}
	e, release, err := tree.executor(m, o.Spec, tree.symexOptions(), stderr)
	if err != nil {
		return err
	}
	defer release()
	var p *symex.Purpose
	if o.Length > 0 {
		p, err = e.Length(o.Length)
	} else {
		p, err = e.KInclusion(o.KInclusion)
	}
	if err != nil {
		return InputError(fmt.Errorf("%s: %v", o.Spec, err))
	}
	return o.write(m, p, stdout, stderr)
}

// purposeFunctions returns the default treatment of the calls of m's
// external functions: summaries when one has a table row or an
// implementation (the purposes' paths are then ones the tables
// explain), else uninterpreted.
func purposeFunctions(m *spec.Model) string {
	for _, f := range m.Funcs {
		if f.IsExternal() && (len(f.Table) > 0 || f.Impl != "") {
			return "summaries"
		}
	}
	return "uninterpreted"
}

// write writes p (or its split) in the requested format.
func (o *PurposesOptions) write(m *spec.Model, p *symex.Purpose, stdout, stderr io.Writer) error {
	if o.Stats {
		s := p.Stats()
		if o.Format == "json" {
			return writeJSON(stdout, s)
		}
		_, err := fmt.Fprintf(stdout, "criterion: %s\nnodes: %d\naccept: %d\nskip: %d\nbottom: %d\n", p.Criterion, s.Nodes, s.Accept, s.Skip, s.Bottom)
		return err
	}
	var out bytes.Buffer
	switch o.Format {
	case "dot":
		out.WriteString(emit.TreeDOT("purpose "+p.Criterion+" of "+m.Name, p.Nodes, m.Variables, p.Label).String())
	case "text":
		fmt.Fprintf(&out, "purpose %s of %s: %+v\n", p.Criterion, m.Name, p.Stats())
		if err := symex.WriteText(&out, p.Nodes, m.Variables, func(n *symex.Node) string { return p.Label(n).String() }); err != nil {
			return InputError(err)
		}
	case "yaml":
		if o.Split {
			return writeSplit(o.Spec, o.Output, m, p, stderr)
		}
		data, err := symPurposeFile(m, p, o.Spec, o.Output, m.Name+"-"+criterionTag(p))
		if err != nil {
			return InputError(err)
		}
		out.Write(data)
	}
	return WriteOutput(stdout, o.Output, out.Bytes())
}

// writeSplit writes one sympurpose file per accept node of p into dir.
func writeSplit(specFile, dir string, m *spec.Model, p *symex.Purpose, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return InputError(err)
	}
	base := m.Name + "-" + criterionTag(p)
	// Every file is made before any is written: an error writes nothing.
	var files, texts []string
	for _, q := range p.Split() {
		name := base + "-" + nameSafe(strings.Join(q.Accept[0].Path(), "-"))
		file := filepath.Join(dir, name+".yaml")
		data, err := symPurposeFile(m, q, specFile, file, name)
		if err != nil {
			return InputError(fmt.Errorf("%s: %v", specFile, err))
		}
		files, texts = append(files, file), append(texts, string(data))
	}
	for i, file := range files {
		if err := os.WriteFile(file, []byte(texts[i]), 0o644); err != nil {
			return InputError(err)
		}
	}
	fmt.Fprintf(stderr, "stg purposes: wrote %d purposes to %s\n", len(p.Accept), dir)
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
	return specfile.MarshalSymPurpose(sp)
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
