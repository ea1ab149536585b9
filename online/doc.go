// Package online implements on-line testing with symbolic test purposes:
// the inference rules of Gaston, Le Gall, Rapin and Touil, "Symbolic
// execution techniques for test purpose definition" (TestCom 2006, the
// AGATHA tool; §4), over the symbolic execution tree of package symex.
// It is the symbolic-purpose route of the play engine (package play): a
// Runner is a play.Route, and the oracle of each run applies the rules
// to the engine's observations and proposes its stimuli.
//
// # The formal objects
//
//   - A Purpose is the labelling TP of the tree (Def. 13) by a
//     sympurpose file (docs/reference.md#trace-files): the nodes whose path is an accept
//     path are Accept, their ancestors Skip, every other node ⊥ (symex.Bottom),
//     including the whole infinite rest of the tree, which the tester
//     expands on demand with symex.Executor.Expand: ⊥ nodes are needed
//     for Fail and for the other contexts of WeakPass.
//     Purpose.TargetCond is targetCond (Def. 16): the disjunction of the
//     conditions of the accept nodes reachable from a node, π(s) for an
//     accept node s. An accept path may carry an external constraint
//     ec (Def 10 of the component-systems paper; stg purposes SYSTEM
//     --on COMPONENT writes them): an accept node's condition is then
//     π(s) ∧ ec(s) (Purpose.Cond), stimuli are solved under it, and a
//     context in s where ec fails is in s's complementary twin, ⊥ (Def
//     12). The constraint only moves runs between Pass, WeakPass and
//     Inconc: Next, and so Fail, never reads it.
//   - A Context is a context (s, f) (Def. 14): a node and the
//     conjunction f of the equalities between the values seen and the
//     parameter symbols of its path, kept as a map from symbols to
//     values. Since f binds distinct symbols to literals, f ∧ e is
//     satisfiable iff e with the values substituted is; the queries are
//     made that way, and folded exactly when they become ground.
//   - An Event is stim(c?t) or obs(c!t) (δ! for observed quiescence).
//   - Tester.Apply computes Next(ev, SC), NextSkip and NextPass (Defs.
//     15 and 17) and applies the one Rule that fits, giving a Step: a
//     new set of contexts or a Verdict (Pass, Fail, Inconc, WeakPass).
//
// The rules (§4.3):
//
//	rule 0  start                                       SC0 = {(init, true)}
//	rule 1  obs(ev), NextSkip ≠ ∅, NextPass = ∅          SC := Next(ev, SC)
//	rule 2  obs(ev), Next = ∅                            Fail
//	rule 3  obs(ev), Next ≠ ∅, NextSkip = NextPass = ∅   Inconc
//	rule 4  obs(ev), Next = NextPass ≠ ∅                 Pass
//	rule 5  obs(ev), NextPass ≠ ∅, NextPass ⊊ Next       WeakPass
//	rule 6  stim(ev), NextSkip ≠ ∅                       SC := Next(ev, SC)
//
// Rules 1-5 are exclusive and exhaustive (NextSkip and NextPass are
// disjoint subsets of Next); the property test checks it, and the three
// sets, against Z3 on the paper's formulas. A stimulation with NextSkip
// = ∅ fits no rule (NoRule): the tester never sends one; a recorded
// trace that holds one ends Inconc there.
//
// Internal transitions (τ), if the spec has them, are closed over: SC0
// and the new sets of rules 1 and 6 hold the contexts reachable by
// internal transitions (f unchanged), while Next, NextSkip and NextPass
// are judged on the direct successors, so that a τ step after an accept
// node does not turn Pass into WeakPass. A set of contexts larger than
// Tester.MaxContexts ends the run Inconc; no context is ever dropped.
//
// # Undecided solver answers
//
// A query the solver cannot decide (non-linear arithmetic, a timeout)
// counts as satisfiable, so the sets are over-approximated and Fail is
// never given on an undecided answer:
//
//   - rule 2 (Fail) needs every successor proved impossible;
//   - rule 4 (Pass) needs every successor that is not an accept node
//     proved impossible: an undecided one makes it rule 5 (WeakPass);
//     an accept node reached only on an undecided answer gives Inconc
//     (no Pass or WeakPass rests on a guess), naming the node;
//   - rule 3 (Inconc) needs targetCond proved unsatisfiable for every
//     skip successor: an undecided one keeps the run going (rule 1),
//     and later steps decide;
//   - rules 1 and 6 keep the undecided contexts; the tester only sends
//     values taken from a model of a satisfiable formula.
//
// Step.Undecided counts these answers; stg verdict prints them.
//
// # On-line testing
//
// A Runner plays runs against a SUT through the play engine, with its
// guarantees (package play): an output already emitted comes before
// anything else; the oracle stimulates while some context (after the
// stimuli in flight) can progress by an input toward accept (a child s' of an
// input with TP(s') = skip), choosing the values by solving f ∧ π(a)
// for an accept node a below s' (π(a) implies targetCond(s'), so rule 6
// applies), with the picker of both routes (play.Picker: diversified by
// the seed, by satisfiability alone), in a solver context of the run's own (Z3's models depend on their context's
// history: a run depends on its seed alone, and replays with it);
// otherwise it
// lets the engine wait for an output, silence being the observation δ,
// confirmed when δ would decide the run, otherwise a hypothesis that a
// later output may retract (the oracle is a play.Retracter).
//
// Crossing outputs. An output the SUT emits before it reads a stimulus
// already sent crosses it on the wire. On a Timed adapter the oracle
// judges outputs in queued semantics, as the STG route does (Tretmans
// and Verhaard, "A queue model relating synchronous and asynchronous
// communication", PSTV 1992): it keeps the stimuli in flight (sent, not
// known consumed) and, for k = 0..n of the n in flight, the contexts in
// which the SUT has consumed the first k; an observed output is judged
// from every one of them (Next, NextSkip and NextPass are the unions
// over k, and rules 1-5 apply to the unions), and the contexts after it
// consume the stimuli still in flight: all the successors of each (Next,
// not NextSkip: the SUT consumes its inputs whatever the purpose says),
// closed under internal transitions. A stimulus leaves the queue when no
// context has it still to consume; quiescence means every one was
// consumed (δ is judged after all of them). Stimuli are chosen, and rule
// 6 applied, from the contexts after the whole queue. With no stimulus
// in flight this is the paper's rules on SC as they are, and an
// in-process SUT, which answers before its Input returns, never has one.
// The contexts of one order of the outputs and the stimuli they crossed
// (a reading) share its trace; when none of them allows a stimulus the
// SUT consumes, that reading has left the spec's traces and ioco
// requires nothing after it, so from then on a Fail of the run is
// Inconc. Step.InFlight counts the stimuli in flight of an output's
// step; Tester.ReplayQueued judges a recorded trace so. With
// Options.AvoidCrossing the tester instead stimulates only
// when no context allows an output of the SUT (δ aside), and waits
// otherwise, so that a conformant SUT has no output in flight when an
// input leaves.
//
// External functions. The tree keeps the calls of external functions
// uninterpreted (symex.Options{}): every branch some values of the
// functions allow stays. Tester.Funcs (package extfunc) evaluates a call
// exactly once the events have fixed its arguments, tells the solver the
// rows of the functions' tables as facts, and steers stimuli with the
// solutions of SolveTab (Algorithm 1 of the function-summaries paper,
// summary.SolveCalls) on f ∧ π(a): inputs that realise the path to a
// with every call a row of the run's own tables, which the
// implementations enrich; without one, toward inputs that are rows (the
// summary Sum, Def. 5). The steering only chooses among the models of
// f ∧ π(a), and each stimulus is checked with the calls evaluated, so
// that no verdict depends on a row. A
// stimulus whose effect needs a call with no row and no implementation
// is not sent; a call the run needs and cannot make is an error of the
// run, never Fail.
//
// Observing after WeakPass. With Options.AfterWeakPass Observe a run
// does not end on WeakPass: it sends nothing more and judges up to
// Options.ObserveLimit further observations by the rule Observing
// (observe.go) on its explanations, each marked Context.Accepted when
// its path went through an accept node: Pass when only accepted ones
// survive, Inconc when none does, Fail by rule 2, WeakPass when both
// kinds survive quiescence or the last observation allowed.
//
// Over several runs the verdict is Overall: Fail > Pass > WeakPass >
// Inconc. stg verdict SPEC SYMPURPOSE TRACE replays a trace file with
// Tester.Replay and Tester.WriteStep; stg run SYMPURPOSE -- COMMAND
// plays on-line runs with every option of the engine (campaigns, shards,
// reports, --save-trace, --replay, --shrink).
package online
