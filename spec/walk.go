package spec

// Rewrite returns e with every identifier i replaced by f(i) when f
// returns a non-nil expression. Subtrees that do not change are shared.
func Rewrite(e Expr, f func(*Ident) Expr) Expr {
	switch e := e.(type) {
	case *Ident:
		if r := f(e); r != nil {
			return r
		}
		return e
	case *Unary:
		x := Rewrite(e.X, f)
		if x == e.X {
			return e
		}
		return &Unary{Op: e.Op, X: x, At: e.At}
	case *Binary:
		x, y := Rewrite(e.X, f), Rewrite(e.Y, f)
		if x == e.X && y == e.Y {
			return e
		}
		return &Binary{Op: e.Op, X: x, Y: y, At: e.At}
	case *Call:
		var args []Expr
		changed := false
		for _, a := range e.Args {
			r := Rewrite(a, f)
			changed = changed || r != a
			args = append(args, r)
		}
		if !changed {
			return e
		}
		return &Call{Func: e.Func, Args: args, T: e.T, At: e.At, Lens: e.Lens}
	}
	return e
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
	switch e := e.(type) {
	case *Ident:
		f(e)
	case *Unary:
		Idents(e.X, f)
	case *Binary:
		Idents(e.X, f)
		Idents(e.Y, f)
	case *Call:
		for _, a := range e.Args {
			Idents(a, f)
		}
	}
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
	case *Ident:
		b, ok := b.(*Ident)
		return ok && a.Name == b.Name && a.Kind == b.Kind
	case *Unary:
		b, ok := b.(*Unary)
		return ok && a.Op == b.Op && Equal(a.X, b.X)
	case *Binary:
		b, ok := b.(*Binary)
		return ok && a.Op == b.Op && Equal(a.X, b.X) && Equal(a.Y, b.Y)
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
// constant operand, and no %, call or non-constant division occurs,
// so that the analyses can treat e exactly.
func IsLinear(e Expr) bool {
	switch e := e.(type) {
	case *Unary:
		return IsLinear(e.X)
	case *Binary:
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
	_, ok := constValue(e)
	return ok
}
