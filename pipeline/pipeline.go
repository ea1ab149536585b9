// Package pipeline chains the stages of test generation, from a spec
// file and a purpose file to a test case: load and check, suspension and
// canonical tester (canonical), product with the purpose (product),
// co-reachability analysis (coreach), Keep/Inconc selection and
// mirroring (selection). Each stage is a function from model to model;
// this package only wires them and owns the solver context of one run.
//
// # External functions
//
// The stages treat the calls of a spec's external functions as
// uninterpreted functions: a guard INTGR(v) > 200 may hold for any v, an
// over-approximation that keeps every behaviour the real function may
// have. With Options.Functions == Tables (the default) the rows of the
// functions' tables (expr.Func.Table: the spec's table:, its tables:
// file, or Options.Tables) are moreover premises of every solver
// question of the run (solver.Context.SetFacts): ground equalities
// INTGR(123, 96) == 228, true of the functions (a row is a tuple the
// function is known to give; stg run answers a call from the table
// first). Where they decide a guard (its arguments fixed to a row's
// inputs by the guard itself, by the purpose's guard, or by the reach of
// the earlier steps) every stage decides it as a guard without calls: a
// product transition the rows rule out is not built (a purpose that
// needs it is unreachable), a transition they rule out is not selected;
// in the test case's guards that call functions, the disjuncts they rule
// out and the conjuncts with calls they imply are dropped (decide.go),
// so that the guard reads as decided. Such a guard is equivalent to the
// old one wherever the facts hold, and stg check and stg run check a
// test case under the rows it carries. Where they do not, the call
// stays free: the test case is the uninterpreted one, sound for any
// function consistent with the tables. The abstract domains of the
// co-reachability analysis see no call (a comparison with a call is
// over-approximated by true), so the facts act through the solver
// questions of the other stages only. The reference implementations
// (impl:, Go functions) are never run at generation time; defined
// functions (def:) are inlined by the parser and never are calls. The
// function-summaries paper (Boudhiba, Gaston, Le Gall and Prévosto,
// TAP 2017; the DIVERSITY tool) decides guards by
// the tables alone (Sums, Def. 5), which drops the behaviours of inputs
// outside them; that is right for exploring (stg symex) but would make
// a test case fail a conformant SUT, so generation keeps them.
//
// The test case copies the functions with their rows, so stg run
// evaluates the calls with the tables the test case was decided with.
package pipeline

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"time"

	"github.com/stg-tool/stg/abstraction"
	"github.com/stg-tool/stg/canonical"
	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/coreach"
	"github.com/stg-tool/stg/emit"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/product"
	"github.com/stg-tool/stg/selection"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// Options of Generate.
type Options struct {
	// GCPercent and MemoryLimit, when positive, are the garbage
	// collector's settings during GenerateFor (the previous ones are
	// restored), for a command that generates and exits. GCPercent is
	// debug.SetGCPercent's. MemoryLimit is a soft limit on the Go
	// memory (debug.SetMemoryLimit) kept while the live heap stays under
	// 4/5 of it, and raised to twice the live heap once it does not, so
	// that a large model never makes the collector run without end
	// (heap.go). Both trade memory for time or back: see
	// docs/performance-generation.md for measured settings.
	GCPercent   int
	MemoryLimit int64
	// Domain is the abstract domain of the analysis: "none", "interval"
	// or "polyhedra" (the default).
	Domain string
	// Explain, when set, receives the reach and coreach predicates of
	// every product location.
	Explain io.Writer
	// Annotate, when set, writes the same predicates into the test case:
	// its Analysis (spec.Analysis, the analysis: section of its file).
	Annotate bool
	// Progress, when set, receives a line per stage with its size and
	// duration, for long generations.
	Progress io.Writer
	// Warn, when set, receives the approximations made on the way (for
	// example quiescence next to non-linear output guards).
	Warn io.Writer
	// QueryTimeout bounds each solver query (default
	// DefaultQueryTimeout); a query that times out makes generation fail
	// with Z3's reason rather than hang.
	QueryTimeout time.Duration
	// Functions says what the solver knows of external functions: the
	// rows of their tables (Tables, the default) or nothing.
	Functions Functions
	// Tables, when set, is a tables file (kind: tables) whose rows
	// replace the spec's tables (Generate and GenerateFor only).
	Tables string
}

// Functions is the treatment of the calls of external functions.
type Functions int

const (
	// Tables: calls are uninterpreted functions, and the rows of the
	// functions' tables are premises of every solver question.
	Tables Functions = iota
	// Uninterpreted: calls are uninterpreted functions, nothing more
	// (the baseline of the function-summaries paper).
	Uninterpreted
)

func (f Functions) String() string {
	if f == Uninterpreted {
		return "uninterpreted"
	}
	return "tables"
}

