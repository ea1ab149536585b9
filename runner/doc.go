// Package runner executes test cases of the STG method against a system
// under test (SUT).
//
// A test case is an ioSTS of kind testcase (see FORMAT.md §1): its send
// actions are inputs of the SUT, its receive actions are outputs of the
// SUT or quiescence (delta), and it ends in the verdict locations Pass,
// Fail and Inconc. Test cases are symbolic: the values of communication
// parameters are not fixed. As the STG paper puts it ("Test execution"),
// during execution the values of the parameters of the tester's outputs
// are chosen among the values satisfying the guard by a constraint solver,
// and when the SUT emits an output, the test case being deterministic and
// complete for its inputs, the runner checks which transition fires by
// evaluating the guards on the received values.
//
// # Policy
//
// In every non-verdict location the runner
//
//  1. first takes an output the SUT has already emitted (without waiting):
//     it happened before anything the tester would send now;
//  2. otherwise, when a send transition is enabled (its guard is
//     satisfiable under the current variables), sends: the tester controls
//     the SUT's inputs. With planning (Options.Depth > 0) it searches, by
//     bounded unrolling of the test case with Z3, for a shortest path to
//     Pass from the current concrete state, assuming SUT outputs that
//     satisfy the guards, and takes the first step of that path with the
//     parameter values of the solver's model; when that first step is a
//     receive, it waits instead of sending. Without a path, or with
//     Depth 0 (a random walk), it picks an enabled send at random;
//  3. otherwise waits for an output, at most Options.Quiescence; silence
//     for that long is the observation delta (quiescence).
//
// It plans again after every observation. Parameter values are diversified
// with the run's seed: the solver is asked for a value equal to, at least or
// at most a random small target before falling back to the bare guard (whose
// models tend to sit on the guard's boundary).
//
// An observation enables exactly one receive transition of a complete test
// case. If it enables none, the test case is not complete for it; the
// verdict is then Fail with the reason "unspecified output" (or
// "unspecified quiescence"): the SUT did something the test case, and so
// the specification, does not allow. An output that is not valid JSON,
// names an action that is not a receive action of the test case, or carries
// ill-typed arguments is also an unspecified output (FORMAT.md §4). A run
// that reaches Options.MaxSteps or Options.Timeout ends Inconc with that
// reason.
//
// # Adapters
//
// An Adapter carries messages between the runner and the SUT. The package
// offers a SUT process speaking JSON Lines on its standard input and output
// (StartProcess), a TCP connection with the same protocol (DialTCP), and
// Go code in the same process (InProcess, for implementations written in
// Go; see SUT). A SUT whose output ends (its process exited or closed the
// connection) is quiescent from then on; sending to it is an error,
// ErrSUTUnavailable, as is a SUT that cannot be started.
//
// Generated Go tests (stg generate --format go) embed a Testcase and call
// RunTest.
package runner
