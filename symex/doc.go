// Package symex implements the symbolic execution of ioSTS: symbolic
// states (a location, the variables as expressions over symbols, a path
// condition), their successors by a transition with concrete or symbolic
// parameter values, the decision of a guard in a symbolic state with Z3,
// the symbolic execution tree with quiescence (Executor, Node, Tree),
// its restriction by inclusion (Included), and symbolic test purposes
// built from coverage criteria (Purpose: Length, KInclusion, Split).
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
// # The tree
//
// A Node is named by its path of transition names from the root (Names
// gives unnamed transitions a stable name "from-action-to"), so that a
// symbolic purpose can name its accept nodes in a file. Children are
// computed on demand (Executor.Expand), in the spec's order of
// transitions, quiescence last; on-line testing expands nodes outside
// the purpose as observations require. Every parameter of a transition
// gets a fresh symbol p@k; initial values the initial condition leaves
// open are symbols x@0 ("initial values are free", Def. 9).
//
// Quiescence (Def. 4) leads to a sink, as in the paper (footnote 7);
// Options.DeltaLoop makes it a self-loop. Its guard is the suspension's,
// computed once per location by canonical.QuiescenceGuard.
//
// # Soundness
//
// Decide and Expand over-approximate: a query the solver cannot decide (non-linear
// arithmetic, a timeout) counts as possible, so a successor is kept
// rather than dropped. Ground predicates are evaluated exactly with
// math/big, never by the solver. Included under-approximates inclusion
// (an undecided query or a failed quantifier elimination says "not
// included"), so restriction by inclusion only ever cuts a node whose
// states are all in another node: the tree keeps every behaviour.
package symex
