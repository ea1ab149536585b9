package symex

import (
	"fmt"
	"maps"
	"strings"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/summary"
)

// A State is a symbolic state of an ioSTS (Def. 8 of the AGATHA paper):
// a location, the value of every variable as an expression over symbols,
// and a path condition over those symbols. A value that is known is a
// literal; a value the model leaves open (a loose initial condition) is
// a symbol x@0, constrained by the path condition. The concrete states a
// State denotes are the valuations of its symbols that satisfy PC.
//
// States are immutable: operations return new States and share maps
// that do not change.
type State struct {
	Loc  string
	Vars map[string]expr.Expr
	PC   expr.Expr // a conjunction; expr.True() when nothing is known
	// Calls are the call records κ of the path (with function
	// summaries): PC and Vars then have no calls of external functions,
	// whose results are the fresh variables of the records.
	Calls []*summary.Call

	vals map[string]expr.Value // the values, once known to be ground
}

// Symbol returns the symbol of the initial value of variable v: v@0.
// The '@' cannot occur in a model's identifiers, so symbols never clash
// with them.
func Symbol(v *spec.Variable) *expr.Ident {
	return &expr.Ident{Name: v.Name + "@0", Kind: expr.VarIdent, T: v.Type}
}

// Initial returns the initial state of m. A variable that the initial
// condition pins to a constant by a conjunct x == c (or c == x) gets that
// constant; every other variable is its symbol, constrained by what is
// left of the condition. It fails when the condition is unsatisfiable.
func Initial(z *solver.Context, m *spec.Model) (*State, error) {
	cond := m.Initial.Condition
	if cond == nil {
		cond = expr.True()
	}
	vars := make(map[string]expr.Expr, len(m.Variables))
	for _, c := range expr.Conjuncts(cond) {
		if name, val, ok := pinned(c); ok {
			if _, dup := vars[name]; !dup {
				vars[name] = val
			}
		}
	}
	for _, v := range m.Variables {
		if _, ok := vars[v.Name]; !ok {
			vars[v.Name] = Symbol(v)
		}
	}
	st := &State{Loc: m.Initial.Location, Vars: vars}
	st.PC = expr.AndOf(st.Substitute(cond, nil))
	st.PC = FoldGround(st.PC)
	ok, err := z.Possible(st.PC)
	if err != nil {
		return nil, fmt.Errorf("initial condition %s: %v", expr.Format(cond), err)
	}
	if !ok {
		return nil, fmt.Errorf("initial condition %s is unsatisfiable", expr.Format(cond))
	}
	return st, nil
}

// pinned recognises a conjunct x == c with c a literal.
func pinned(c expr.Expr) (name string, val expr.Expr, ok bool) {
	b, isBin := c.(*expr.Binary)
	if !isBin || b.Op != expr.Eq {
		return "", nil, false
	}
	x, y := b.X, b.Y
	if _, isId := y.(*expr.Ident); isId {
		x, y = y, x
	}
	id, isId := x.(*expr.Ident)
	if !isId || id.Kind != expr.VarIdent || !isLiteral(y) {
		return "", nil, false
	}
	if y.Type() != id.T {
		return "", nil, false // 0 for a real: leave it to the condition
	}
	return id.Name, y, true
}

func isLiteral(e expr.Expr) bool {
	switch e.(type) {
	case *expr.IntLit, *expr.RealLit, *expr.BoolLit, *expr.EnumLit:
		return true
	}
	return false
}

// Values returns the variables' values when st is ground.
func (st *State) Values() (map[string]expr.Value, bool) {
	if st.vals != nil {
		return st.vals, true
	}
	if !expr.IsTrue(st.PC) {
		return nil, false
	}
	vals := make(map[string]expr.Value, len(st.Vars))
	for k, e := range st.Vars {
		v, err := expr.Eval(e, expr.Valuation{})
		if err != nil || !isLiteral(e) {
			return nil, false
		}
		vals[k] = v
	}
	st.vals = vals
	return vals, true
}

// FireValues is Fire for a ground state and parameter values, evaluated
// exactly: the successor of st by t, which the caller has checked to be
// enabled.
func (st *State) FireValues(t *spec.Transition, args map[string]expr.Value) (*State, error) {
	vals, ok := st.Values()
	if !ok {
		return nil, fmt.Errorf("symex: FireValues on a symbolic state")
	}
	next := &State{Loc: t.To, Vars: st.Vars, PC: st.PC, vals: vals}
	if len(t.Assign) > 0 {
		env := expr.Valuation{Vars: vals, Params: args}
		next.Vars, next.vals = maps.Clone(st.Vars), maps.Clone(vals)
		for _, as := range t.Assign {
			v, err := expr.Eval(as.Value, env)
			if err != nil {
				return nil, fmt.Errorf("%s: assignment %s := %s: %v", as.Pos, as.Var, expr.Format(as.Value), err)
			}
			next.Vars[as.Var], next.vals[as.Var] = v.Expr(), v
		}
	}
	return next, nil
}

// Substitute returns e with the variables replaced by their values in st
// and the parameters by params (missing ones stay parameters).
func (st *State) Substitute(e expr.Expr, params map[string]expr.Expr) expr.Expr {
	return expr.Substitute(e, st.Vars, params)
}

