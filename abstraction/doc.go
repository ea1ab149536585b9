// Package abstraction implements numerical abstract domains over exact
// rationals for the fixpoint analyses of stg (reachability and
// co-reachability of symbolic transition systems, the role NBac plays in
// the STG tool): linear constraints, the interval domain, and the domain
// of convex polyhedra of Cousot and Halbwachs ("Automatic discovery of
// linear restraints among variables of a program", POPL 1978) with the
// standard widening of Halbwachs (thesis, 1979), known as H79.
//
// All arithmetic is exact (machine integers with overflow checks, math/big
// otherwise); no floating point is used.
//
// # Soundness
//
// A Value denotes a set of points; every operation over-approximates the
// exact result and never under-approximates it. Two deliberate
// over-approximations: strict inequalities over rational dimensions are
// closed (x < 3 becomes x <= 3), and polyhedra are closed rational
// polyhedra even over integer dimensions (the hull of integer sets is
// the rational hull, which may contain non-integer points). Constraints
// entering a value (MeetConstraints, and the substituted constraints of
// Preimage) are tightened when all their variables are integer
// dimensions: a·x + b < 0 becomes a·x + b + 1 <= 0, and a·x <= b with
// g = gcd(a) becomes a/g·x <= floor(b/g). Meet, Join, Widen, Forget and
// Image do not tighten, so that they stay lattice operations on the
// rational sets (Join includes its arguments, Widen includes the join).
//
// # Representation of polyhedra
//
// Polyhedra use the double description: a polyhedron is kept both as a
// minimal system of constraints and as a minimal system of generators
// (vertices, rays and lines), homogenised into a cone in one more
// dimension, and Chernikova's algorithm (in the incremental form of Le
// Verge, with the combinatorial adjacency test) converts between the
// two. This is the representation of NewPolka (behind NBac) and of the
// Parma Polyhedra Library. It was preferred to a constraint-only
// representation with Fourier–Motzkin projection and LP-based
// redundancy removal because the operations a fixpoint engine calls
// most are cheap on the side they need:
//
//   - Includes is a scan of the generators of one argument against the
//     constraints of the other (no LP);
//   - Join (the exact closed convex hull) is the union of the generator
//     systems, converted back incrementally, instead of a projection of
//     the lifted system of Benoy, King and Mesnard whose Fourier–Motzkin
//     elimination blows up and needs an LP per candidate constraint;
//   - Forget adds lines, Image maps generators, Meet and Preimage add
//     (substituted) constraints, each followed by one incremental
//     conversion;
//   - Image and Preimage by an invertible assignment (x := x + 1,
//     x := y - x, ...) map both representations directly, with no
//     conversion at all;
//   - minimisation is combinatorial: a constraint is redundant iff the
//     set of generators it saturates is included in another's, and an
//     inequality saturated by every generator is an implicit equality;
//   - emptiness is the absence of a vertex.
//
// Vectors are primitive integer vectors (gcd 1), equalities are kept in
// reduced echelon form and inequalities are reduced modulo them, so
// Constraints is canonical enough to read and compare. A vector's
// entries are a pointer-free []int64 when they all fit in a machine
// integer (the common case) and math/big integers otherwise; arithmetic
// checks for overflow and promotes to math/big, so results are exact.
//
// The price of the double description is that the generator system can
// be exponentially larger than the constraint system: a box in n
// dimensions has 2^n vertices. Polyhedra up to about ten dimensions, and
// larger ones that are not products of many bounded intervals, are
// cheap (see the benchmarks); for many independently bounded variables
// use Intervals, or partition the variables.
//
// # Intervals
//
// Intervals keeps a closed, possibly unbounded interval per dimension,
// with integer bounds on integer dimensions. MeetConstraints (and hence
// Preimage) propagates each linear constraint to the bounds of its
// variables for a few rounds, which is sound but not always as precise
// as the polyhedral meet followed by projection. Widen pushes unstable
// bounds to the nearest single-variable threshold, or to infinity.
//
// # Errors
//
// Operations never panic on values built through this API, except for
// programming errors: combining values of different domains or of
// spaces of different dimensions, or naming a dimension outside the
// space.
package abstraction
