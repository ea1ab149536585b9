package summary

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// An Exec runs the reference implementation of the external function f
// (Exec_p of Algorithm 1) on concrete arguments, flattened as f.Params.
// It returns an error when the implementation fails, does not answer in
// time or has none; it must not block forever.
type Exec func(f *expr.Func, args []expr.Value) (expr.Value, error)

// Options are the parameters of SolveTab besides ψ, κ and Tab.
type Options struct {
	// M bounds the attempts at enriching the tables (m of Algorithm 1);
	// 0 is the purely static mode. It must not be negative.
	M int
	// NoDep leaves Dep(κ, Tab) out of the search for new inputs (an
	// ablation of the paper's heuristic).
	NoDep bool
	// PerCall first asks, for each call cl of κ (the last first), for
	// inputs new for cl alone while every other call stays within its
	// table, ψ ∧ Sums(κ∖{cl}, Tab) ∧ NoCorres1(cl, Tab) ∧ Dep(κ, Tab),
	// before Algorithm 1's own queries. Its models are models of the
	// paper's query, but it implies Dep already: with it NoDep changes
	// little. Off, SolveTab is Algorithm 1 as published.
	PerCall bool
	// Exec runs the implementations; nil means none: the search for
	// new inputs then ends as when there are none.
	Exec Exec
}

// ErrNoImplementation, wrapped by an Exec's error (errors.Is), says that
// the function has no implementation to run: SolveTab then learns no
// row from that call, and stops when an attempt learns nothing.
var ErrNoImplementation = errors.New("no implementation to execute")

// Result is the outcome of SolveTab.
type Result struct {
	// Found says whether ψ ∧ Sums(κ, Tab) has a solution (or the solver
	// could not decide: then Unknown is set too, and the state is kept).
	Found   bool
	Unknown bool
	Sol     expr.Valuation // a solution, when Found and not Unknown
	// Attempts counts the iterations of the loop, Execs the executions
	// of implementations and Added the new rows.
	Attempts, Execs, Added int
	// NoImpl says that a call of κ had no implementation to run on the
	// new inputs; an attempt that adds no row ends the enrichment.
	NoImpl bool
}

// SolveTab is Algorithm 1: it returns a solution of ψ ∧ Sums(κ, Tab),
// enriching tab (in place) by at most opts.M rounds of executions of the
// calls of κ on inputs the solver finds outside the tables.
func SolveTab(z *solver.Context, psi expr.Expr, kappa []*Call, tab Tab, opts Options) (Result, error) {
	var res Result
	if opts.M < 0 {
		return res, fmt.Errorf("SolveTab: m = %d is negative", opts.M)
	}
	if err := res.solve(z, psi, kappa, tab); err != nil || res.Found {
		return res, err
	}
	for m := opts.M; m != 0; m-- {
		res.Attempts++
		in, ok, err := inputs(z, psi, kappa, tab, opts)
		if err != nil || !ok {
			return res, err // TabModified = false: no new inputs
		}
		added := res.Added
		for _, cl := range kappa {
			ran, err := res.exec(cl, in, tab, opts.Exec)
			if err != nil {
				return res, err
			}
			res.NoImpl = res.NoImpl || !ran
		}
		if res.Added == added {
			return res, nil // no new row (calls without implementation)
		}
		if err := res.solve(z, psi, kappa, tab); err != nil || res.Found {
			return res, err
		}
	}
	return res, nil
}

// solve is sol ← Sat(ψ ∧ Sums(κ, Tab)).
func (res *Result) solve(z *solver.Context, psi expr.Expr, kappa []*Call, tab Tab) error {
	sol, ok, err := z.Model(expr.AndOf(psi, Sums(kappa, tab)))
	if errors.Is(err, solver.ErrUnknown) {
		res.Found, res.Unknown = true, true
		return nil
	}
	res.Found, res.Sol = ok, sol
	return err
}

// inputs is In ← Sat(ψ ∧ NoCorres ∧ Dep), else Sat(ψ ∧ NoCorres)
// (lines 5-7 of Algorithm 1; with NoDep the second query only). With
// PerCall, the queries of perCall come first. The identifiers of the
// calls' inputs are mentioned, so that the model gives them values. An
// undecided query counts as NONE.
func inputs(z *solver.Context, psi expr.Expr, kappa []*Call, tab Tab, opts Options) (expr.Valuation, bool, error) {
	var mention []expr.Expr
	for _, cl := range kappa {
		for _, a := range cl.Args {
			expr.Idents(a, func(id *expr.Ident) { mention = append(mention, expr.Compare(expr.Eq, id, id)) })
		}
	}
	base := expr.AndOf(append([]expr.Expr{psi}, mention...)...)
	dep := expr.True()
	if !opts.NoDep {
		dep = Dep(kappa, tab)
	}
	var tries []expr.Expr
	if opts.PerCall {
		tries = perCall(base, kappa, tab, dep)
	}
	tries = append(tries, expr.AndOf(base, NoCorres(kappa, tab), dep))
	if !expr.IsTrue(dep) {
		tries = append(tries, expr.AndOf(base, NoCorres(kappa, tab)))
	}
	for _, q := range tries {
		in, ok, err := z.Model(q)
		if errors.Is(err, solver.ErrUnknown) {
			continue
		}
		if err != nil || ok {
			return in, ok, err
		}
	}
	return expr.Valuation{}, false, nil
}

