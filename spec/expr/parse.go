package expr

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"math/big"
	"regexp"
	"strings"
)

// Scope tells the type checker what names an expression may use.
type Scope struct {
	Vars   map[string]Type  // attribute variables
	Params map[string]Type  // parameters of the transition's action
	Consts map[string]*Enum // enum constant name -> its enum
	Funcs  map[string]*Func // declared functions (defined and external)

	// Arrays are the array variables (or, in a function's body, array
	// parameters) whose cells are in Vars (or Params) as "a[0]", "a[1]"...
	Arrays map[string]*ArrayVar
}

// Func declares a function a model may call (docs/reference.md#expressions, calls).
//
// A function is either defined in the model (Def != nil: its body is
// inlined at every call by the type checker, so no Call to it survives
// parsing) or external: a Call to it stays in the expressions, the
// solver sees an uninterpreted function or the summaries of Table
// (package summary), and evaluation asks an Implementation.
//
// Arrays are flattened before anything else sees them: a parameter of
// type [N]T contributes N scalar entries to Params, an array argument
// contributes its N cells to a Call's Args, and a table row lists the
// flattened arguments followed by the result.
type Func struct {
	Name   string
	Params []Type // flattened scalar parameter types
	Result Type
	Pos    Pos

	// ParamLens has one entry per declared parameter: N for an array
	// [N]T, 0 for a scalar (nil: every parameter is a scalar).
	ParamLens []int

	ParamNames []string // flattened names ("v[0]", "v[1]" for v: [2]int), when params are named
	Def        Expr     // the body of a defined function, or nil

	DefBounds Expr // the index bounds of Def (see ParseGuarded), or nil

	Table   []TableRow // known input/output tuples of an external function
	Impl    string     // a command speaking JSON Lines that computes it, or ""
	ImplPos Pos
	// ImplDir is the directory Impl runs in (dir:), relative to the
	// model file's directory unless absolute; "": that directory.
	ImplDir string
}

// TableRow is a known tuple of an external function f:
// f(Args...) = Result (the tab_p of the function-summaries paper).
type TableRow struct {
	Args   []Value
	Result Value
	Pos    Pos
}

// IsExternal reports whether calls of f stay in expressions.
func (f *Func) IsExternal() bool { return f.Def == nil }

// Parse reads the expression src written at pos (the position of its
// first character in the model file) and type-checks it in scope.
// Errors are an ErrorList with model-file positions.
//
// An array cell read at a computed index, a[k], is defined only when
// 0 <= k < len(a): a predicate comes back conjoined with that condition
// (so that an out-of-range index makes it false); for another
// expression use ParseGuarded, which returns the condition.
func Parse(src string, pos Pos, scope *Scope) (Expr, error) {
	e, def, err := ParseGuarded(src, pos, scope)
	if err != nil {
		return nil, err
	}
	if e.Type() == BoolType {
		return Guard(e, def), nil
	}
	return e, nil
}

// ParseGuarded reads and type-checks src as Parse does, and returns,
// separately, the condition under which its array indexes are in range
// (true when it reads no cell at a computed index).
func ParseGuarded(src string, pos Pos, scope *Scope) (e Expr, def Expr, err error) {
	fset := token.NewFileSet()
	node, err := parser.ParseExprFrom(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		var errs ErrorList
		if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
			e := list[0]
			errs.Add(Shift(pos, e.Pos.Line, e.Pos.Column), "syntax error in expression %q: %s", src, e.Msg)
		} else {
			errs.Add(pos, "syntax error in expression %q: %v", src, err)
		}
		return nil, nil, errs.Err()
	}
	c := &checker{fset: fset, base: pos, scope: scope}
	e = c.expr(node)
	if len(c.errs) > 0 {
		return nil, nil, c.errs.Err()
	}
	return e, AndOf(c.bounds...), nil
}

// Guard returns e && def, leaving out the conjuncts of def that e
// already has (so that reading a written model back does not repeat
// the index bounds).
func Guard(e, def Expr) Expr {
	have := Conjuncts(e)
	r := e
	for _, d := range Conjuncts(def) {
		if IsTrue(d) || containsExpr(have, d) {
			continue
		}
		have = append(have, d)
		r = AndOf(r, d)
	}
	return r
}