// Fire returns the successor of st by transition t with parameter values
// params, whose guard in st is g (st.Substitute(t.Guard, params)): the
// location is t's target, the assignments are applied simultaneously,
// and g joins the path condition unless it is known to hold (holds).
func (st *State) Fire(t *spec.Transition, params map[string]expr.Expr, g expr.Expr, holds bool) *State {
	next := &State{Loc: t.To, Vars: st.Vars, PC: st.PC, Calls: st.Calls}
	if len(t.Assign) > 0 {
		next.Vars = maps.Clone(st.Vars)
		for _, as := range t.Assign {
			next.Vars[as.Var] = fold(st.Substitute(as.Value, params))
		}
	}
	if !holds {
		next.PC = expr.AndOf(st.PC, g)
	}
	return next
}

// Truth is what is known of a predicate in a symbolic state.
type Truth int

const (
	Never     Truth = iota // false in every concrete state
	Sometimes              // true in some, false in others (or undecided)
	Always                 // true in every concrete state
)

// Decide tells whether the predicate g (over the symbols of st) holds in
// the concrete states of st. A ground g is evaluated exactly; otherwise
// the solver decides, and a query it cannot decide counts as possible
// (Sometimes), so that no concrete state is ever dropped.
func (st *State) Decide(z *solver.Context, g expr.Expr) (Truth, error) {
	if t, ok := exact(g); ok {
		return t, nil
	}
	some, err := z.Possible(expr.AndOf(st.PC, g))
	if err != nil || !some {
		return Never, err
	}
	notAll, err := z.Possible(expr.AndOf(st.PC, expr.NotOf(g)))
	if err != nil {
		return Never, err
	}
	if notAll {
		return Sometimes, nil
	}
	return Always, nil
}

// exact evaluates a predicate without identifiers.
func exact(g expr.Expr) (Truth, bool) {
	if hasIdent(g) {
		return Never, false
	}
	ok, err := expr.EvalBool(g, expr.Valuation{})
	if err != nil {
		// A division by zero, say: leave it to the solver's semantics.
		return Never, false
	}
	if ok {
		return Always, true
	}
	return Never, true
}

func hasIdent(e expr.Expr) bool {
	found := false
	expr.Idents(e, func(*expr.Ident) { found = true })
	return found
}

// fold evaluates an expression without identifiers to a literal, so that
// known values stay literals; others are returned as they are.
func fold(e expr.Expr) expr.Expr {
	if isLiteral(e) {
		return e
	}
	if hasIdent(e) {
		return foldConds(e)
	}
	v, err := expr.Eval(e, expr.Valuation{})
	if err != nil {
		return e
	}
	return v.Expr()
}

// FoldGround folds the ground conjuncts of a conjunction: a true conjunct
// is dropped, a false one makes the whole false.
func FoldGround(pc expr.Expr) expr.Expr {
	var keep []expr.Expr
	for _, c := range expr.Conjuncts(pc) {
		if t, ok := exact(c); ok {
			if t == Never {
				return expr.False()
			}
			continue
		}
		keep = append(keep, c)
	}
	return expr.AndOf(keep...)
}

// String prints st as "L x=3 y=y@0 | y@0 >= 0" (variables sorted by
// name); it identifies the state.
func (st *State) String() string {
	return st.Loc + " " + st.Describe(nil)
}

// Describe prints the variables in the order of vars (sorted by name when
// vars is nil), "x=3 y=y@0", and the path condition when it is not true:
// "x=x@0 | x@0 >= 0".
func (st *State) Describe(vars []*spec.Variable) string {
	s := st.VarsString(vars)
	if !expr.IsTrue(st.PC) {
		s += " | " + expr.Format(st.PC)
	}
	return s
}

// VarsString prints the variables in the order of vars (sorted by name
// when vars is nil): "x=3 y=y@0".
func (st *State) VarsString(vars []*spec.Variable) string {
	parts := make([]string, 0, len(st.Vars))
	if vars == nil {
		for _, name := range sortedNames(st.Vars) {
			parts = append(parts, name+"="+expr.Format(st.Vars[name]))
		}
	} else {
		for _, v := range vars {
			parts = append(parts, v.Name+"="+expr.Format(st.Vars[v.Name]))
		}
	}
	return strings.Join(parts, " ")
}

// foldConds replaces every ite(c, a, b) whose condition c is ground by
// a or b (an array cell read at a known index, say).
func foldConds(e expr.Expr) expr.Expr {
	switch e := e.(type) {
	case *expr.Cond:
		c := foldConds(e.If)
		if !hasIdent(c) {
			if v, err := expr.EvalBool(c, expr.Valuation{}); err == nil {
				if v {
					return foldConds(e.Then)
				}
				return foldConds(e.Else)
			}
		}
		x, y := foldConds(e.Then), foldConds(e.Else)
		if c == e.If && x == e.Then && y == e.Else {
			return e
		}
		return &expr.Cond{If: c, Then: x, Else: y, At: e.At}
	case *expr.Unary:
		if x := foldConds(e.X); x != e.X {
			return &expr.Unary{Op: e.Op, X: x, At: e.At}
		}
	case *expr.Binary:
		x, y := foldConds(e.X), foldConds(e.Y)
		if x != e.X || y != e.Y {
			return &expr.Binary{Op: e.Op, X: x, Y: y, At: e.At}
		}
	case *expr.Call:
		var args []expr.Expr
		changed := false
		for _, a := range e.Args {
			r := foldConds(a)
			changed = changed || r != a
			args = append(args, r)
		}
		if changed {
			return &expr.Call{Func: e.Func, Args: args, T: e.T, Lens: e.Lens, At: e.At}
		}
	}
	return e
}
