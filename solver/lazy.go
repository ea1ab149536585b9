package solver

// A Lazy is a run's solver: made on first use (Get), in a context given
// once, and closed at the end of the run (Close). The oracles of the
// play engine solve every choice of a run in scopes of one solver, so
// that no check pays for making a solver and a run's answers do not
// depend on solvers made for other runs.
type Lazy struct {
	Context *Context
	s       *Solver
}

// Get returns the solver, made on the first call.
func (l *Lazy) Get() *Solver {
	if l.s == nil {
		l.s = l.Context.NewSolver()
	}
	return l.s
}

// Close closes the solver, if it was made; Get makes a new one after.
func (l *Lazy) Close() {
	if l.s != nil {
		l.s.Close()
		l.s = nil
	}
}