func containsExpr(es []Expr, e Expr) bool {
	for _, x := range es {
		if Equal(x, e) {
			return true
		}
	}
	return false
}

// ParseBool parses a predicate: an expression of type bool.
func ParseBool(src string, pos Pos, scope *Scope) (Expr, error) {
	e, err := Parse(src, pos, scope)
	if err != nil {
		return nil, err
	}
	if e.Type() != BoolType {
		var errs ErrorList
		errs.Add(pos, "expression %q has type %s, want bool", src, e.Type())
		return nil, errs.Err()
	}
	return e, nil
}

// at returns pos moved right by off columns (expressions sit on one line
// of the model file; multi-line expressions get an approximate column).
func at(pos Pos, off int) Pos {
	if !pos.IsValid() {
		return pos
	}
	pos.Col += off
	return pos
}

type checker struct {
	fset   *token.FileSet
	base   Pos
	scope  *Scope
	errs   ErrorList
	bounds []Expr // 0 <= k && k < N for every a[k] read at a computed k
	sizes  map[Expr]int
}

// maxExpanded bounds the size of an expression once the built-ins,
// the defined functions and the array reads are expanded (each can
// repeat its arguments: min(min(min(...))) doubles at every level).
const maxExpanded = 1 << 16

// expanded returns e, or bad after an error at p when e, as a tree, has
// more than maxExpanded nodes.
func (c *checker) expanded(e Expr, p token.Pos, what string) Expr {
	if n := c.size(e); n > maxExpanded {
		c.errorf(p, "expression too large once %s is expanded (more than %d nodes)", what, maxExpanded)
		return bad
	}
	return e
}

// size counts the nodes of e as a tree (shared subtrees counted at each
// occurrence), memoised per node so that it costs the size of the DAG.
func (c *checker) size(e Expr) int {
	if n, ok := c.sizes[e]; ok {
		return n
	}
	n := 1
	switch e := e.(type) {
	case *Unary:
		n += c.size(e.X)
	case *Binary:
		n += c.size(e.X) + c.size(e.Y)
	case *Cond:
		n += c.size(e.If) + c.size(e.Then) + c.size(e.Else)
	case *Call:
		for _, a := range e.Args {
			n += c.size(a)
		}
	case *StrCall:
		for _, a := range e.Args {
			n += c.size(a)
		}
	}
	n = min(n, maxExpanded+1)
	if c.sizes == nil {
		c.sizes = map[Expr]int{}
	}
	c.sizes[e] = n
	return n
}

// bound records that the index k of an array of length n must be in range.
func (c *checker) bound(k Expr, n int) {
	for _, b := range []Expr{Compare(Le, IntConst(0), k), Compare(Lt, k, IntConst(int64(n)))} {
		if !containsExpr(c.bounds, b) {
			c.bounds = append(c.bounds, b)
		}
	}
}

func (c *checker) pos(p token.Pos) Pos {
	if !p.IsValid() {
		return c.base
	}
	gp := c.fset.Position(p)
	return Shift(c.base, gp.Line, gp.Column)
}

// Shift returns the model-file position of line and column (from 1) of
// an expression that starts at base. Continuation lines of a multi-line
// expression get the expression's own column (an approximation: YAML
// has removed the indentation).
func Shift(base Pos, line, col int) Pos {
	if !base.IsValid() {
		return base
	}
	if line > 1 {
		base.Line += line - 1
		base.Col = col
		return base
	}
	base.Col += col - 1
	return base
}

func (c *checker) errorf(p token.Pos, format string, args ...any) {
	c.errs.Add(c.pos(p), format, args...)
}

// bad is the expression standing for an erroneous subexpression; it has
// the invalid type, and operations on it report nothing further.
var bad = &Ident{Name: "_", T: Type{}}