// perCall returns, for each call cl of κ, the last first,
//
//	ψ ∧ Sums(κ \ {cl}, Tab) ∧ NoCorres1(cl, Tab) ∧ Dep(κ, Tab)
//
// new inputs for cl while every other call stays within its table: this
// renews the call the path needs (the one of the latest transition,
// RISE(228) in the paper's Example) rather than calls of earlier steps
// that the tables already explain. Any model is one of the paper's
// query ψ ∧ NoCorres ∧ Dep.
func perCall(base expr.Expr, kappa []*Call, tab Tab, dep expr.Expr) []expr.Expr {
	var tries []expr.Expr
	for i := len(kappa) - 1; i >= 0 && len(kappa) > 1; i-- {
		others := append(slices.Clone(kappa[:i]), kappa[i+1:]...)
		tries = append(tries, expr.AndOf(base, Sums(others, tab), NoCorres1(kappa[i], tab[kappa[i].Func.Name]), dep))
	}
	return tries
}

// exec executes cl on its inputs read from in and adds the row to tab.
// It reports whether an implementation ran (false: f has none).
func (res *Result) exec(cl *Call, in expr.Valuation, tab Tab, exec Exec) (bool, error) {
	f := cl.Func
	args := make([]expr.Value, len(cl.Args))
	for i, a := range cl.Args {
		v, err := expr.Eval(a, in)
		if err != nil {
			return false, fmt.Errorf("inputs of %s: %v", f.Name, err)
		}
		args[i] = v
	}
	if exec == nil {
		return false, nil
	}
	r, err := safeExec(exec, f, args)
	if errors.Is(err, ErrNoImplementation) {
		return false, nil
	}
	res.Execs++
	if err != nil {
		if strings.HasPrefix(err.Error(), f.Name+"(") {
			return false, fmt.Errorf("executing %v", err) // it names the call already
		}
		return false, fmt.Errorf("executing %s(%s): %v", f.Name, ValuesString(args), err)
	}
	if r.T != f.Result || !wellFormed(r) {
		return false, fmt.Errorf("executing %s(%s): the result is not a value of type %s (got %s)", f.Name, ValuesString(args), f.Result, valueText(r))
	}
	added, err := tab.Add(f, args, r)
	if err != nil {
		return false, fmt.Errorf("executing %s: %v", f.Name, err)
	}
	if added {
		res.Added++
	}
	return true, nil
}

// safeExec runs exec, turning a panic of an in-process implementation
// into an error.
func safeExec(exec Exec, f *expr.Func, args []expr.Value) (v expr.Value, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("implementation panicked: %v", p)
		}
	}()
	return exec(f, args)
}

// wellFormed reports whether v holds a value of its type.
func wellFormed(v expr.Value) bool {
	switch v.T.Kind {
	case expr.Int:
		return v.Int != nil
	case expr.Real:
		return v.Rat != nil
	case expr.Bool:
		return true
	case expr.EnumKind:
		return v.T.Enum != nil && v.Enum >= 0 && v.Enum < len(v.T.Enum.Values)
	}
	return false
}

func valueText(v expr.Value) string {
	if !wellFormed(v) {
		return "an ill-formed " + v.T.String()
	}
	return v.String() + " of type " + v.T.String()
}

// SolveCalls is SolveTab on a formula e that calls external functions
// (among funcs) as terms: ψ and κ are e's flattening χ(e), so that the
// solution gives values, within the tables, to e's identifiers and to
// the fresh variables of its calls. On-line testing steers its stimuli
// with it (package online): e is then the condition of a target with the
// values of the run substituted.
func SolveCalls(z *solver.Context, e expr.Expr, funcs []*expr.Func, tab Tab, opts Options) (Result, error) {
	psi, kappa, err := NewFlattener(funcs).Flatten(e)
	if err != nil {
		return Result{}, err
	}
	return SolveTab(z, psi, kappa, tab, opts)
}
