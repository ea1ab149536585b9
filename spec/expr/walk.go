package expr

// Rewrite returns e with every identifier i replaced by f(i) when f
// returns a non-nil expression. Subtrees that do not change are shared.
func Rewrite(e Expr, f func(*Ident) Expr) Expr {
	return Transform(e, func(n Expr) Expr {
		if id, ok := n.(*Ident); ok {
			if r := f(id); r != nil {
				return r
			}
		}
		return n
	})
}

// Substitute replaces the variables named in vars and the parameters
// named in params by the given expressions (simultaneously).
func Substitute(e Expr, vars, params map[string]Expr) Expr {
	return Rewrite(e, func(id *Ident) Expr {
		if id.Kind == VarIdent {
			return vars[id.Name]
		}
		return params[id.Name]
	})
}

// Idents calls f for every identifier occurrence in e, in order.
func Idents(e Expr, f func(*Ident)) {
	Inspect(e, func(n Expr) {
		if id, ok := n.(*Ident); ok {
			f(id)
		}
	})
}

// Mentions reports whether e reads the identifier of the given kind and name.
func Mentions(e Expr, kind IdentKind, name string) bool {
	found := false
	Idents(e, func(id *Ident) {
		if id.Kind == kind && id.Name == name {
			found = true
		}
	})
	return found
}

// Equal reports whether two expressions are structurally equal
// (positions are ignored).
func Equal(a, b Expr) bool {
	switch a := a.(type) {
	case *IntLit:
		b, ok := b.(*IntLit)
		return ok && a.Val.Cmp(b.Val) == 0
	case *RealLit:
		b, ok := b.(*RealLit)
		return ok && a.Val.Cmp(b.Val) == 0
	case *BoolLit:
		b, ok := b.(*BoolLit)
		return ok && a.Val == b.Val
	case *EnumLit:
		b, ok := b.(*EnumLit)
		return ok && a.Enum == b.Enum && a.Index == b.Index
	case *StrLit:
		b, ok := b.(*StrLit)
		return ok && a.Val == b.Val
	case *StrCall:
		b, ok := b.(*StrCall)
		if !ok || a.Fn != b.Fn || a.Pattern != b.Pattern || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Args {
			if !Equal(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	case *Ident:
		b, ok := b.(*Ident)
		return ok && a.Name == b.Name && a.Kind == b.Kind
	case *Unary:
		b, ok := b.(*Unary)
		return ok && a.Op == b.Op && Equal(a.X, b.X)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && a.Op == b.Op && Equal(a.X, b.X) && Equal(a.Y, b.Y)
	case *Cond:
		b, ok := b.(*Cond)
		return ok && Equal(a.If, b.If) && Equal(a.Then, b.Then) && Equal(a.Else, b.Else)
	case *Call:
		b, ok := b.(*Call)
		if !ok || a.Func != b.Func || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Args {
			if !Equal(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// IsLinear reports whether every product and quotient in e has a
// constant operand, and no %, call, conversion, conditional or
// non-constant division occurs, so that the analyses can treat e exactly.
func IsLinear(e Expr) bool {
	switch e := e.(type) {
	case *Unary:
		return e.Op != ToReal && IsLinear(e.X)
	case *Cond, *StrCall, *StrLit:
		return false
	case *Binary:
		if e.Op.IsComparison() && e.X.Type().Kind == Str {
			return false
		}
		switch e.Op {
		case Mul:
			return IsLinear(e.X) && IsLinear(e.Y) && (isConst(e.X) || isConst(e.Y))
		case Div:
			return e.Type().Kind == Real && IsLinear(e.X) && isConst(e.Y)
		case Mod:
			return false
		}
		return IsLinear(e.X) && IsLinear(e.Y)
	case *Call:
		return false
	}
	return true
}

func isConst(e Expr) bool {
	_, ok := ConstValue(e)
	return ok
}

// LiftConds returns a predicate equivalent to e in which no Cond occurs
// in a comparison or as a Boolean operand: a comparison reading
// ite(c, a, b) is split into (c && ...a...) || (!c && ...b...). The
// analyses that need comparisons of affine terms use it; the result can
// be exponentially larger than e (each Cond doubles its comparison).
func LiftConds(e Expr) Expr {
	switch e := e.(type) {
	case *Unary:
		if e.Op == Not {
			return NotOf(LiftConds(e.X))
		}
	case *Binary:
		switch {
		case e.Op == And:
			return AndOf(LiftConds(e.X), LiftConds(e.Y))
		case e.Op == Or:
			return OrOf(LiftConds(e.X), LiftConds(e.Y))
		case e.Op.IsComparison():
			if c := firstCond(e); c != nil {
				return split(c, replaceNode(e, c, c.Then), replaceNode(e, c, c.Else))
			}
		}
	case *Cond:
		return split(e, e.Then, e.Else)
	}
	return e
}

func split(c *Cond, then, els Expr) Expr {
	cond := LiftConds(c.If)
	return OrOf(AndOf(cond, LiftConds(then)), AndOf(NotOf(cond), LiftConds(els)))
}

// firstCond returns a Cond in e's operands, or nil.
func firstCond(e Expr) *Cond {
	var c *Cond
	Walk(e, func(n Expr) bool {
		if k, ok := n.(*Cond); ok && c == nil {
			c = k
		}
		return c == nil
	})
	return c
}

// replaceNode returns e with the node old replaced by r.
func replaceNode(e, old, r Expr) Expr {
	if e == old {
		return r
	}
	cs := Children(e)
	if len(cs) == 0 {
		return e
	}
	out := make([]Expr, len(cs))
	for i, c := range cs {
		out[i] = replaceNode(c, old, r)
	}
	return withChildren(e, out)
}

// HasCond reports whether a Cond occurs in e.
func HasCond(e Expr) bool {
	return Contains(e, func(n Expr) bool { _, ok := n.(*Cond); return ok })
}