func (c *checker) expr(n ast.Expr) Expr {
	switch n := n.(type) {
	case *ast.ParenExpr:
		return c.expr(n.X)
	case *ast.BasicLit:
		return c.basicLit(n)
	case *ast.Ident:
		return c.ident(n)
	case *ast.UnaryExpr:
		return c.unary(n)
	case *ast.BinaryExpr:
		return c.binary(n)
	case *ast.CallExpr:
		return c.call(n)
	case *ast.IndexExpr:
		return c.index(n)
	case *ast.SelectorExpr:
		return c.selector(n) // system.go: a component's variable Int.b
	case *ast.SliceExpr:
		return c.strSlice(n)
	}
	c.errorf(n.Pos(), "%s is not allowed in an expression", describe(n))
	return bad
}

func describe(n ast.Expr) string {
	switch n.(type) {
	case *ast.SelectorExpr:
		return "a selector (x.y)"
	case *ast.IndexExpr, *ast.IndexListExpr:
		return "indexing"
	case *ast.SliceExpr:
		return "slicing"
	case *ast.StarExpr:
		return "a pointer dereference"
	case *ast.CompositeLit:
		return "a composite literal"
	case *ast.FuncLit:
		return "a function literal"
	case *ast.TypeAssertExpr:
		return "a type assertion"
	case *ast.KeyValueExpr:
		return "a key: value pair"
	}
	return fmt.Sprintf("%T", n)
}

func (c *checker) basicLit(n *ast.BasicLit) Expr {
	p := c.pos(n.Pos())
	switch n.Kind {
	case token.INT:
		v, ok := new(big.Int).SetString(strings.ReplaceAll(n.Value, "_", ""), 0)
		if !ok {
			c.errorf(n.Pos(), "malformed integer %s", n.Value)
			return bad
		}
		return &IntLit{Val: v, At: p}
	case token.FLOAT:
		v, ok := new(big.Rat).SetString(strings.ReplaceAll(n.Value, "_", ""))
		if !ok || strings.ContainsAny(n.Value, "xXpP") {
			c.errorf(n.Pos(), "malformed decimal %s", n.Value)
			return bad
		}
		return &RealLit{Val: v, At: p}
	case token.STRING:
		return c.strLit(n)
	}
	c.errorf(n.Pos(), "literal %s is not allowed: only integers, decimals, strings, true, false and enum constants", n.Value)
	return bad
}

func (c *checker) ident(n *ast.Ident) Expr {
	p := c.pos(n.Pos())
	switch n.Name {
	case "true":
		return &BoolLit{Val: true, At: p}
	case "false":
		return &BoolLit{Val: false, At: p}
	}
	s := c.scope
	if s != nil {
		if t, ok := s.Params[n.Name]; ok {
			return &Ident{Name: n.Name, Kind: ParamIdent, T: t, At: p}
		}
		if t, ok := s.Vars[n.Name]; ok {
			return &Ident{Name: n.Name, Kind: VarIdent, T: t, At: p}
		}
		if e, ok := s.Consts[n.Name]; ok {
			return &EnumLit{Enum: e, Index: e.Index(n.Name), At: p}
		}
		if a := s.Arrays[n.Name]; a != nil {
			c.errorf(n.Pos(), "array %s is read by cell (%s[i]) or passed whole to a function", n.Name, n.Name)
			return bad
		}
	}
	c.errorf(n.Pos(), "undeclared name %s", n.Name)
	return bad
}

func (c *checker) unary(n *ast.UnaryExpr) Expr {
	x := c.expr(n.X)
	p := c.pos(n.Pos())
	if x.Type().Kind == Invalid {
		return bad
	}
	switch n.Op {
	case token.SUB:
		if !x.Type().IsNumeric() {
			c.errorf(n.Pos(), "operator - not defined on %s (type %s)", Format(x), x.Type())
			return bad
		}
		// Fold negative constants so that "-5" is a literal.
		switch l := x.(type) {
		case *IntLit:
			return &IntLit{Val: new(big.Int).Neg(l.Val), At: p}
		case *RealLit:
			return &RealLit{Val: new(big.Rat).Neg(l.Val), At: p}
		}
		return &Unary{Op: Neg, X: x, At: p}
	case token.ADD:
		if !x.Type().IsNumeric() {
			c.errorf(n.Pos(), "operator + not defined on %s (type %s)", Format(x), x.Type())
			return bad
		}
		return x
	case token.NOT:
		if x.Type() != BoolType {
			c.errorf(n.Pos(), "operator ! not defined on %s (type %s)", Format(x), x.Type())
			return bad
		}
		return &Unary{Op: Not, X: x, At: p}
	}
	c.errorf(n.Pos(), "operator %s is not allowed", n.Op)
	return bad
}

