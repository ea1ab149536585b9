// Package spec holds the models of stg and reads and writes their files:
// the ioSTS, its typed expressions and their exact evaluation, and the
// file formats of the user-facing contract (../shared/FORMAT.md §1, §2
// and §5).
//
// # Models
//
// A Model is an input/output symbolic transition system M = <D, Θ, L,
// l0, Σ, T> (Jeannet, Jéron, Rusu and Zinovieva, "Symbolic test
// selection based on approximate analysis", TACAS 2005, the STG paper;
// ../shared/papers/stg-symbolic-test-selection.txt, Definition 1):
// typed attribute variables (int, real, bool and enumerated types), an
// initial location and condition, an alphabet of input, output and
// internal actions carrying typed parameters, and symbolic transitions
// <l, a, G, A, l'> with a guard over the variables and the parameters
// and simultaneous assignments of the variables. Delta is the reserved
// action of quiescence: specs never write it; the tool adds it.
//
// # File kinds
//
// Every file is YAML and states its kind on its first key; PeekKind
// reads it without the rest. Three kinds are ioSTS, read by ParseModel
// and LoadFile and written by Marshal and Write:
//
//   - spec: the specified behaviour of the system under test;
//   - purpose: a test purpose, an ioSTS over its spec's actions that
//     reads its spec's variables and has Accept locations (it is read
//     together with its spec, and completed as FORMAT.md §1 says);
//   - testcase: what stg generate writes, with send and receive actions
//     and the verdict locations Pass, Fail and Inconc.
//
// The fourth kind, sympurpose, is not an ioSTS: a SymPurpose names its
// spec and a set of accept nodes of the spec's symbolic execution tree,
// each by its path of transition names from the root (Gaston, Le Gall,
// Rapin and Touil, "Symbolic execution techniques for test purpose
// definition", TestCom 2006, the AGATHA paper;
// ../shared/papers/symbolic-execution-test-purposes.txt, Def. 13).
// ParseSymPurpose reads its format, SymPurpose.Check checks the paths
// against the spec without a solver, and MarshalSymPurpose writes it.
// Trace files (JSON Lines of sent stimuli, received outputs and
// quiescence, FORMAT.md §5) are read by ReadTrace and written by
// WriteTraceEvent; argument values stay raw JSON (numbers exact, as
// json.Number) until they are typed against an action's signature.
//
// # Expressions
//
// Guards, assignments and initial conditions are Go expressions, read
// with go/parser and then type-checked against a Scope of variables,
// parameters, enum constants and declared functions (Parse). Go's own
// parser was chosen over a hand-written one because the language of
// FORMAT.md §2 is a subset of Go's expressions with Go's precedence, so
// users and generated Go test code read an expression the same way, and
// the parser is mature, fast and gives exact positions; the subset is
// enforced on its syntax tree. Integer literals have any size and
// decimals are exact rationals; Eval computes with math/big (Euclidean
// division and remainder on int, as SMT-LIB's div and mod), never with
// floating point, and Format prints an expression back to text that
// parses to the same tree.
//
// # Errors
//
// Every problem in a file is reported with its position, as FILE:LINE:COL:
// message, naming the offending item; the loaders return an ErrorList
// sorted by position with all the problems they found, not only the
// first. Positions come from the YAML nodes (yaml.v3), moved into an
// expression by go/parser's line and column within it, and, in trace
// files, from the JSON decoder's offsets (columns count characters). The loaders never panic on any input.
package spec
