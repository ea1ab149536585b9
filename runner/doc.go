// Package runner is the STG route of the play engine (package play): it
// judges the runs of test cases of the STG method against a system under
// test (SUT) and chooses their stimuli, for a sound ioco verdict: Pass,
// Fail or Inconc. A Runner is a play.Route; the oracle of each run (the
// explanations of what was observed, the planning, the choice of values)
// is its play.Oracle, and the loop, the waits, replay, shrinking and
// campaigns are the engine's.
//
// A test case is an ioSTS of kind testcase (docs/reference.md#model-files): its send
// actions are inputs of the SUT, its receive actions are outputs of the
// SUT or quiescence (delta), and it ends in the verdict locations Pass,
// Fail and Inconc. Test cases are symbolic: the values of communication
// parameters are not fixed. As the STG paper puts it ("Test execution"),
// the values of the tester's outputs are chosen among those satisfying
// the guard by a constraint solver, and the SUT's outputs are checked by
// evaluating the guards on the received values. The runner talks to the
// SUT through the adapters of package adapter.
//
// # Soundness: a conformant SUT never gets Fail
//
// Fail is given only when no explanation of the observations allows the
// last one. The runner never assumes what it has not observed:
//
//   - Values the test case leaves open (an initial condition x >= 0 &&
//     x <= 9, or a variable it does not mention) are symbols
//     (symex.State), narrowed by each observation's guard; the run
//     tracks every state the observations admit, as on-line testing
//     does over sets of contexts (Gaston et al., Defs. 14-17).
//   - Inputs and outputs cross on the wire: the SUT may emit an output
//     before it reads an input the tester has already sent. An output is
//     judged in every state the SUT may have emitted it from, having read
//     a prefix of the inputs in flight (queued semantics; Tretmans and
//     Verhaard 1992, Weiglhofer and Wotawa 2009 on asynchronous ioco).
//     This applies to adapter.Timed adapters; an in-process SUT has
//     answered before its Input returns.
//   - Quiescence is observed by waiting (the engine's policy, package
//     play): a silence that decides a verdict is confirmed over
//     Timing.Confirm; any other is a hypothesis that a later output may
//     retract (the oracle is a play.Retracter: it judges the readings
//     where the silence was latency).
//   - A guard the solver cannot decide keeps its explanation (possible),
//     and marks it: Pass resting on it is Inconc, naming the guard.
//
// An observation that some explanations allow and others do not drops
// the latter. When explanations disagree on the verdict, or when a send
// was not covered by the test case in some tracked state (those states
// are lost), the run ends Inconc rather than Pass or Fail. Pass needs
// every explanation at Pass.
//
// # Policy
//
// In every non-verdict location, the engine first takes an output the
// SUT has already emitted; otherwise the oracle (Choose)
//
//  1. when a send transition is enabled, sends: the tester
//     controls the SUT's inputs. With planning (Options.Depth > 0) it
//     searches, by bounded unrolling of the test case with Z3, for a
//     path to Pass from the first tracked state, and takes the first step
//     of that path with parameter values chosen under the path's
//     constraints (below); when that first step is a receive, it waits
//     instead of sending. The path
//     is a shortest one (Options.Plan Shortest) or, with Diverse, one
//     stretched by a number of steps the seed fixes: loop iterations,
//     longer ways to Pass, other branches (diverse.go). Without a path, or
//     with Depth 0 or Plan Walk (a random walk), it picks an enabled send
//     at random;
//  2. otherwise lets the engine wait for an output; silence is the
//     observation delta.
//
// A run keeps one solver (scopes pushed and popped). The path found is
// followed while the run keeps to it: at each send the rest of the path
// is asserted anew from the current state (one check), and the search
// runs again only when an output leads elsewhere, or when the Diverse
// strategy still has room for its stretch (plan.go, diverse.go). String
// tests are abstracted to booleans for the search: exactly where a
// send's strings do not flow into the state, as an over-approximation
// elsewhere (strabs.go).
//
// Parameter values are chosen by satisfiability alone, never read off a
// model where the constraints leave a choice (play.Picker, the picker of
// both routes): the value nearest
// a random target that the constraints allow (galloping, then
// bisection), or the value they force; now and then the boundary values
// of a linear comparison on the parameter come first (x <= c: c and
// c+1); strings come from candidates (members of the
// guard's regular expressions, values equalities force, constants,
// values seen in the run) checked by exact evaluation before the solver
// confirms one, its unknown answered by the next candidate; a choice
// that nothing decides is ErrUndecided, for the run to end Inconc
// (strings.go, pick.go). Z3's models depend on the history of its
// context, a satisfiability answer does not, so every choice of a run
// depends on its seed alone, never on earlier runs in the same Runner
// (TestRunDependsOnSeedAlone). Nor do they depend on timing: the engine
// may ask for a stimulus just before an output arrives, and a choice to
// wait leaves the random source, the route and the Diverse target as
// they were (TestChoicesDoNotDependOnTiming). So a run replays with its
// seed as long as the SUT answers the same, and a campaign split by seed
// plays the same runs.
//
// An output that is not valid JSON, names an action that is not a receive
// action of the test case, or carries ill-typed arguments is an
// unspecified output: Fail (docs/reference.md#wire-protocol). A run that reaches
// Options.MaxSteps or Options.Timeout ends Inconc with that reason. A SUT
// that dies (adapter.ExitError) or cannot be talked to ends the run with
// an error, never a verdict.
//
// # Replay, shrinking and coverage
//
// Replay, Judge and Shrink are the engine's (play.Engine); the oracle's
// part is Allow (replay.go): a recorded stimulus as the test case allows
// it where the replay is, or, when adapting, with values solved afresh
// closest to the recorded ones under the guards. NewCoverage counts the
// transitions a campaign took, and Runner.Prove searches, by bounded
// unrolling with Z3, a path to each one never taken (coverage.go).
//
// # External functions
//
// Guards and assignments may call external functions (docs/reference.md#expressions).
// Options.Funcs evaluates them (package extfunc: the table first, then
// the reference implementation): a call whose arguments are known is
// evaluated exactly before a guard is judged or an assignment made; a
// call over values still unknown stays uninterpreted for the solver (an
// over-approximation); values to send are solved with the calls
// uninterpreted and then checked exactly, refused ones replaced. A call
// that cannot be evaluated ends the run with an error, never a verdict.
//
// Generated Go tests (stg generate --format go) call package stgtest,
// which plays runs with RunOnce (play.RunOnce on the Runner's engine).
package runner