// ParseFunctions reads "tables" or "uninterpreted".
func ParseFunctions(s string) (Functions, error) {
	switch s {
	case "tables", "":
		return Tables, nil
	case "uninterpreted":
		return Uninterpreted, nil
	}
	return 0, fmt.Errorf("unknown functions %q: want tables or uninterpreted", s)
}

// DefaultQueryTimeout is the bound of each solver query when
// Options.QueryTimeout is zero.
const DefaultQueryTimeout = 60 * time.Second

// Result is what Generate produced, stage by stage.
type Result struct {
	Spec, Purpose *spec.Model
	Tester        *canonical.Tester
	Product       *product.Product
	Analysis      *coreach.Result
	Testcase      *spec.Model
	// Facts is the number of table rows the solver assumed.
	Facts int
}

// Generate runs the whole pipeline on the files specPath and purposePath.
func Generate(specPath, purposePath string, opts Options) (*Result, error) {
	s, err := specfile.LoadFile(specPath, nil)
	if err != nil {
		return nil, err
	}
	if s.Kind != spec.SpecKind {
		return nil, fmt.Errorf("%s: the first file must be a spec, not a %s", specPath, s.Kind)
	}
	return GenerateFor(s, purposePath, opts)
}

// GenerateFor runs the whole pipeline on the loaded spec s (a spec file's,
// or a system's flat spec) and the purpose file purposePath. With
// opts.Tables, the tables of s's functions are replaced by the file's.
func GenerateFor(s *spec.Model, purposePath string, opts Options) (*Result, error) {
	if opts.GCPercent > 0 {
		defer debug.SetGCPercent(debug.SetGCPercent(opts.GCPercent))
	}
	if opts.MemoryLimit > 0 {
		defer limitHeap(opts.MemoryLimit)()
	}
	if opts.Tables != "" {
		if err := replaceTables(s, opts.Tables); err != nil {
			return nil, err
		}
	}
	tp, err := specfile.LoadFile(purposePath, s)
	if err != nil {
		return nil, err
	}
	if tp.Kind != spec.PurposeKind {
		return nil, fmt.Errorf("%s: the second file must be a purpose, not a %s", purposePath, tp.Kind)
	}
	ctx, err := solver.NewContext()
	if err != nil {
		return nil, err
	}
	defer ctx.Close()
	if opts.QueryTimeout == 0 {
		opts.QueryTimeout = DefaultQueryTimeout
	}
	ctx.SetTimeout(opts.QueryTimeout)
	return Models(ctx, s, tp, opts)
}

// replaceTables replaces the tables of the functions of s by the rows
// of the tables file path.
func replaceTables(s *spec.Model, path string) error {
	for _, f := range s.Funcs {
		f.Table = nil
	}
	if err := specfile.LoadTables(path, s); err != nil {
		var el expr.ErrorList
		if errors.As(err, &el) {
			return err
		}
		return fmt.Errorf("%s: cannot read the tables: %v", path, err)
	}
	return nil
}

// Models runs the pipeline on loaded models. It sets the facts of ctx
// (solver.Context.SetFacts) to the rows of the tables of s's functions
// with opts.Functions == Tables, to none otherwise.
func Models(ctx *solver.Context, s, tp *spec.Model, opts Options) (*Result, error) {
	s = s.WithParamRanges() // spec/ranges.go: a parameter's values lie in its range
	res := &Result{Spec: s, Purpose: tp}
	if err := assumeTables(ctx, s, opts.Functions, res); err != nil {
		return nil, err
	}
	start, work := time.Now(), ctx.Stats()
	progress := func(format string, args ...any) {
		if opts.Progress != nil {
			d := ctx.Stats().Sub(work)
			fmt.Fprintf(opts.Progress, "stg: %-40s %8.3fs  Z3: %d checks, %d tactics; memo: %d hits; polyhedra: %d settled\n",
				fmt.Sprintf(format, args...), time.Since(start).Seconds(), d.Checks, d.Tactics, d.Hits, d.Settled)
			start, work = time.Now(), ctx.Stats()
		}
	}
	det, err := check.Determinism(ctx, s)
	if err != nil {
		return nil, err
	}
	// A pair the solver cannot decide is refused too: the later stages
	// assume a deterministic spec, and a test case built from a
	// non-deterministic one could fail a conformant SUT.
	if errs := append(det.Errors, det.Undecided...); len(errs) > 0 {
		return nil, expr.ErrorList(errs).Err()
	}
	progress("spec %s is deterministic (functions: %s, %d table rows assumed)", s.Name, opts.Functions, res.Facts)
	proved, err := check.Proved(ctx, s) // the claims the τ-closure may assume
	if err != nil {
		return nil, err
	}
	if res.Tester, err = canonical.BuildKnown(ctx, s, proved); err != nil {
		return nil, err
	}
	if opts.Warn != nil {
		for _, n := range res.Tester.Approximations {
			fmt.Fprintln(opts.Warn, Warning(n)) // warning.go: FILE:LINE:COL: warning: MSG
		}
	}
	progress("canonical tester: %d transitions", len(res.Tester.Transitions))
	if res.Product, err = product.Build(ctx, res.Tester, tp); err != nil {
		return nil, err
	}
	progress("product: %d locations, %d transitions", len(res.Product.Locations), len(res.Product.Transitions))
	known, err := check.Known(ctx, s, res.Product) // the proved ranges and invariant: known bounds
	if err != nil {
		return nil, err
	}
	if res.Analysis, err = analyse(ctx, known, opts.Domain); err != nil {
		return nil, err
	}
	progress("analysis (%s)", opts.Domain)
	if opts.Explain != nil {
		explain(opts.Explain, res.Product, res.Analysis)
	}
	res.Testcase, err = selection.Select(ctx, res.Product, res.Analysis)
	if err != nil {
		return nil, err
	}
	if err := decideGuards(ctx, res.Testcase); err != nil { // decide.go: guards read as the tables decide them
		return nil, err
	}
	if err := canonical.CheckHidden(res.Testcase, res.Tester.Hidden); err != nil { // one unknown per τ-step: no loop through it
		return nil, err
	}
	canonical.FreeSends(ctx, res.Testcase, res.Tester.Hidden) // no send guard speculates on a value not chosen yet
	if opts.Annotate {
		res.Testcase.Analysis = annotation(res.Testcase, res.Product, res.Analysis, opts.Domain)
	}
	progress("test case: %d transitions", len(res.Testcase.Transitions))
	return res, nil
}