var binaryOps = map[token.Token]Op{
	token.ADD: Add, token.SUB: Sub, token.MUL: Mul, token.QUO: Div, token.REM: Mod,
	token.EQL: Eq, token.NEQ: Ne, token.LSS: Lt, token.LEQ: Le, token.GTR: Gt, token.GEQ: Ge,
	token.LAND: And, token.LOR: Or,
}

func (c *checker) binary(n *ast.BinaryExpr) Expr {
	x, y := c.expr(n.X), c.expr(n.Y)
	op, ok := binaryOps[n.Op]
	if !ok {
		c.errorf(n.OpPos, "operator %s is not allowed (use + - * / %% == != < <= > >= && || !)", n.Op)
		return bad
	}
	if x.Type().Kind == Invalid || y.Type().Kind == Invalid {
		return bad
	}
	p := c.pos(n.OpPos)
	switch op {
	case And, Or:
		for _, o := range []Expr{x, y} {
			if o.Type() != BoolType {
				c.errorf(n.OpPos, "operator %s not defined on %s (type %s)", op, Format(o), o.Type())
				return bad
			}
		}
		return &Binary{Op: op, X: x, Y: y, At: p}
	}
	x, y, ok = c.unify(n, x, y)
	if !ok {
		return bad
	}
	t := x.Type()
	if t == StringType && op == Add {
		return &StrCall{Fn: StrConcat, Args: []Expr{x, y}, At: p}
	}
	switch op {
	case Add, Sub, Mul, Div:
		if !t.IsNumeric() {
			c.errorf(n.OpPos, "operator %s not defined on %s (type %s)", op, Format(x), t)
			return bad
		}
		if op == Div {
			if isZero(y) {
				c.errorf(n.Y.Pos(), "division by zero")
				return bad
			}
		}
	case Mod:
		if t != IntType {
			c.errorf(n.OpPos, "operator %% is defined on int only, not %s", t)
			return bad
		}
		if isZero(y) {
			c.errorf(n.Y.Pos(), "division by zero")
			return bad
		}
	case Lt, Le, Gt, Ge:
		if !t.IsNumeric() && t != StringType {
			c.errorf(n.OpPos, "operator %s not defined on %s (type %s)", op, Format(x), t)
			return bad
		}
	}
	return &Binary{Op: op, X: x, Y: y, At: p}
}

func isZero(e Expr) bool {
	switch l := e.(type) {
	case *IntLit:
		return l.Val.Sign() == 0
	case *RealLit:
		return l.Val.Sign() == 0
	}
	return false
}

// unify gives x and y the same type. The one implicit rule: an integer
// constant next to a real operand is a real constant (as Go's untyped
// constants). An int variable never silently becomes real.
func (c *checker) unify(n *ast.BinaryExpr, x, y Expr) (Expr, Expr, bool) {
	tx, ty := x.Type(), y.Type()
	if tx == ty {
		return x, y, true
	}
	if tx == RealType && ty == IntType {
		if r, ok := AsReal(y); ok {
			return x, r, true
		}
	}
	if tx == IntType && ty == RealType {
		if r, ok := AsReal(x); ok {
			return r, y, true
		}
	}
	c.errorf(n.OpPos, "mismatched types %s and %s in %s %s %s", tx, ty, Format(x), n.Op, Format(y))
	return x, y, false
}

