package solver

// Scopes returns the number of scopes open in s (pushed and not yet
// popped).
func (s *Solver) Scopes() int { return len(s.marks) }

// PopTo closes the scopes opened since s had n open, whatever happened in
// between: a caller that pushes a scope of its own and may leave early
// restores the solver in one call (n := s.Scopes(); s.Push(); defer
// s.PopTo(n)).
func (s *Solver) PopTo(n int) {
	if k := len(s.marks) - n; k > 0 {
		s.Pop(k)
	}
}
