// Package spec holds the models of stg as Go values: the ioSTS (Model,
// with its variables, actions, locations and transitions), test purposes
// (as ioSTS, and as labelled transition systems, PurposeLTS), test cases,
// symbolic purposes (SymPurpose), systems of components (System) and the
// declared functions with their tables, together with the checks that are
// about the model and need no file. Expressions are package expr's
// (syntax tree, parsing, types, evaluation); the files are package
// specfile's (reading, writing, the one loader Open). Data flows one way:
// expr, then spec, then specfile.
//
// # Models
//
// A Model is an input/output symbolic transition system M = <D, Θ, L,
// l0, Σ, T> (Jeannet, Jéron, Rusu and Zinovieva, "Symbolic test
// selection based on approximate analysis", TACAS 2005, the STG paper,
// Definition 1):
// typed attribute variables (int, real, bool and enumerated types), an
// initial location and condition, an alphabet of input, output and
// internal actions carrying typed parameters, and symbolic transitions
// <l, a, G, A, l'> with a guard over the variables and the parameters
// and simultaneous assignments of the variables. Delta is the reserved
// action of quiescence: specs never write it; the tool adds it.
//
// # Kinds
//
// Three kinds of Model are ioSTS (ModelKind): a spec, the specified
// behaviour of the system under test; a purpose, an ioSTS over its spec's
// actions that reads its spec's variables and has Accept locations; a
// testcase, what stg generate writes, with the verdict locations Pass,
// Fail and Inconc. A SymPurpose is not an ioSTS: it names its spec and a
// set of accept nodes of the spec's symbolic execution tree, each by its
// path of transition names from the root (Gaston, Le Gall, Rapin and
// Touil, "Symbolic execution techniques for test purpose definition",
// TestCom 2006, the AGATHA paper, Def. 13); SymPurpose.Check checks the
// paths against the spec without a solver.
//
// # Invariants and ranges
//
// A spec may state an invariant (invariant: a predicate on the
// variables, Model.Invariant) and bounds for int variables
// (x: {type: int, range: [lo, hi]}, Variable.Range, conjoined by
// Model.RangeConstraint). Both are the author's claims about every
// reachable state: the loader type-checks them, analyses may assume
// them, and stg check tests that the transitions preserve them.
//
// # Functions
//
// A model declares functions (Model.Funcs, expr.Func): defined ones are
// inlined where they are called; external ones keep their calls and may
// carry a table of known rows (expr.Func.AddRow refuses two rows with equal
// arguments and different results) and a command that computes them,
// both used by package extfunc (Boudhiba, Gaston, Le Gall and Prévosto,
// "Symbolic execution of transition systems with function summaries",
// TAP 2017: the tables are its tab_p).
//
// # Arrays
//
// An array variable a: [N]T is N scalar Variables a[0] ... a[N-1];
// Model.Arrays keeps the declaration (expr.ArrayVar), Model.ArrayOf finds
// the array of a cell, and Model.AssignmentTexts gives a transition's
// assignments back as written (a[k] := v, a := b).
package spec
