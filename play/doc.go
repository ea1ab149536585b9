// Package play is the one engine that plays tests against a system
// under test (SUT) and gives a sound ioco verdict, whatever the route
// that made the test: a test case of the STG method (package runner) or
// a symbolic test purpose of on-line testing (package online).
//
// # Contract
//
// A Route makes, for each run, an Oracle: the test's knowledge of what
// the SUT may do. The Engine owns everything else: the SUT (through the
// adapters of package adapter), the clock, the trace and the verdict.
// In every step the engine
//
//  1. first takes an output the SUT has already emitted (without
//     waiting): it happened before anything the tester would send now;
//  2. otherwise asks the oracle for a stimulus (Oracle.Choose) and
//     sends it;
//  3. otherwise waits for an output (adapter.Listener.Listen); silence
//     is the observation of quiescence, delta.
//
// The oracle judges every observation (Oracle.Observe) and every
// stimulus sent (Oracle.Send) with a Judgement: a verdict, or None while
// the run goes on. A run ends at the first verdict, at Options.MaxSteps
// steps or after Options.Timeout (Inconc), or with an error: a SUT that
// cannot be started or talked to, or dies (adapter.ExitError), or an
// oracle that cannot evaluate what it must (an external function without
// a row or an implementation). An oracle that cannot decide (ErrUndecided)
// ends the run Inconc with its reason, never Fail and never an error.
//
// On the same loop the engine replays a Script of stimuli (Replay: each
// after its recorded observations; adapting, for shrinking, with values
// solved afresh by Oracle.Allow), judges a recorded trace without a SUT
// (Judge), shrinks a failing run by delta debugging over its stimuli and
// their values (Shrink; Zeller and Hildebrandt, "Simplifying and
// isolating failure-inducing input", IEEE TSE 2002), and plays the runs
// of a Campaign: run k plays seed S+k-1, so a campaign splits by run into
// shards (--shard I/N) and onto workers (--parallel K, one engine and
// one oracle state per worker) with the same verdicts.
//
// # Soundness: a conformant SUT never gets Fail
//
// The oracles track every explanation of the observations (states of the
// test case; contexts of the symbolic execution tree) and give Fail only
// when none allows the last observation; they count a query the solver
// cannot decide as possible. What the engine adds is time. Quiescence is
// observed by a time-out (Tretmans, "Test generation with inputs,
// outputs and repetitive quiescence", Software—Concepts and Tools 1996),
// and a time-out is a guess:
//
//   - A silence after which quiescence would decide the run (any
//     verdict, Oracle.Quiet) is confirmed: the SUT must stay silent for
//     Timing.Confirm. Before the SUT has been heard from, the start-up
//     allowance Timing.Startup must have passed. For a SUT process whose
//     activity the adapter can read (adapter.Active), the confirmation
//     counts only the time in which the SUT was idle, and a SUT not yet
//     heard from is waited for while it works: the time-out hypothesis
//     is about a SUT that could have answered, and a SUT that was
//     working or waiting for the CPU had not had the chance. A silence
//     that reaches Timing.MaxConfirm while the SUT still works
//     (Heard.Working) is not confirmed: where quiescence would fail, the
//     run ends Inconc.
//   - Any other silence is concluded after the window (Timing.Quiescence,
//     or calibrated from measured latencies) as a hypothesis, kept pending
//     until the next output. When an output arrives that the oracle fails
//     and pending silences came before it, the engine judges it again in
//     each reading where the silences from some point on were latency (a
//     SUT is not quiescent while it has an output to emit, so if one
//     silence was latency, so were the later ones), the stimuli sent since
//     then crossing the output in queued semantics (Tretmans and Verhaard,
//     "A queue model relating synchronous and asynchronous communication",
//     PSTV 1992). Fail stands only when every reading fails; when exactly
//     one reading explains the output, the run goes on in it and the
//     silences it drops are marked Retracted in the trace; when several
//     do, the run ends Inconc: keeping one could make a later Fail false.
//     An oracle that cannot go back (not a Retracter) gets Inconc there.
//   - Bytes of an unfinished output line are never silence
//     (adapter.Partial): the wait goes on until the line is complete.
//   - A line that is not an output (not JSON, an unknown action,
//     ill-typed arguments) is an unspecified output: Fail, with the line's
//     fault as the reason.
//
// Pass needs every explanation at an accept state, each decided by the
// solver: an oracle whose explanation rests on an undecided answer gives
// Inconc naming the guard.
//
// # Reports
//
// A Result holds the run's trace (Step: what happened, the oracle's
// account of it, the state after), its verdict and reason, the quiescence
// window and the latencies measured. WriteTrace prints it as a table;
// TraceEvents gives it as a trace file holds it, for stg verdict and
// --replay. Package report writes the JSON and JUnit reports of a
// campaign and merges the reports of its shards.
package play
