package abstraction

// A Value is an element of an abstract domain over a Space: a set of
// points of Q^Dim (of Z for integer dimensions). Values are immutable;
// every operation returns a new value or one of its arguments.
//
// Every operation is sound: its result contains (over-approximates) the
// exact result on the represented sets. Combining values of different
// domains or of spaces of different dimensions, or naming a dimension
// outside the space, is a programming error and panics.
type Value interface {
	Space() *Space
	IsEmpty() bool
	IsUniverse() bool
	// Includes reports o ⊆ receiver.
	Includes(o Value) bool
	Equal(o Value) bool
	Meet(o Value) Value
	MeetConstraints(cs []Constraint) Value
	// Join returns the least upper bound in the domain; for polyhedra the
	// exact closed convex hull.
	Join(o Value) Value
	// Widen is the widening with the receiver as the older iterate. The
	// result includes the join of both arguments, and thresholds that
	// both arguments satisfy are kept.
	Widen(newer Value, thresholds []Constraint) Value
	// Forget projects dims existentially: they become unconstrained.
	Forget(dims ...int) Value
	// Image applies the simultaneous affine assignment x_d := e_d for
	// each d in assign; other dimensions are unchanged.
	Image(assign map[int]LinExpr) Value
	// Preimage is the weakest precondition of the simultaneous
	// assignment: { v | assign(v) ∈ receiver }.
	Preimage(assign map[int]LinExpr) Value
	// Constraints returns a minimal (non-redundant) constraint form, all
	// with Op Le or Eq; an empty value gives the single constraint
	// 1 <= 0, a universe none.
	Constraints() []Constraint
	String() string
}

// A Domain makes the extreme values of an abstract domain.
type Domain interface {
	Name() string
	Universe(s *Space) Value
	Empty(s *Space) Value
}
