package tool

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/compose"
	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
)

// Bounds of the search for a run to Pass that generate makes with
// --domain none or interval: runs of at most passDepth steps (the
// property tests' bound; every example passes within it), at most
// passBudget solver queries.
const (
	passDepth  = 12
	passBudget = 2000
)

// GenerateOptions are the options of stg generate SPEC PURPOSE
// [PURPOSE...]: the files, the output (Output, "" for stdout; a
// directory for several purposes in yaml or dot), its Format (yaml, dot
// or go) and Package (go), the abstract Domain (none, interval or
// polyhedra), the treatment of external functions (Functions: tables or
// uninterpreted; Tables replaces the spec's tables), the bound of each
// solver query, and what to print on stderr (Explain: reach and coreach;
// Verbose: each stage's size and duration). Annotate writes reach and
// coreach into the test case too (its analysis: section; yaml and go).
type GenerateOptions struct {
	Spec          string
	Purposes      []string
	Output        string
	Format        string
	Package       string
	Domain        string
	Functions     string
	Tables        string
	SolverTimeout time.Duration
	Explain       bool
	Annotate      bool
	Verbose       bool
}

// EnsureDefaults sets the defaults of stg generate: yaml, polyhedra,
// tables. SolverTimeout has none here: zero is refused, as
// --solver-timeout 0 is (stg's default is DefaultSolverTimeout).
func (o *GenerateOptions) EnsureDefaults() {
	if o.Format == "" {
		o.Format = "yaml"
	}
	if o.Domain == "" {
		o.Domain = "polyhedra"
	}
	if o.Functions == "" {
		o.Functions = "tables"
	}
}

// Generate is stg generate: the test case of the STG method for each
// purpose, written as YAML, DOT or Go.
func Generate(opts GenerateOptions, stdout, stderr io.Writer) error {
	opts.EnsureDefaults()
	if len(opts.Purposes) == 0 {
		return UsageError("stg generate", "stg generate needs SPEC and PURPOSE")
	}
	popts, err := opts.pipeline(stderr)
	if err != nil {
		return err
	}
	if len(opts.Purposes) > 1 {
		return generateSeveral(opts, popts, stdout, stderr)
	}
	inputs := []string{opts.Spec, opts.Purposes[0]}
	if err := RefuseOverwrite("stg generate: -o", opts.Output, inputs...); err != nil {
		return InputError(err)
	}
	tc, _, err := generateOne(opts.Spec, opts.Purposes[0], popts, outputDir(opts.Output))
	if err != nil {
		return generateError(opts.Spec, opts.Purposes[0], err)
	}
	out, err := opts.encode(tc, stderr)
	if err != nil {
		return InputError(err)
	}
	return WriteOutput(stdout, opts.Output, out)
}

// generateError is the input error of a generation from specPath and
// purposePath that failed with err, or, when the two files are a
// purpose and a spec, the hint that they are the wrong way round. The
// hint is sought only once generation has failed (swapped files always
// fail): reading each file's kind parses it, which a large spec pays
// for in time.
func generateError(specPath, purposePath string, err error) error {
	if e := SwappedSpecPurpose("generate", specPath, purposePath); e != nil {
		return InputError(e)
	}
	return InputError(err)
}

// generateMemoryLimit is the soft limit on the Go memory of stg
// generate (pipeline.Options.MemoryLimit): the collector runs before the
// heap doubles while the live heap stays well under it, which keeps the
// peak of a large generation near 190 MiB (the Z3 library and its
// contexts come on top of it; docs/performance-generation.md), and it
// gives way to the collector's default on larger models.
const generateMemoryLimit = 128 << 20

