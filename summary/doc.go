// Package summary implements the function summaries of symbolic
// execution with external functions: the flattening χ of terms that call
// external functions, call records, the tables Tab of known input/output
// tuples, the formulas Sum, Sums, NoCorres, Dep and CorresRes, and
// SolveTab, which decides a path condition against the tables and
// enriches them by executing the functions' reference implementations.
//
// It follows Boudhiba, Gaston, Le Gall and Prévosto, "Symbolic execution
// of transition systems with function summaries" (TAP 2017, the
// DIVERSITY tool), §3 and §4: Notation 31 (the
// tables tab_p), Def. 5 (Sum, Sums), the flattening χ of §3.2, Def. 6
// (NoCorres), Def. 7 (Dep, CorresRes) and Algorithm 1 (SolveTab).
//
// # Flattening
//
// A Flattener replaces every occurrence of a call of an external
// function by a fresh variable and records the call (p, (t1..tn), x): a
// Call. Arguments are flattened first, so the calls come innermost
// first, and each occurrence gets its own variable, even when two
// occurrences have the same arguments. Fresh variables are named
// "F#k" (INTGR#1, RISE#2, ...): '#' cannot occur in a model's
// identifiers, and the symbols of package symex use '@', so the names
// never clash with either. A call inside a branch of ite is flattened
// like any other: its record joins κ whichever branch is taken (the
// paper's terms have no ite), which can only drop more states.
//
// # Tables and SolveTab
//
// A Tab maps a function's name to its rows. SolveTab(m, ψ, κ, Tab)
// returns a model of ψ ∧ Sums(κ, Tab), after at most m attempts at
// enriching Tab: each attempt asks the solver for inputs In satisfying
// ψ ∧ NoCorres(κ, Tab) ∧ Dep(κ, Tab) (or, when there are none,
// ψ ∧ NoCorres(κ, Tab)) and executes every call of κ on its inputs read
// from In, adding the results to Tab. m = 0 is the purely static mode:
// no implementation is ever executed. Tab is shared and grows across
// calls, as the global table of the paper does during the construction
// of a tree. Options.NoDep leaves Dep out (the paper's ablation).
//
// Algorithm 1 leaves the choice of In to the solver. With
// Options.PerCall, SolveTab first asks for inputs in which one call,
// the last of κ first, has new inputs while the others stay within their
// tables, ψ ∧ Sums(κ∖{cl}, Tab) ∧ NoCorres1(cl, Tab) ∧ Dep(κ, Tab), and
// falls back to the paper's formulas; any such In is a model of the
// paper's formula. On the paper's example this learns RISE(228) with
// m = 1, as the paper reports, rather than re-executing a call of an
// earlier step; but it implies Dep, so that NoDep changes little.
//
// A call without implementation (a nil Exec, or an error wrapping
// ErrNoImplementation) learns nothing; an attempt that adds no row ends
// the search, as when there are no new inputs (Result.NoImpl says why).
//
// Implementations are reached through an Exec (package extfunc provides
// one). An implementation that fails, hangs (the Exec owns its timeout)
// or returns a value of the wrong type makes SolveTab fail with an error
// naming the function and its inputs; so does a result that contradicts
// a row of the table. SolveTab never retries a failed execution.
//
// # Soundness
//
// Sums under-approximates the function: a state whose path condition is
// satisfiable only with results not yet in the tables is dropped. This is
// the paper's choice (a kept state is always reachable by the real
// functions), the opposite of the uninterpreted encoding, which keeps
// states that the real functions may never reach. A query the solver
// cannot decide keeps the state (Result.Unknown), and an undecided search
// for new inputs ends the enrichment without dropping anything known.
//
// Test generation (package pipeline, stg generate) cannot drop the states
// of inputs outside the tables: a test case would then fail a SUT whose
// function gives other results there. It keeps the calls uninterpreted
// and assumes the rows only as facts (extfunc.Registry.TableFacts): they
// decide a guard where its arguments are fixed to a row's inputs, and
// leave it free elsewhere.
package summary
