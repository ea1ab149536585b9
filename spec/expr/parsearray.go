package expr

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math/big"
	"strconv"
)

// array returns the array a names in the scope, or nil.
func (c *checker) array(name string) *ArrayVar {
	if c.scope == nil {
		return nil
	}
	return c.scope.Arrays[name]
}

// cell returns the identifier of cell i of array a.
func (c *checker) cell(a *ArrayVar, i int, p Pos) Expr {
	name := a.Cell(i)
	if t, ok := c.scope.Params[name]; ok {
		return &Ident{Name: name, Kind: ParamIdent, T: t, At: p}
	}
	return &Ident{Name: name, Kind: VarIdent, T: a.Elem, At: p}
}

// cells returns the identifiers of the cells of a, in order.
func (c *checker) cells(a *ArrayVar, p Pos) []Expr {
	es := make([]Expr, a.Len)
	for i := range es {
		es[i] = c.cell(a, i, p)
	}
	return es
}

func ArrayTypeText(n int, t Type) string { return "[" + strconv.Itoa(n) + "]" + t.String() }

// arrayArg reads a, what (argument i of f, the value of an array) of
// type [size]elem: the name of an array or a literal [size]elem{x, y,
// ...}; it returns the cells, or nil after an error.
func (c *checker) arrayArg(a ast.Expr, what string, size int, elem Type) []Expr {
	want := ArrayTypeText(size, elem)
	switch a := a.(type) {
	case *ast.ParenExpr:
		return c.arrayArg(a.X, what, size, elem)
	case *ast.Ident:
		arr := c.array(a.Name)
		if arr == nil {
			break
		}
		if arr.Len != size || arr.Elem != elem {
			c.errorf(a.Pos(), "%s has type %s, want %s", what, ArrayTypeText(arr.Len, arr.Elem), want)
			return nil
		}
		return c.cells(arr, c.pos(a.Pos()))
	case *ast.CompositeLit:
		return c.arrayLit(a, want, size, elem)
	}
	c.errorf(a.Pos(), "%s must be an array of type %s (an array variable or %s{...})", what, want, want)
	return nil
}

// arrayLit reads the literal [size]elem{x, y, ...}.
func (c *checker) arrayLit(a *ast.CompositeLit, want string, size int, elem Type) []Expr {
	var l *ast.BasicLit
	var et *ast.Ident
	at, ok := a.Type.(*ast.ArrayType)
	if ok {
		l, _ = at.Len.(*ast.BasicLit)
		et, _ = at.Elt.(*ast.Ident)
	}
	if !ok || l == nil || l.Kind != token.INT || l.Value != strconv.Itoa(size) || et == nil || et.Name != elem.String() {
		c.errorf(a.Pos(), "an array argument of type %s is written %s{...}", want, want)
		return nil
	}
	if len(a.Elts) != size {
		c.errorf(a.Pos(), "array literal of type %s has %d elements, want %d", want, len(a.Elts), size)
		return nil
	}
	var es []Expr
	for _, x := range a.Elts {
		e := c.expr(x)
		if e.Type().Kind == Invalid {
			return nil
		}
		if e.Type() != elem {
			if r, ok := AsReal(e); ok && elem == RealType {
				e = r
			} else {
				c.errorf(x.Pos(), "element %s of %s has type %s, want %s", Format(e), want, e.Type(), elem)
				return nil
			}
		}
		es = append(es, e)
	}
	return es
}

// stringOperand reports whether x, the operand of an index, is a
// string: a string variable or parameter, or any other expression than
// a name (which is then checked).
func (c *checker) stringOperand(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	if !ok {
		return true
	}
	if c.scope == nil {
		return false
	}
	if t, ok := c.scope.Params[id.Name]; ok {
		return t == StringType
	}
	return c.scope.Vars[id.Name] == StringType
}

// index reads a[k]: with a constant k, the cell's identifier.
func (c *checker) index(n *ast.IndexExpr) Expr {
	id, ok := n.X.(*ast.Ident)
	var arr *ast.Ident
	if ok {
		arr = id
	}
	if arr == nil || c.array(arr.Name) == nil {
		if c.stringOperand(n.X) {
			return c.strIndex(c.expr(n.X), n)
		}
		c.errorf(n.Pos(), "indexing is allowed on array variables and strings only")
		return bad
	}
	a := c.array(arr.Name)
	k := c.expr(n.Index)
	if k.Type().Kind == Invalid {
		return bad
	}
	if k.Type() != IntType {
		c.errorf(n.Index.Pos(), "index %s of %s has type %s, want int", Format(k), a.Name, k.Type())
		return bad
	}
	p := c.pos(n.Pos())
	if v, ok := ConstValue(k); ok {
		i := v.Num()
		if !v.IsInt() || i.Sign() < 0 || i.Cmp(bigInt(a.Len)) >= 0 {
			c.errorf(n.Index.Pos(), "index %s out of range for %s (length %d)", v.RatString(), a.Name, a.Len)
			return bad
		}
		return c.cell(a, int(i.Int64()), p)
	}
	return c.expanded(c.varIndex(a, k, p), n.Pos(), "the array read "+a.Name+"[...]")
}

// varIndex reads a[k] for a non-constant k: the chain
// ite(k == 0, a[0], ite(k == 1, a[1], ... a[N-1])), defined when
// 0 <= k < N (recorded in c.bounds).
func (c *checker) varIndex(a *ArrayVar, k Expr, p Pos) Expr {
	c.bound(k, a.Len)
	return IndexChain(c.cells(a, p), k, p)
}

// IndexChain returns the cell of cells at the index k, as a chain of
// Conds; the last cell is the value for every k past the others.
func IndexChain(cells []Expr, k Expr, p Pos) Expr {
	r := cells[len(cells)-1]
	for i := len(cells) - 2; i >= 0; i-- {
		r = &Cond{If: &Binary{Op: Eq, X: k, Y: IntConst(int64(i)), At: p}, Then: cells[i], Else: r, At: p, index: true}
	}
	return r
}

func bigInt(n int) *big.Int { return big.NewInt(int64(n)) }

// ParseArray type-checks src, the value of an array of n elements of
// type elem (an array variable of that type or an array literal), at pos
// in scope. It returns the n cells and the bounds under which they are
// defined, or an ErrorList of type errors, or nil cells and no error
// when src is something else, or a non-ErrorList error when src is not
// an expression at all (Parse reports that error with its position).
func ParseArray(src string, pos Pos, scope *Scope, what string, n int, elem Type) (cells, bounds []Expr, err error) {
	fset := token.NewFileSet()
	x, err := parser.ParseExprFrom(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	c := &checker{fset: fset, base: pos, scope: scope}
	cells = c.arrayArg(x, what, n, elem)
	if len(c.errs) > 0 {
		return nil, nil, c.errs
	}
	return cells, c.bounds, nil
}
