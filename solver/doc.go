// Package solver decides and transforms predicates of the model language
// (expr.Expr) with the Z3 SMT solver, through our own cgo binding to
// Z3's C API (libz3 4.8.12; link with -lz3).
//
// The high-level operations are methods of a Context: Sat, Valid,
// Entails, Equivalent and Model for one-shot questions, EliminateExists
// and Simplify for transforming predicates, and NewSolver for an
// incremental solver (Push, Assert, Check, Pop) for callers that make
// many related checks.
//
// # Contexts and goroutines
//
// A Context owns one Z3 context. Z3 crashes when two threads use one
// context, and terms never cross contexts, so a Context must be used by
// one goroutine at a time; give each goroutine its own. Interrupt is the
// one method that may be called from another goroutine: it stops the
// check or tactic in progress. It does nothing when nothing runs, because
// an interrupt delivered to an idle Z3 context stays pending and makes
// every later call fail. InterruptOn(ctx) ties a Context to a
// context.Context: once ctx is done, the check in progress and every
// later one stop (answer Unknown) until the returned stop is called.
//
// # Signals
//
// Z3 4.8.12 installs its own SIGINT handler for each solver check and
// puts the previous one back with signal(2), which drops SA_ONSTACK: the
// Go runtime then crashes on the next signal ("non-Go code set up
// signal handler without SA_ONSTACK flag"), and meanwhile Z3 swallows
// Ctrl-C as an Unknown answer. Every solver this package makes has Z3's
// "ctrl_c" parameter off (a solver parameter: 4.8.12 has no global one),
// so the Go runtime's handlers, and signal.Notify, stay in charge.
//
// # Time limits
//
// SetTimeout bounds each check and tactic application first by Z3's
// resource limit ("rlimit", rlimit.go), which counts work rather than
// time, so that a question gets the same answer, unknown or definite, on
// a loaded machine as on an idle one (TestRlimitDeterministic). The
// limit is the time limit times rlimitPerMs = 800 units per millisecond:
// TestRlimitRate (STG_LONG=1 go test ./solver -run TestRlimitRate -v)
// measured 363k to 1.93M units per second, median 1.44M, over 8
// arithmetic and string questions, on the project's 2-core AMD EPYC
// machine, idle (load 0.7); so a question stops between 0.4 and 2.2
// times the time limit on an idle machine. A Go-side watchdog
// (watchdog.go), not Z3's timeout parameter, which starts a thread per
// check in Z3 4.8.12, is the backstop at 5 times the time limit for work
// Z3 does not count, and the limit itself for questions with nonlinear
// arithmetic, whose work Z3 4.8.12 does not count at all. The watchdog
// interrupts only the call it was armed for, and an interrupt that
// reaches Z3 after that call has ended is cleared before the next one.
// A call stopped by either limit reports the time
// limit and wraps ErrUnknown.
//
// # Stopped checks
//
// A check that answers Unknown may leave Z3 4.8.12's solver unclean:
// reusing it crashed the process (SIGSEGV in Z3_solver_check or
// Z3_solver_pop). TestStress reproduces it: STG_LONG=1 GOGC=10 go test
// ./solver -run TestStress -stress 30s, beside two busy loops (load 10
// to 28, shared), crashed in 11 runs out of 11 before the fix (3 of them
// with -race, which found no data race), and in none of 25 after (6 with
// -race). So a Solver replaces its Z3 solver after such a check and
// asserts its open scopes again (Stats().Renewed counts it), and the
// context drops its cached tactics after a failed application.
//
// # The memo
//
// The answers of Sat, Valid, Entails, Equivalent, Simplify and
// EliminateExists are remembered per context by formula (memo.go),
// definite answers only; Stats counts the checks, tactic runs and memo
// hits (and the questions callers settled without Z3, NoteSettled), and
// SetMemo(false) turns the memo off.
//
// # Facts
//
// SetFacts makes a predicate a premise of every later question of a
// context (Sat, Possible, Valid, Entails, Equivalent, Model) and of every
// Solver made afterwards: test generation assumes the rows of external
// functions' tables, F(123) == 228, true of the functions the tester
// evaluates. Simplify and EliminateExists ignore them. Changing the facts
// clears the memo.
//
// # Errors
//
// Z3's default error handler prints and exits the process. The binding
// installs a handler that does nothing; a failing call then returns a
// null or default result, and the binding reads Z3's error code and
// message at once (the next call resets them) and returns them as a Go
// error. Expressions are type-checked while they are translated, so an
// ill-typed tree gives an error rather than an ill-sorted Z3 term, and
// no input expression makes the package panic.
//
// # Reference counting
//
// The context is made with Z3_mk_context_rc: every Z3 object lives while
// it has references, and a new result that is not referenced may be
// freed by the next API call. So every constructor's result is
// referenced immediately, either for the life of the context (sorts,
// identifier constants, enum constants, function declarations, tactics)
// or in a scratch list that each operation releases when it returns,
// in one C call. Solvers, models, goals and tactic results are released
// explicitly too. There are no finalizers: they run on other goroutines,
// which Z3 does not allow. A Solver must be closed; Close on the Context
// frees everything in it.
//
// # Translation
//
// Each identifier is a Z3 constant per kind, name and type: variables
// and parameters with the same name are different constants (their
// symbols carry a kind prefix), and the constant decodes back to the
// *expr.Ident it was made from. Int and real are Z3's Int and Real sorts;
// int / and % are SMT-LIB div and mod, which are Euclidean like
// expr.Eval (division by zero is unspecified in Z3 where expr.Eval
// fails). Each *expr.Enum becomes its own Z3 enumeration sort, made once
// per context, whose constructors decode back to *expr.EnumLit. External
// function calls are uninterpreted functions, one per name and
// signature.
//
// Results of tactics come back as expr.Expr through the spec
// constructors, undoing Z3's normal forms for readability:
// (not (<= x 3)) becomes x > 3, (+ y (* -1 x)) becomes y - x, a
// difference compared with 0 becomes a comparison of its operands, and
// numerals become IntLit or RealLit by their sort. Boolean if-then-else
// is expanded; numeric if-then-else, quantifiers and operators outside
// the language are errors.
package solver
