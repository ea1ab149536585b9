// Package project projects the symbolic behaviours of a system onto one
// of its sub-systems and turns a projected behaviour into a symbolic
// test purpose for the sub-system alone: Defs 10-12, 15, 16 and 18 of
// Faivre, Gaston, Le Gall and Touil, "Symbolic model based testing for
// component oriented systems" (TestCom/FATES 2007).
//
// # The formal objects
//
//   - An Extended state is η = (q, π, f, σ) of Def 10: a node of the
//     symbolic execution tree of the sub-system's spec (package symex:
//     location, path condition π, symbolic values σ) and an external
//     constraint f that symbolic execution does not compute.
//   - A Step is the projection of one system step onto the sub-system
//     (Def 15): SE(tr_sys', η, ct) with ct = pc ∧ ec of the system's
//     target, and its complementary twin SE(tr_sys', η, ¬ct) (Def 12).
//     At system level every ec is true (the ¬ct copy is unsatisfiable),
//     so ct is the system's path condition.
//   - A Projection is the projection of a system path (Def 16): the
//     steps of the path that the sub-system takes part in (Def 9,
//     compose.System.Project), the others leaving it unchanged.
//   - Purpose is the test purpose of Def 18 for a projection: the
//     accept nodes (the target of the projection when it ends with an
//     output, else its extensions by τ*·output, and quiescence after a
//     final input where Def 14 allows it, symex.TauQuiescence), skip
//     their ancestors, ⊥ everything else, the twins included, written
//     as a sympurpose file whose accept paths carry the external
//     constraint (spec.AcceptPath.Constraint) over the spec's variables
//     and the steps' parameters (Readable; a symbol with no such name,
//     rare, is eliminated, which weakens the constraint: the purpose
//     then accepts more). Package
//     online plays it against the sub-system's SUT alone: it sends only
//     values that satisfy the constraint and gives Pass only to
//     behaviours that do.
//
// # Symbols
//
// The sub-system is executed on its own spec (the component's spec for
// a component; compose.System.Model for a composite sub-system), with
// its own fresh symbols. Def 15 executes the projected transition with
// the system step's fresh variable z; here the system step's parameter
// symbols are mapped, in order, onto the symbols of the sub-system's
// step, and the initial symbols of the sub-system's variables (SM.bb@0)
// onto the sub-system's own (bb@0). The system's symbols that the
// sub-system does not share (the player's bet before the interface
// forwards it, the interface's variables) are eliminated from ct by
// quantifier elimination: ct is ∃F_sys. pc. This is exact: a valuation
// of the shared symbols satisfies ∃F_sys. pc iff some run of the system
// gives the sub-system those values.
//
// # Soundness
//
// External constraints only partition the sub-system's behaviours (Def
// 12): the twins together cover every behaviour of the sub-system's
// spec, so a purpose with constraints changes which runs Pass and which
// are Inconc, never which Fail. When the solver cannot eliminate a
// quantifier, Project fails rather than weaken or strengthen ct.
package project