// pipeline checks the options and returns the pipeline's.
func (o GenerateOptions) pipeline(stderr io.Writer) (pipeline.Options, error) {
	const cmd = "stg generate"
	popts := pipeline.Options{Domain: o.Domain, Warn: stderr, QueryTimeout: o.SolverTimeout, Tables: o.Tables, Annotate: o.Annotate,
		MemoryLimit: generateMemoryLimit}
	switch o.Domain {
	case "none", "interval", "polyhedra":
	default:
		return popts, UsageError(cmd, "unknown --domain %q: want none, interval or polyhedra", o.Domain)
	}
	if o.SolverTimeout <= 0 {
		return popts, UsageError(cmd, "--solver-timeout must be positive")
	}
	var err error
	if popts.Functions, err = pipeline.ParseFunctions(o.Functions); err != nil {
		return popts, UsageError(cmd, "--functions must be tables or uninterpreted, not %q", o.Functions)
	}
	if o.Tables != "" && popts.Functions == pipeline.Uninterpreted {
		return popts, UsageError(cmd, "--tables needs --functions tables")
	}
	if o.Verbose {
		popts.Progress = stderr
	}
	if o.Explain {
		popts.Explain = stderr
	}
	switch o.Format {
	case "yaml", "go":
	case "dot":
		if o.Annotate {
			return popts, UsageError(cmd, "--annotate writes the analysis into a YAML test case (--format yaml, or go, which embeds it), not into DOT")
		}
	default:
		return popts, UsageError(cmd, "unknown --format %q: want yaml, dot or go", o.Format)
	}
	return popts, nil
}

// generateOne generates the test case of the spec file specPath (or
// system) and the purpose file purposePath, warns where no run to Pass
// is known, and anchors its impl: commands for a file written to outDir.
// It returns the test case and the name of the spec.
func generateOne(specPath, purposePath string, opts pipeline.Options, outDir string) (*spec.Model, string, error) {
	res, err := generateFiles(specPath, purposePath, opts)
	if err != nil {
		return nil, "", err
	}
	if opts.Domain != "polyhedra" {
		if err := warnPassReachable(res.Testcase, opts.QueryTimeout, opts.Warn); err != nil {
			return nil, "", err
		}
	}
	if err := extfunc.AnchorImpls(res.Testcase, outDir); err != nil { // impl: commands keep their directory
		return nil, "", err
	}
	return res.Testcase, res.Spec.Name, nil
}

// generateFiles is pipeline.Generate, except that the spec may be a
// system, composed into its flat spec first; the spec is read once.
func generateFiles(specPath, purposePath string, opts pipeline.Options) (*pipeline.Result, error) {
	f, err := specfile.Open(specPath)
	switch {
	case err == nil && f.Kind == spec.SystemKind:
		s, err := compose.Flatten(f.System)
		if err != nil {
			return nil, err
		}
		return pipeline.GenerateFor(s, purposePath, opts)
	case err == nil && f.Kind == spec.SpecKind:
		return pipeline.GenerateFor(f.Model, purposePath, opts)
	}
	return pipeline.Generate(specPath, purposePath, opts) // for its message
}

// warnPassReachable warns on w when no feasible run of at most passDepth
// steps of tc is known to reach Pass.
func warnPassReachable(tc *spec.Model, timeout time.Duration, w io.Writer) error {
	ctx, err := solver.NewContext()
	if err != nil {
		return fmt.Errorf("cannot start the solver: %v", err)
	}
	defer ctx.Close()
	ctx.SetTimeout(timeout)
	if err := assumeTables(ctx, tc); err != nil {
		return fmt.Errorf("test case %s: %v", tc.Name, err)
	}
	r, err := check.PassReachable(ctx, tc, passDepth, passBudget)
	if err != nil {
		return fmt.Errorf("test case %s: searching a run to Pass: %v", tc.Name, err)
	}
	switch r {
	case solver.Unsat:
		fmt.Fprintln(w, pipeline.Warning(fmt.Sprintf("test case %s: no run of at most %d steps reaches Pass; the analysis of this domain may have kept paths that cannot (try --domain polyhedra)", tc.Name, passDepth)))
	case solver.Unknown:
		fmt.Fprintln(w, pipeline.Warning(fmt.Sprintf("test case %s: not known whether a run of at most %d steps reaches Pass (the search was undecided or ran past %d solver queries)", tc.Name, passDepth, passBudget)))
	}
	return nil
}

