// Package canonical builds, from a deterministic ioSTS specification S,
// its suspension Δ(S) and its canonical tester can(S), as in §2 and §4
// of Jéron, Rusu et al., "Symbolic test selection" (the STG paper).
//
// Suspension makes quiescence observable: every location l gets a
// self-loop on the new output delta whose guard
//
//	G_δ,l = ¬ ∨_{<l,a,G,A,l'> ∈ T, a ∈ Σ!} ∃π ∈ Π_a. G(a, π)
//
// holds exactly in the states where no output is possible. The
// existential quantifiers are eliminated with Z3 so that guards stay
// quantifier-free and readable.
//
// The canonical tester adds, for every location l and every output a
// (delta included), a transition <l, a, G_Fail, Id, Fail> with
// G_Fail = ¬ ∨ G over the a-transitions leaving l: the unspecified
// outputs. Its traces into Fail are exactly STraces¬ioco(S).
//
// # The τ-closure
//
// The STG paper assumes a spec without internal actions. A spec with
// them (dir: internal) is first closed (Close): the tester cannot see τ,
// so after a visible step the SUT may be in any state of the τ-closure,
// and the closed spec describes the observable behaviour from the state
// reached by the last visible step, before any τ ("pre-τ" states).
//
// For every location l and every simple τ-path π = t1…tk from l (k ≥ 0)
// followed by a visible transition t = <lk, a, G, A, l'>, the closed spec
// has the transition
//
//	<l, a, ∃τ. G1 ∧ G2[A1] ∧ … ∧ G[Ak∘…∘A1], A∘Ak∘…∘A1, l'>
//
// The assignments are deterministic functions of the variables, so
// substitution composes them. A parameter of an internal action whose
// guard defines it (a conjunct p == e, as in a hidden output, whose guard
// gives its values) is replaced by e; the other parameters (renamed p'1,
// p'2, … along the path) are quantified, and Z3's quantifier elimination
// removes them. A path whose guard is
// unsatisfiable is dropped during the enumeration. Acyclic τ-graphs have
// finitely many paths; the closure is then exact: its traces are the
// visible traces of S, and out(S after σ) is exactly the set of outputs
// its transitions allow after σ.
//
// Quiescence looks through τ as in Def. 5 of the component-systems paper:
// δ may follow a run that ends in a state with no τ*·output continuation.
// The tester is in a pre-τ state, so delta is allowed in l when some
// τ-path π from l reaches such a state:
//
//	G_δ,l = ∨_π ∃τ. G_π ∧ NoOut(end(π))[A_π],  NoOut(l) = ¬ ∨ ∃params. G
//
// over the closed output transitions of end(π). A τ-choice between a
// quiescent branch and an output branch allows both δ and the output; a
// state from which only outputs can follow through τ (an output reachable
// only after τ) does not allow δ.
//
// After δ the SUT is in a quiet state of the closure: one with no
// τ*·output continuation. When l has τ-paths, delta leads from l to a
// post-quiescence location quiet(l) (Closure.Quiet, Tester.Quiet), which
// keeps l's values: every output fails there (none can follow quiescence
// without an input), delta loops, and the inputs are those of the quiet
// states only, ∃τ. G_π ∧ NoOut(end(π))[A_π] ∧ G_i[A_π]. Without this
// location the tester would still allow, after δ, the outputs of the
// branches the SUT did not take; on a process SUT, whose outputs may
// cross the tester's inputs on the wire, that ambiguity turns a Pass into
// an Inconc (examples/jobs, purpose-park). A location without τ keeps
// its delta self-loop (exact), and so does a location whose NoOut had to
// be over-approximated (its quiet states are not known exactly; the
// self-loop keeps every continuation, which is sound).
//
// τ-cycles. A cycle that changes no variable adds nothing: going round it
// keeps the values and only conjoins more guards, so the path that skips
// it covers it, and a path returns to a location only when a transition
// since its last visit changed a variable. A cycle that changes variables
// is unrolled while its guards allow it: paths whose guard is
// unsatisfiable under what is known of the reachable states (BuildKnown:
// the spec's invariant: and range: claims once proved, as stg generate
// passes them; an unproved claim is never assumed, since cutting a path
// by a false claim would fail a conformant SUT) are dropped, so a loop
// such as try [n < 3] n := n + 1 on a
// variable with range: [0, 3] is followed round at most three times and
// the closure stays exact. A cycle still feasible after MaxTauDepth (32)
// steps is refused with a FILE:LINE:COL error naming the cycle and its
// first transition that changes a variable. Widening (havocking the
// variables the cycle changes) would be sound for Fail, but a test case
// of the STG route follows concrete values of its variables and cannot
// represent a havocked one; the on-line route (package online), which
// keeps symbolic contexts, handles such specs. A τ-transition that
// assigns to a variable the value of an internal parameter its guard
// does not define gets an unknown instead (hidden.go): a fresh variable
// h_<param>_<n> of the closure (Closure.Hidden), left out of the initial
// condition and kept in the closed guard, so that stg run tracks it as a
// symbol narrowed by what is observed; quiescence quantifies it
// existentially with the outputs. One unknown is one τ-step: a test case
// that can take the transition assigning it twice is refused
// (CheckHidden), and sends before it do not constrain it (FreeSends).
// Enumeration stops, with
// an error, past MaxTauPaths (4096) paths in all.
//
// Determinism. The closed spec must be deterministic, as the STG paper
// assumes and the product relies on (the tester's state after a visible
// step is one location with concrete values). Two closed transitions
// with the same action whose guards overlap are accepted when they reach
// the same location with the same values wherever both hold (typically
// two τ-routes to the same place, or an output possible before and after
// a τ that changes nothing it reads): equal assignments are merged, and
// otherwise the later one is restricted to where the earlier does not
// hold. Any other overlap is a choice the tester cannot resolve from what
// it observes; Close refuses it with a FILE:LINE:COL error naming both
// τ-paths. A τ choosing between different outputs, or between outputs
// with disjoint data, is deterministic after closure and accepted.
//
// Measured (pipeline/tau_test.go, cmd/stg/generate_tau_test.go): the
// jobs example (8 transitions, 3 internal) closes in under 10 ms into a
// canonical tester of 28 transitions; the composed slot machine (11
// transitions, 8 internal with parameters defined by their guards)
// closes into one whose test case has 4 locations besides the verdicts.
// Of 80 random specs with τ (5 locations, acyclic τ that assign or
// cyclic τ that do not), 27 give a test case, 22 have an unreachable
// purpose and 31 are refused as non-deterministic after closure: 18
// differ in target and assignments, 9 reach the same location with
// different values, 4 reach different locations with the same values. The last kind could be determinised by sets of
// locations sharing one valuation; the others need copies of the
// variables per branch (symbolic determinisation), which the test case
// format could hold but a purpose reading the spec's variables could
// not. No random run of these specs, nor of the hand examples, reaches
// Fail.
//
// Soundness. Every closed output guard is exact (or, where quiescence
// needs an ∃ the solver cannot eliminate, δ is over-approximated and a
// note says so), so the canonical tester fails exactly the outputs that
// no state of the τ-closure allows: a conformant SUT never gets Fail. The
// pipeline's property tests (pipeline/tau_test.go) check this with Z3 on
// random specs with τ and against random concrete runs of the spec that
// take τ steps at random.
package canonical
