package tool

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/pipeline"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// TreeOptions are the options of the symbolic execution tree of a spec
// that stg symex and stg purposes share: the bound, quiescence, the
// calls of external functions (the function-summaries paper's SolveTab)
// and the order of expansion.
type TreeOptions struct {
	MaxNodes  int    // stop after MaxNodes nodes (default: the command's)
	Delta     string // quiescence leads to a "sink" (the default), "loop"s or is left out ("none")
	Functions string // calls of external functions: "summaries" or "uninterpreted" (default: the command's)
	Tables    string // a tables file whose rows are added to the spec's
	M         int    // SolveTab may execute the implementations up to M times per node
	NoDep     bool   // leave Dep out of SolveTab's search for new inputs
	PerCall   bool   // SolveTab first searches new inputs for one call at a time
	Order     string // expand the tree "bfs" (the default) or "dfs"

	CallTimeout   time.Duration // bound of each call of an implementation (default extfunc.DefaultTimeout)
	SolverTimeout time.Duration // bound of each solver query (default pipeline.DefaultQueryTimeout)
}

// errSummaryOnly is the misuse of SolveTab's options without summaries.
var errSummaryOnly = errors.New("--m, --no-dep, --per-call and --tables-out need --functions summaries")

// ensureDefaults sets the options left zero, MaxNodes to maxNodes.
func (o *TreeOptions) ensureDefaults(maxNodes int) {
	if o.MaxNodes == 0 {
		o.MaxNodes = maxNodes
	}
	if o.Delta == "" {
		o.Delta = "sink"
	}
	if o.Order == "" {
		o.Order = "bfs"
	}
	if o.CallTimeout == 0 {
		o.CallTimeout = extfunc.DefaultTimeout
	}
	if o.SolverTimeout == 0 {
		o.SolverTimeout = pipeline.DefaultQueryTimeout
	}
}

// validate checks the options; tablesOut tells whether enriched tables
// are to be written (an option of the summaries too).
func (o *TreeOptions) validate(tablesOut bool) error {
	switch o.Delta {
	case "sink", "loop", "none":
	default:
		return fmt.Errorf("--delta must be sink, loop or none, not %q", o.Delta)
	}
	switch o.Functions {
	case "", "summaries":
	case "uninterpreted":
		if o.M != 0 || o.NoDep || o.PerCall || tablesOut {
			return errSummaryOnly
		}
	default:
		return fmt.Errorf("--functions must be summaries or uninterpreted, not %q", o.Functions)
	}
	switch o.Order {
	case "bfs", "dfs":
	default:
		return fmt.Errorf("--order must be bfs or dfs, not %q", o.Order)
	}
	if o.M < 0 {
		return errors.New("--m must be >= 0")
	}
	return nil
}

// symexOptions returns the options of the executor.
func (o *TreeOptions) symexOptions() symex.Options {
	opts := symex.Options{MaxNodes: o.MaxNodes, DeltaLoop: o.Delta == "loop", NoDelta: o.Delta == "none"}
	if o.Functions == "summaries" {
		opts.Functions = symex.Summaries
	}
	if o.Order == "dfs" {
		opts.Order = symex.DFS
	}
	opts.Summary.M, opts.Summary.NoDep, opts.Summary.PerCall = o.M, o.NoDep, o.PerCall
	return opts
}

// loadSpec reads the spec file (a system is composed) and adds the rows
// of o.Tables; notSpec words the error for another kind of model, with
// the file and the kind.
func (o *TreeOptions) loadSpec(file, notSpec string) (*spec.Model, error) {
	m, err := LoadModel(file, nil)
	if err != nil {
		return nil, err
	}
	if m.Kind != spec.SpecKind {
		return nil, fmt.Errorf(notSpec, file, m.Kind)
	}
	if o.Tables != "" {
		if err := specfile.LoadTables(o.Tables, m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// executor returns the symbolic executor of the spec m, read from file,
// with opts: with summaries, SolveTab runs the implementations of m's
// functions in file's directory. The function returned releases the
// solver and the implementations. Its errors are InputErrors.
func (o *TreeOptions) executor(m *spec.Model, file string, opts symex.Options, stderr io.Writer) (*symex.Executor, func(), error) {
	release := func() {}
	if opts.Functions == symex.Summaries {
		reg, err := extfunc.New(m.Funcs, extfunc.Options{Timeout: o.CallTimeout, Dir: filepath.Dir(file), Stderr: stderr})
		if err != nil {
			return nil, nil, InputError(err)
		}
		opts.Summary.Exec, release = reg.Exec, func() { reg.Close() }
	}
	z, err := solver.NewContext()
	if err != nil {
		release()
		return nil, nil, InputError(err)
	}
	z.SetTimeout(o.SolverTimeout)
	e, err := symex.NewExecutor(z, m, opts)
	if err != nil {
		z.Close()
		release()
		return nil, nil, InputError(err)
	}
	return e, func() { z.Close(); release() }, nil
}
