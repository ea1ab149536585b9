// Package adapter connects the test runner of stg to a system under test
// (SUT): a process speaking JSON Lines on its standard input and output
// (StartProcess), a TCP connection with the same protocol (DialTCP), or
// Go code in the same process (InProcess). The wire protocol is docs/reference.md
// §4; Output, Input and DecodeArgs carry and type its messages.
//
// # Quiescence
//
// In the ioco theory the tester observes not only the outputs of the SUT
// but also its quiescence, the absence of output, as an output δ of its
// own (Tretmans, "Model based testing with labelled transition systems",
// in Formal Methods and Testing, LNCS 4949, Springer, 2008). A black box
// cannot say that it has nothing more to say: the STG paper
// (Jeannet, Jéron, Rusu and Zinovieva, "Symbolic test selection based on
// approximate analysis", TACAS 2005, "Visible behaviour for testing")
// observes quiescence "using timers, assuming that timeout
// values are large enough such that, if a timeout occurs, the system is
// indeed quiescent", and its test execution ("Test execution") checks
// every received output against the guards of the test case. Since a
// test case answers unspecified quiescence with Fail, a silence that is
// reported wrongly is a wrong Fail against a conformant SUT, the one
// mistake a tester must not make. Hence the contract of Receive:
//
//   - Receive returns nil (silence) only when, the wait over, a last read
//     of the stream that does not wait found no complete line. An output
//     the SUT has written before Receive is called (it is in the pipe or
//     the socket) is returned, even by Receive(ctx, 0); a partial line is
//     kept for the next call.
//   - Whether the wait was long enough is the Listener's business, with
//     the policy of a Timing: adapters over a stream are Timed, and tell
//     it when the SUT was started and whether it has been heard from, so
//     that it can give a SUT still starting an allowance and confirm a
//     silence that would fail over a longer window. InProcess is not
//     Timed: its quiescence is exact (the SUT has answered when its Input
//     method returns), and Receive returns nil at once when nothing is
//     queued.
//   - Output.At is when the line was read, for latency measurements.
//
// # A SUT that has not run has not refused
//
// The time-out hypothesis says that a SUT that was going to output
// within the wait would have: it presumes the SUT could run. On a loaded
// machine a process can stay runnable for seconds without a CPU (a
// Python interpreter still loading, a computation starved), and a
// wall-clock silence is then no evidence of quiescence. A Process is
// Active: it reads from the proc file system (procstat.go) the activity
// of its process group, summed over processes and threads: whether a
// thread is runnable or running (R), in uninterruptible sleep (D), or
// stopped (T, t), and the CPU time consumed, its waited-for children's
// included. Every sample looks for the group's new processes: the work of
// a SUT script is often its commands' (a pyenv python3 shim runs several
// before the interpreter), while the script waits. The Listener samples it
// only while it confirms a silence that decides a verdict, or waits at
// the end of the start-up allowance for a SUT not yet heard from (every
// 100ms; the silence before the first sample is not counted as idle);
// it counts towards
// Timing.Confirm only the intervals in which the SUT was idle: no thread
// busy at either end, no CPU consumed, no process started or ended. An
// idle SUT is blocked on its input, a timer or a lock: it had the CPU on
// offer and did not output, which is what quiescence means; its
// confirmation ends about a window later than by the clock alone. A stopped process (SIGSTOP, a
// debugger) counts as working: it cannot output, so its silence is no
// refusal either. Intervals are not required to be consecutive: a SUT
// with background work (a garbage collector, a timer thread) still
// reaches Confirm. Timing.MaxConfirm bounds the waits, so that a SUT
// that spins for ever ends: its silence is then Heard.Working, never
// confirmed (the engine turns the Fail it would give into Inconc).
// Where the activity cannot be read (no /proc, outside Linux; a TCP
// SUT, whose process the tester does not know) the Listener counts
// wall-clock time, as the hypothesis alone allows.
//
// Receive and Send use no goroutine of their own: reads and writes carry
// deadlines, and ctx's end interrupts them.
//
// # Readiness
//
// A SUT may write the line {"ready":true} (an extension of docs/reference.md) once
// it is ready for inputs. The adapter consumes it (it is not an output);
// from then on, and from its first output on, Timed.Started reports it
// heard. Any other message with a "ready" field is an unreadable output.
//
// # A dead SUT is not a quiet SUT
//
// A SUT that ends during a run is not quiescent: its process exited or
// was killed, or its connection was closed or reset. Receive reports it,
// after the outputs it wrote before it ended, as an *ExitError naming the
// exit status, signal or transport error, with the last lines the SUT
// wrote on its standard error; Send to it returns an error wrapping the
// *ExitError and naming the input. The runner turns these into errors of
// the run, never into verdicts. A process whose standard output ends but
// which still runs (it closed its output) is quiescent for ever.
//
// # Errors
//
// Every error of an adapter wraps ErrSUTUnavailable (a SUT that cannot be
// started, reached or written to, or that ended: *ExitError), is ctx's
// error, or is an *OutputError: an output that is not a message of the
// protocol (not JSON, no action, a line longer than 1 MiB), which the
// runner treats as an unspecified output, hence Fail.
package adapter
