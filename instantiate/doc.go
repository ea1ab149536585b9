// Package instantiate turns the symbolic abstract tests of a covering
// tour into concrete test cases (Julliand, Masson, Tissot, "Generating
// security tests in addition to functional tests",
// §VII-B).
//
// A symbolic test is a path of the synchronised product SP of an
// abstraction with a test purpose (package predabs): a sequence of
// action names with the abstract state expected after each. Animate
// finds, by bounded model checking with Z3, concrete values that make it
// an execution of the behavioural model M (the spec):
//
//   - one copy X_j of the state variables per position, X_0 satisfying
//     init, every X_j the invariant and the domains;
//   - for each step, the disjunction of the EGAs (spec transitions) behind
//     the product transition: guard(X_j, P_j) and X_{j+1} = f(X_j, P_j),
//     P_j the step's parameters;
//   - X_{j+1} in the abstract state the step enters;
//   - before each step, up to K optional reflexive insertions, each
//     back in the current product state (its abstract state, hence the
//     symbolic test, unchanged) at its end: a step of SP' that keeps the
//     purpose location (a purpose self-loop), then up to Pending outputs
//     the purpose also loops on, the states in between free (ours: the
//     insertion looks through the outputs its input causes, as a deposit
//     and its acknowledgement; with Pending 0 it is the paper's single
//     reflexive step). They move to another concrete instance of the
//     same abstract state, from which the next action may be enabled.
//     The bound is raised from 0 to K, so a test gets the fewest
//     insertions the uniform bound allows;
//   - controllability (ours, for ioco testing; the paper's models have
//     no outputs): an input is sent only in a state where the model
//     predicts quiescence (canonical.QuiescenceGuard), so that the SUT
//     cannot overtake it with an output the path does not expect;
//     before an input, up to Pending outputs of the spec may happen
//     first (pending outputs: observed, not sent; any output EGA, in
//     any abstract state), so that an input the symbolic test places
//     where the spec still speaks is sent once it has spoken.
//
// A satisfying model gives the instance: inputs with their values,
// outputs with the values the model predicts (the oracle). The
// procedure is the paper's: naive and incomplete (a reflexive
// sub-sequence is not always enough, sometimes a cycle through other
// abstract states is needed), so some symbolic tests have no instance;
// Animate then returns ErrNotInstantiable with the reason.
//
// Generate chains the route for a spec and a purpose: the abstraction
// and the products SP and SP' (package predabs), the covering tour of SP
// (package tour; Tour maps SP to a graph, with a virtual root when SP has
// several initial states), the animation of each path and, on request,
// its test case; Suite.Stats holds the columns of Table II.
//
// Then it keeps what is feasible (ours; Options.TourOnly skips it): a
// symbolic test without an instance is cut at its first infeasible step
// and its longest instantiable prefix kept as a test when it covers a
// transition of SP no test covers yet (LongestPrefix); for every
// transition still uncovered, Reach searches, by bounded model checking
// over SP' (at each position nothing or one SP' transition, with the
// rules above), an execution from the initial state that ends with it:
// found, it is one more test; refuted up to Options.Bound steps, the
// transition is proved infeasible within the bound. Coverage is read
// off the concrete runs (Traversed: every SP' state consistent with the
// run tracked, so inserted and pending steps count where they go), and
// Suite.Coverage and Suite.Report give covered / feasible / proved
// infeasible transitions.
//
// Testcase emits an instance as a test case of the STG route: a linear
// purpose (one location per step, the step's action with its parameter
// values, any other action to a sink) goes through pipeline.Models
// (canonical tester, product, analysis, selection), so that the test
// case is deterministic and complete for receives, gives Fail to every
// output the spec does not allow, Inconc to an allowed output off the
// path, and Pass at the end; stg run, stg dot and --format go accept it
// as any test case.
package instantiate
