package expr

// The one traversal of expressions: every node kind (literals,
// identifiers, unary and binary operators, conditionals, calls of
// external functions and built-ins, string calls) is visited here, so
// that walkers, folders, flatteners and abstractions written on it see
// every kind of node (as go/ast.Inspect serves the Go tools).

// Children returns the direct subexpressions of e, in order; none for a
// literal or an identifier.
func Children(e Expr) []Expr {
	switch e := e.(type) {
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.X, e.Y}
	case *Cond:
		return []Expr{e.If, e.Then, e.Else}
	case *Call:
		return e.Args
	case *StrCall:
		return e.Args
	}
	return nil
}

// Walk traverses e depth-first: it calls f(e), and when f returns true,
// walks each child of e in order (as go/ast.Inspect).
func Walk(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch n := e.(type) { // the fixed arities without a slice of children
	case *Unary:
		Walk(n.X, f)
	case *Binary:
		Walk(n.X, f)
		Walk(n.Y, f)
	case *Cond:
		Walk(n.If, f)
		Walk(n.Then, f)
		Walk(n.Else, f)
	default:
		for _, c := range Children(e) {
			Walk(c, f)
		}
	}
}

// Inspect calls f on every node of e, parents first.
func Inspect(e Expr, f func(Expr)) {
	Walk(e, func(n Expr) bool { f(n); return true })
}

// Contains reports whether some node of e satisfies p.
func Contains(e Expr, p func(Expr) bool) bool {
	found := false
	Walk(e, func(n Expr) bool {
		if found || p(n) {
			found = true
			return false
		}
		return true
	})
	return found
}

// Transform rebuilds e bottom-up: each node, its children transformed
// first, is passed to f, which returns what replaces it (the node itself
// to keep it). Subtrees that do not change are shared.
func Transform(e Expr, f func(Expr) Expr) Expr {
	switch n := e.(type) {
	case nil:
		return nil
	case *Unary:
		if x := Transform(n.X, f); x != n.X {
			e = &Unary{Op: n.Op, X: x, At: n.At}
		}
	case *Binary:
		x, y := Transform(n.X, f), Transform(n.Y, f)
		if x != n.X || y != n.Y {
			e = &Binary{Op: n.Op, X: x, Y: y, At: n.At}
		}
	case *Cond:
		c, t, el := Transform(n.If, f), Transform(n.Then, f), Transform(n.Else, f)
		if c != n.If || t != n.Then || el != n.Else {
			e = &Cond{If: c, Then: t, Else: el, At: n.At, index: n.index}
		}
	default:
		e = transformArgs(e, f)
	}
	return f(e)
}

// transformArgs transforms the arguments of a call; it allocates a new
// argument list only when some argument changed.
func transformArgs(e Expr, f func(Expr) Expr) Expr {
	cs := Children(e)
	var out []Expr
	for i, c := range cs {
		t := Transform(c, f)
		if t != c && out == nil {
			out = make([]Expr, len(cs))
			copy(out, cs[:i])
		}
		if out != nil {
			out[i] = t
		}
	}
	if out == nil {
		return e
	}
	return withChildren(e, out)
}

// withChildren returns a copy of e with the children cs, in the order of
// Children.
func withChildren(e Expr, cs []Expr) Expr {
	switch e := e.(type) {
	case *Unary:
		return &Unary{Op: e.Op, X: cs[0], At: e.At}
	case *Binary:
		return &Binary{Op: e.Op, X: cs[0], Y: cs[1], At: e.At}
	case *Cond:
		return &Cond{If: cs[0], Then: cs[1], Else: cs[2], At: e.At, index: e.index}
	case *Call:
		return &Call{Func: e.Func, Args: cs, T: e.T, At: e.At, Lens: e.Lens}
	case *StrCall:
		return e.with(cs)
	}
	return e
}