// AsReal converts a constant integer expression to a real one.
func AsReal(e Expr) (Expr, bool) {
	switch e := e.(type) {
	case *IntLit:
		return &RealLit{Val: new(big.Rat).SetInt(e.Val), At: e.At}, true
	case *Unary:
		if e.Op == Neg {
			if x, ok := AsReal(e.X); ok {
				return &Unary{Op: Neg, X: x, At: e.At}, true
			}
		}
	case *Binary:
		if e.Op == Add || e.Op == Sub || e.Op == Mul {
			x, okx := AsReal(e.X)
			y, oky := AsReal(e.Y)
			if okx && oky {
				return &Binary{Op: e.Op, X: x, Y: y, At: e.At}, true
			}
		}
	}
	return nil, false
}

func (c *checker) call(n *ast.CallExpr) Expr {
	if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok && (pkg.Name == "strings" || pkg.Name == "regexp") {
			return c.strPackageCall(sel, n)
		}
	}
	id, ok := n.Fun.(*ast.Ident)
	if !ok {
		c.errorf(n.Pos(), "only calls of declared functions F(a, b) and of the built-ins ite, min, max, abs and real are allowed")
		return bad
	}
	var f *Func
	if c.scope != nil {
		f = c.scope.Funcs[id.Name]
	}
	if f == nil && id.Name == "len" {
		return c.strLen(n)
	}
	if f == nil {
		if e, ok := c.builtin(id.Name, n); ok {
			return e
		}
		c.errorf(n.Pos(), "call of undeclared function %s", id.Name)
		return bad
	}
	lens := f.ParamLens
	if lens == nil || len(n.Args) != len(lens) && len(n.Args) == len(f.Params) {
		// Array arguments may also be written cell by cell.
		lens = make([]int, len(f.Params))
	}
	if len(n.Args) != len(lens) {
		c.errorf(n.Pos(), "function %s takes %d arguments, got %d", f.Name, len(lens), len(n.Args))
		return bad
	}
	var args []Expr
	k := 0 // index into the flattened parameters
	for i, a := range n.Args {
		if k >= len(f.Params) {
			c.errorf(n.Pos(), "function %s is declared with %d parameters but %d flattened types", f.Name, len(lens), len(f.Params))
			return bad
		}
		if lens[i] > 0 {
			cells := c.arrayArg(a, fmt.Sprintf("argument %d of %s", i+1, f.Name), lens[i], f.Params[k])
			if cells == nil {
				return bad
			}
			args = append(args, cells...)
			k += lens[i]
			continue
		}
		e := c.expr(a)
		if e.Type().Kind == Invalid {
			return bad
		}
		if e.Type() != f.Params[k] {
			if r, ok := AsReal(e); ok && f.Params[k] == RealType {
				e = r
			} else {
				c.errorf(a.Pos(), "argument %d of %s has type %s, want %s", i+1, f.Name, e.Type(), f.Params[k])
				return bad
			}
		}
		args = append(args, e)
		k++
	}
	if len(args) != len(f.Params) {
		c.errorf(n.Pos(), "function %s: %d flattened arguments for %d parameters", f.Name, len(args), len(f.Params))
		return bad
	}
	if f.Def != nil {
		if f.DefBounds != nil {
			// The body's own index bounds, on the arguments.
			for _, b := range Conjuncts(inline(&Func{ParamNames: f.ParamNames, Def: f.DefBounds}, args)) {
				if !IsTrue(b) && !containsExpr(c.bounds, b) {
					c.bounds = append(c.bounds, b)
				}
			}
		}
		return c.expanded(inline(f, args), n.Pos(), "the call of "+f.Name)
	}
	return &Call{Func: f.Name, Args: args, T: f.Result, At: c.pos(n.Pos()), Lens: f.ParamLens}
}

// inline returns the body of the defined function f with its
// parameters replaced by args (simultaneously).
func inline(f *Func, args []Expr) Expr {
	sub := make(map[string]Expr, len(args))
	for i, pn := range f.ParamNames {
		if i < len(args) {
			sub[pn] = args[i]
		}
	}
	return Rewrite(f.Def, func(id *Ident) Expr {
		if id.Kind == ParamIdent {
			return sub[id.Name]
		}
		return nil
	})
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// IsIdent reports whether s is an identifier of the expression language
// (a letter or underscore, then letters, digits and underscores).
func IsIdent(s string) bool { return identRE.MatchString(s) }