// assumeTables makes the rows of the tables of s's external functions
// the facts of ctx (none with Uninterpreted) and counts them in res.
func assumeTables(ctx *solver.Context, s *spec.Model, mode Functions, res *Result) error {
	if mode == Uninterpreted {
		return ctx.SetFacts(nil)
	}
	reg, err := extfunc.New(s.Funcs, extfunc.Options{}) // checks the rows; starts no command
	if err != nil {
		return err
	}
	defer reg.Close()
	facts := reg.TableFacts()
	res.Facts = len(expr.Conjuncts(facts))
	if expr.IsTrue(facts) {
		res.Facts = 0
	}
	return ctx.SetFacts(facts)
}

func analyse(ctx *solver.Context, p *product.Product, domain string) (*coreach.Result, error) {
	switch domain {
	case "none":
		return coreach.Graph(p), nil
	case "interval":
		return coreach.Analyze(p, abstraction.Intervals(), coreach.Options{})
	case "polyhedra", "":
		return coreach.Analyze(p, abstraction.Polyhedra(), coreach.Options{})
	}
	return nil, fmt.Errorf("unknown domain %q: want none, interval or polyhedra", domain)
}

func explain(w io.Writer, p *product.Product, a *coreach.Result) {
	fmt.Fprintln(w, "# per product location (spec location, purpose location), over-approximations of the variables' values:\n#   reach:   with which the location may be entered from the initial condition\n#   coreach: from which Accept may still be reached (within reach, except with --domain none)")
	locs := append([]string(nil), p.Locations...)
	sort.Strings(locs)
	for _, l := range locs {
		if l == p.Fail {
			continue
		}
		fmt.Fprintf(w, "%s\n    reach:   %s\n    coreach: %s\n", l, expr.Format(a.ReachOf(l)), expr.Format(a.CoreachOf(l)))
	}
}

// annotation returns the reach and coreach of each location of the test
// case tc that is a location of the product p (not Pass, Fail, Inconc),
// in tc's order: those explain prints.
func annotation(tc *spec.Model, p *product.Product, a *coreach.Result, domain string) *spec.Analysis {
	if domain == "" {
		domain = "polyhedra"
	}
	in := map[string]bool{}
	for _, l := range p.Locations {
		in[l] = l != p.Fail
	}
	an := &spec.Analysis{Domain: domain}
	for _, l := range tc.Locations {
		if in[l] {
			an.Locations = append(an.Locations, &spec.LocationAnalysis{Location: l, Reach: a.ReachOf(l), Coreach: a.CoreachOf(l)})
		}
	}
	return an
}

// Encode renders a test case in one of the output formats: "yaml",
// "dot" or "go" (pkg is the Go package clause; default NAME_test).
func Encode(tc *spec.Model, format, pkg string) ([]byte, error) {
	switch format {
	case "yaml", "":
		return specfile.Marshal(tc)
	case "dot":
		return []byte(emit.DOT(tc).String()), nil
	case "go":
		if pkg == "" {
			pkg = goIdent(tc.Name) + "_test"
		}
		return emit.GoSource(tc, pkg)
	}
	return nil, fmt.Errorf("unknown format %q: want yaml, dot or go", format)
}

// goIdent turns a model name into a Go identifier.
func goIdent(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '_'
		}
	}
	if len(b) == 0 || b[0] >= '0' && b[0] <= '9' {
		b = append([]byte("tc_"), b...)
	}
	return string(b)
}
