// Package symex implements the symbolic execution of ioSTS: symbolic
// states (a location, the variables as expressions over symbols, a path
// condition), their successors by a transition with concrete or symbolic
// parameter values, and the decision of a guard in a symbolic state with
// Z3.
//
// It follows Gaston, Le Gall, Rapin and Touil, "Symbolic execution
// techniques for test purpose definition" (TestCom 2006; the AGATHA
// tool; ../shared/papers/symbolic-execution-test-purposes.txt), Defs. 8
// and 9: a symbolic state stands for the set of concrete states whose
// valuation of the symbols satisfies the path condition. The same
// representation serves the runner, which must never assume a value it
// has not observed (issue 8: a loose initial condition is a symbol, not
// one model picked by the solver), and on-line testing over sets of
// contexts (Defs. 14-17).
//
// # Soundness
//
// Decide over-approximates: a query the solver cannot decide (non-linear
// arithmetic, a timeout) counts as possible, so a successor is kept
// rather than dropped. Ground predicates are evaluated exactly with
// math/big, never by the solver.
package symex