// encode is pipeline.Encode with stg generate's package rule and
// warnings for --format go.
func (o GenerateOptions) encode(tc *spec.Model, stderr io.Writer) ([]byte, error) {
	if o.Format != "go" {
		return pipeline.Encode(tc, o.Format, "")
	}
	o.warnGoFile(stderr)
	return emit.GoSource(tc, o.goPackage())
}

// goPackage returns the package clause of --format go: Package, else
// the one that compiles beside the Go files of the output's directory
// (emit.GoPackageFor: P_test beside package P, stgtests in a directory
// without Go files or on stdout). It never depends on the purpose, so
// that the files of several purposes share a directory.
func (o GenerateOptions) goPackage() string {
	if o.Package != "" {
		return o.Package
	}
	if o.Output != "" {
		return emit.GoPackageFor(filepath.Dir(o.Output))
	}
	return emit.DefaultGoPackage
}

// warnGoFile warns when --format go writes to a file go test ignores.
func (o GenerateOptions) warnGoFile(stderr io.Writer) {
	if out := o.Output; out != "" && !strings.HasSuffix(out, "_test.go") {
		fmt.Fprintf(stderr, "warning: %s does not end in _test.go: go test will not run it (name it e.g. %s)\n", out, strings.TrimSuffix(strings.TrimSuffix(out, ".go"), "_test")+"_test.go")
	}
}

// generateSeveral is stg generate SPEC PURPOSE PURPOSE...: one test case
// per purpose. --format go writes them into one Go file, a table-driven
// test named after the spec; yaml and dot need -o DIR, a directory that
// gets one file per test case, NAME.tc.yaml or NAME.dot.
func generateSeveral(o GenerateOptions, popts pipeline.Options, stdout, stderr io.Writer) error {
	inputs := append([]string{o.Spec}, o.Purposes...)
	if o.Format != "go" {
		if st, err := os.Stat(o.Output); o.Output == "" || err != nil || !st.IsDir() {
			return UsageError("stg generate", "several purposes are written with --format go (one table-driven test) or, one file each, with -o DIR naming a directory")
		}
	} else if err := RefuseOverwrite("stg generate: -o", o.Output, inputs...); err != nil {
		return InputError(err)
	}
	dir := o.Output // yaml, dot: -o DIR
	if o.Format == "go" {
		dir = outputDir(o.Output)
	}
	var tcs []*spec.Model
	var specName string
	for _, p := range o.Purposes {
		tc, name, err := generateOne(o.Spec, p, popts, dir)
		if err != nil {
			return generateError(o.Spec, p, err)
		}
		specName, tcs = name, append(tcs, tc)
	}
	if o.Format == "go" {
		o.warnGoFile(stderr)
		src, err := emit.GoTableSource(specName, tcs, o.goPackage())
		if err != nil {
			return InputError(err)
		}
		return WriteOutput(stdout, o.Output, src)
	}
	return writeEach(o, tcs, inputs, stdout)
}

// writeEach writes each test case of tcs to its file in the directory
// o.Output.
func writeEach(o GenerateOptions, tcs []*spec.Model, inputs []string, stdout io.Writer) error {
	ext := map[string]string{"yaml": ".tc.yaml", "dot": ".dot"}[o.Format]
	for _, tc := range tcs {
		data, err := pipeline.Encode(tc, o.Format, "")
		if err != nil {
			return InputError(err)
		}
		path := filepath.Join(o.Output, tc.Name+ext)
		if err := RefuseOverwrite("stg generate: -o", path, inputs...); err != nil {
			return InputError(err)
		}
		if err := WriteOutput(stdout, path, data); err != nil {
			return err
		}
	}
	return nil
}

// outputDir is the directory of the output file path, "" for stdout.
func outputDir(path string) string {
	if path == "" {
		return ""
	}
	return filepath.Dir(path)
}
