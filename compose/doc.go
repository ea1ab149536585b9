// Package compose builds the ioSTS of a system of components: the
// composition and hiding of Def 7 of Faivre, Gaston and Le Gall,
// "Symbolic model based testing for component oriented systems"
// (TestCom/FATES 2007), its
// sub-systems (Def 8) and the projection of a system transition onto a
// sub-system (Def 9).
//
// # Names
//
// A transition of a system carries a system transition name (o, {i1..ik})
// (Name): o is the basic output or internal transition that fires, or
// ε when the environment emits, and i1..ik are the basic input
// transitions that receive with it. Basic names are qualified by their
// component (SM.s_pay); a name prints as SM.s_pay+{Int.i_cash}, as
// SM.s_pay when nothing receives, and as {Int.i_bet} for an input from
// the environment.
//
// # Composition
//
// Build reads a spec.System bottom-up. A component's transitions are
// renamed (its variables qualified Int.b, its action parameters renamed
// to the channel's first declaration in the library, its transition
// names qualified). G1 ⊗ G2 has the states of G1 × G2 reachable from
// (init1, init2) along the rules, which, from a state (q1, q2), read
// (and the same with G1 and G2 swapped):
//
//   - R1: an output c of G1 and an input c of G2 synchronise into an
//     output c named (o1, i1 ∪ i2) with guard G1 ∧ G2 (the input's
//     parameters are the output's) and both assignments;
//   - R2: an output c of G1 also goes to the environment, G2 idle, with
//     guard G1 ∧ ¬G2j for every input c of G2 from q2: emission never
//     blocks;
//   - R3: two inputs c synchronise into an input c named (ε, i1 ∪ i2);
//   - R4: an input c of G1 alone, with guard G1 ∧ ¬G2j for every input
//     c of G2 from q2;
//   - R5: an internal transition of G1 interleaves.
//
// Transitions whose guard is unsatisfiable under the invariant are
// dropped (BuildWith asks the solver; Build with a context of its own;
// an undecided guard is kept), and so are the states only they would
// reach, since the states are those reachable along the rules: an R2 or
// R4 complement that contradicts itself (x >= a && x < a) leaves no dead
// transition and no dead location, and coverage of the flat model counts
// feasible transitions only. The complement guards of R2 and R4 are
// written simplified by the solver (x >= 5 for x > 0 && x >= 5). Hide(C, G)
// turns the outputs on channels of C into internal transitions that
// keep their names and removes the inputs on channels of C (they would
// need an environment that the hiding has removed); the states are
// those still reachable.
//
// # Flat model
//
// System.Model writes a system as a flat spec.Model: its locations are
// the state tuples written q1,q2; its variables are the qualified
// variables; hidden outputs are actions of dir internal. stg's actions
// have one direction, so a visible channel that the system both emits
// and receives from its environment (an unhidden channel shared by an
// emitter and a receiver, which R4 lets the environment drive too) is
// reported: hide it.
//
// # Projection
//
// Def 9 projects tr = ((o, i), b) onto a sub-system sys' as the
// transition of sys' named (o', i') from tr's source state restricted to
// sys', where o' is o when o belongs to sys' (else ε) and i' is the part
// of i that belongs to sys'. Taking i' maximal is what makes the
// projection unique (R2 gives (o, ∅) next to (o, {i}) from the same
// state); when (o', i') = (ε, ∅) sys' does not move.
package compose
