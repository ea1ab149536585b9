// Package extfunc evaluates the external functions of a model: the
// Exec_p of the function-summaries paper (Boudhiba, Gaston, Le Gall and
// Prévosto, "Symbolic execution of transition systems with function
// summaries", TAP 2017, the DIVERSITY tool; Algorithm 1), the reference
// implementation that SolveTab runs to learn new rows of a function's
// table, and that test execution (stg run, on-line testing, stgtest)
// runs to evaluate guards and outputs that call the function.
//
// A Registry knows, for each external function p declared by a model
// (expr.Func with Def == nil; defined functions are inlined by the
// parser and never reach it):
//
//   - its table tab_p, the rows of expr.Func.Table (or of a tables file
//     given on the command line, SetTable): the tuples known to hold;
//   - its implementation: a command line speaking JSON Lines (the
//     spec's impl:, or SetCommand), or a Go function registered in
//     process (Register). The last one set wins.
//
// A call p(v1..vn) is answered by the table first; only inputs absent
// from it reach the implementation. A function with neither a row for the
// inputs nor an implementation is an error naming it.
//
// # The command protocol
//
// The command is started once, on the first call that needs it, and
// reused: one request line, one reply line, in the conventions of the
// SUT protocol (docs/reference.md#wire-protocol):
//
//	{"args":[[123,96]]}        → {"result":228}
//	{"args":[228]}             → {"result":"97/100"}
//	                           → {"error":"I must be positive"}
//
// Ints are JSON numbers of any size, reals numbers or "N/D" strings,
// bools JSON booleans, enum constants strings; the cells of an array
// parameter ([N]T) form a nested JSON array. The reply's result is
// decoded with the type of the function's result.
//
// # Failures are errors, never hangs
//
// Every call is bounded by Options.Timeout (DefaultTimeout). A command
// that crashes, hangs, closes its output or answers something that is not
// a reply of the right type gives an error of type *CallError naming the
// function and the inputs: "INTGR([123, 96]): implementation timed out
// after 5s", with the last lines of the command's standard error. A
// command that timed out or fell out of step is killed and started again
// on the next call. Close kills the commands still running.
//
// Test execution treats such an error as an error of the run (never a
// verdict): a tester that cannot evaluate a guard does not know what the
// SUT should do.
//
// # Evaluation
//
// Registry implements expr.Caller: expr.Eval evaluates a call when its
// environment is a Caller, and Registry.Env wraps a expr.Valuation into
// one. Fold replaces, in an expression, every call whose arguments are
// constants by its result (short-circuiting &&, || and ite as Eval does),
// so that symbolic states whose calls become ground (a value observed or
// chosen) are decided exactly. Registry.Exec has the type of SolveTab's
// exec hook (package summary).
//
// # Tables for a solver
//
// A solver that treats the calls as uninterpreted functions may be told
// more without losing soundness: Facts gives the tables' rows as
// equalities F(row) == result, true of the functions as the Registry
// evaluates them, for the functions an expression calls, and TableFacts
// for every function (test generation assumes them in every solver
// question, package pipeline); Sum is Sum(cl, tab_p) of the paper
// (Def. 5), and Hints the Sums that testers assert, as soft constraints,
// to steer the values they choose toward inputs whose results are known.
package extfunc
