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
// tool), Defs. 8
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
// Options.DeltaLoop makes it a self-loop, and Options.NoDelta leaves it
// out (the trees of the function-summaries paper have none). Its guard
// is the suspension's, computed once per location by
// canonical.QuiescenceGuard: a location is quiescent where no output and
// no internal action can fire. An internal (τ) transition is an edge of
// the tree like any other, named after its transition.
//
// Execute expands the nodes breadth-first (Options.Order BFS, the
// default) or depth-first (DFS); Tree.Coverage is the transition
// coverage of the tree, the spec's transitions (internal ones included)
// that label an edge, over all of them, with the names of the others.
//
// # External functions
//
// A spec may call external functions (expr.Func without a body).
// With Options.Functions Uninterpreted (the default, and what on-line
// testing uses) a call stays in the path condition, where the solver
// sees an uninterpreted function: its result may be anything, so every
// branch that some function would allow is kept.
//
// With Summaries the executor follows Boudhiba et al., "Symbolic
// execution of transition systems with function summaries" (TAP 2017,
// DIVERSITY; §4.3; package summary): a
// symbolic state is η = (q, π, λ, κ), whose call records κ accumulate
// along the path. Guards and assigned values are flattened (χ) when a
// transition is fired, every call occurrence becoming a fresh variable
// F#k, and a child is kept iff SolveTab(m, π, κ, Tab) finds a solution.
// Tab is global to the executor: it starts from the spec's tables (or
// Options.Tables) and grows with every row SolveTab learns, so the tree
// depends on the initial tables, on m, on the solver and on the order;
// Executor.Tab and Executor.SolveStats report it. Restriction by
// inclusion is refused with summaries (a state is also its records and
// the tables, which grow).
//
// # Soundness
//
// With uninterpreted functions, Decide and Expand over-approximate: a
// query the solver cannot decide (non-linear arithmetic, a timeout) counts as possible, so a successor is kept
// rather than dropped. Ground predicates are evaluated exactly with
// math/big, never by the solver. Included under-approximates inclusion
// (an undecided query or a failed quantifier elimination says "not
// included"), so restriction by inclusion only ever cuts a node whose
// states are all in another node: the tree keeps every behaviour.
//
// With Summaries a tree under-approximates instead, as the paper
// intends: every kept state is reached with the functions' known
// results, and a state whose path needs results not in the tables is
// dropped (an undecided SolveTab query keeps it, marked).
package symex
