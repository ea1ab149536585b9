// Package spec holds the models of stg and reads and writes their files:
// the ioSTS, its typed expressions and their exact evaluation, and the
// file formats that docs/reference.md describes (§ Model files,
// Expressions, Trace files).
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
// # File kinds
//
// Every file is YAML and states its kind on its first key; PeekKind
// reads it without the rest. Three kinds are ioSTS, read by ParseModel
// and LoadFile and written by Marshal and Write:
//
//   - spec: the specified behaviour of the system under test;
//   - purpose: a test purpose, an ioSTS over its spec's actions that
//     reads its spec's variables and has Accept locations (it is read
//     together with its spec, and completed as docs/reference.md#model-files says);
//   - testcase: what stg generate writes, with send and receive actions
//     and the verdict locations Pass, Fail and Inconc.
//
// The fourth kind, sympurpose, is not an ioSTS: a SymPurpose names its
// spec and a set of accept nodes of the spec's symbolic execution tree,
// each by its path of transition names from the root (Gaston, Le Gall,
// Rapin and Touil, "Symbolic execution techniques for test purpose
// definition", TestCom 2006, the AGATHA paper, Def. 13).
// ParseSymPurpose reads its format, SymPurpose.Check checks the paths
// against the spec without a solver, and MarshalSymPurpose writes it.
// Trace files (JSON Lines of sent stimuli, received outputs and
// quiescence, docs/reference.md#trace-files) are read by ReadTrace and written by
// WriteTraceEvent; argument values stay raw JSON (numbers exact, as
// json.Number) until they are typed against an action's signature.
//
// # Expressions
//
// Guards, assignments and initial conditions are Go expressions, read
// with go/parser and then type-checked against a Scope of variables,
// parameters, enum constants and declared functions (Parse). Go's own
// parser was chosen over a hand-written one because the language of
// docs/reference.md#expressions is a subset of Go's expressions with Go's precedence, so
// users and generated Go test code read an expression the same way, and
// the parser is mature, fast and gives exact positions; the subset is
// enforced on its syntax tree. Integer literals have any size and
// decimals are exact rationals; Eval computes with math/big (Euclidean
// division and remainder on int, as SMT-LIB's div and mod), never with
// floating point, and Format prints an expression back to text that
// parses to the same tree.
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
// A declared function (Func) is either defined in the model or
// external. A defined function (def: "a < b", with params: a mapping
// of names to types) is type-checked in the scope of its parameters,
// the enum constants and the other functions, and inlined at every call
// by the type checker (its parameters replaced by the arguments), so no
// Call to it survives parsing; a cycle of definitions is an error
// naming the cycle. An external function keeps its calls: it may carry
// a table of known tuples (table:, a tables file named by tables: and
// read by LoadTables; rows typed by the signature, two rows with equal
// arguments and different results refused) and a command that computes
// it (impl:, run in the model file's directory or in dir:, relative to
// it), both read by package extfunc (Boudhiba, Gaston, Le Gall
// and Prévosto, "Symbolic execution of transition systems with function
// summaries", TAP 2017: the
// tables are its tab_p).
//
// # Built-ins
//
// ite(c, a, b) is the Cond node; min, max and abs are written with it
// at parse time (min(a, b) is ite(a <= b, a, b)), and real(x), the int
// x as a real, is the Unary operator ToReal. An int and a real never
// mix silently: only an integer constant next to a real is a real. An
// expression whose expansion (of built-ins, definitions and array
// reads, which repeat their arguments) exceeds 65,536 nodes is refused.
//
// # Strings
//
// A string (type string) is a sequence of bytes, as in Go. Literals are
// Go's ("..." and `...`); + concatenates; len(s) counts bytes; == != <
// <= > >= compare bytewise; strings.HasPrefix, HasSuffix, Contains and
// Index are Go's functions; s[i] is the one-byte string at i (not a
// byte, as in Go) and s[i:j] a substring, defined when their indexes
// are in range (the bounds are conjoined to the guard, as for arrays;
// Eval gives SMT-LIB's str.at and str.substr values outside them, so
// that it agrees with the solver everywhere). regexp.MatchString(P, s)
// takes a constant RE2 pattern, translated when the expression is read
// (CompileRegex: search semantics made whole-string, ^ and $ at the
// ends, classes over ASCII, . and negated classes over bytes);
// unsupported syntax is an error at the pattern. StrLit and StrCall are
// the nodes; Regex is the translated pattern, evaluated by a Thompson
// automaton and mapped by the solver onto Z3's regular expressions.
// Strings travel as JSON strings; the analyses treat string constraints
// as unknown (over-approximation).
//
// # Arrays
//
// A variable a: [N]T (N from 1 to 1024, T scalar) is desugared when it
// is read into N scalar Variables named a[0] ... a[N-1]; Model.Arrays
// keeps the declaration. a[k] with a constant k is the cell; with a
// computed k it is ite(k == 0, a[0], ite(k == 1, a[1], ... a[N-1])),
// defined when 0 <= k < N: that condition is conjoined to the guard,
// initial condition or invariant where the read occurs (an index out
// of range disables the transition; ParseGuarded returns it
// separately). The assignment a[k]: v gives every cell a[i] the value
// ite(k == i, v, a[i]) and conjoins the same bound to the guard; a: b
// copies an array of the same type. Arrays may be passed whole to
// function parameters of type [N]T (their cells are the flattened
// arguments); action parameters cannot be arrays. Write prints all
// of these back as written.
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
