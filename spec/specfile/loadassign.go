package specfile

import (
	"math/big"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// assignments reads a transition's assign: mapping. A key is a
// variable, an array cell a[k], or a whole array a:
//
//   - x: e assigns e to x;
//   - a[k]: e with a constant k assigns the cell a[k];
//   - a[k]: e with a computed k assigns ite(k == i, e, a[i]) to every
//     cell a[i], and the transition's guard gets 0 <= k && k < N (an
//     index out of range disables the transition);
//   - a: b copies the array b (or a literal [N]T{...}) cell by cell.
//
// The index bounds of the values read at computed indexes are conjoined
// to the guard in the same way. A cell assigned twice is an error.
func (l *loader) assignments(m *spec.Model, t *spec.Transition, an *yaml.Node, scope *expr.Scope) {
	by := map[string]string{} // cell or variable -> the key that assigns it
	var bounds []expr.Expr
	for _, kv := range l.mapping(an, "assign", nil) {
		key := kv[0].Value
		as, def, ok := l.assignment(m, kv[0], kv[1], scope)
		if !ok {
			continue
		}
		for _, a := range as {
			if prev, dup := by[a.Var]; dup {
				l.errorf(kv[0], "%s is assigned twice (by %s and by %s)", a.Var, prev, key)
				ok = false
			}
			by[a.Var] = key
		}
		if ok {
			t.Assign = append(t.Assign, as...)
			bounds = append(bounds, expr.Conjuncts(def)...)
		}
	}
	if !l.literal {
		t.Guard = expr.Guard(t.Guard, expr.AndOf(bounds...))
	}
}

// assignment reads one key: value pair into assignments of scalar
// variables and the condition under which its indexes are in range.
func (l *loader) assignment(m *spec.Model, kn, vn *yaml.Node, scope *expr.Scope) ([]spec.Assignment, expr.Expr, bool) {
	name := kn.Value
	if v := m.Variable(name); v != nil {
		e, def := l.guarded(vn, scope, "value of "+name)
		if e == nil || !l.assignable(vn, &e, name, v.Type) {
			return nil, nil, false
		}
		return []spec.Assignment{{Var: name, Value: e, Pos: l.pos(kn)}}, def, true
	}
	if a := m.ArrayVar(name); a != nil {
		return l.arrayAssignment(a, kn, vn, scope)
	}
	if base, index, ok := strings.Cut(name, "["); ok && strings.HasSuffix(index, "]") {
		if a := m.ArrayVar(strings.TrimSpace(base)); a != nil {
			return l.cellAssignment(a, kn, strings.TrimSuffix(index, "]"), vn, scope)
		}
	}
	switch {
	case m.Spec != nil && (m.Spec.Variable(name) != nil || m.Spec.ArrayVar(name) != nil):
		l.errorf(kn, "a purpose cannot assign the spec's variable %s (it only reads it)", name)
	default:
		l.errorf(kn, "assignment to undeclared variable %s", name)
	}
	return nil, nil, false
}

// assignable checks that *e can be assigned to a variable of type t,
// turning an integer constant into a real one where t is real.
func (l *loader) assignable(vn *yaml.Node, e *expr.Expr, name string, t expr.Type) bool {
	if (*e).Type() == t {
		return true
	}
	if r, ok := expr.AsReal(*e); ok && t == expr.RealType {
		*e = r
		return true
	}
	l.errorf(vn, "cannot assign %s (type %s) to %s (type %s)", expr.Format(*e), (*e).Type(), name, t)
	return false
}

// cellAssignment reads a[index]: value.
func (l *loader) cellAssignment(a *expr.ArrayVar, kn *yaml.Node, index string, vn *yaml.Node, scope *expr.Scope) ([]spec.Assignment, expr.Expr, bool) {
	kpos := l.exprPos(kn)
	kpos.Col += len(a.Name) + 1
	k, kdef, err := expr.ParseGuarded(index, kpos, scope)
	if err != nil {
		l.errs = append(l.errs, err.(expr.ErrorList)...)
		return nil, nil, false
	}
	if k.Type() != expr.IntType {
		l.errs.Add(kpos, "index %s of %s has type %s, want int", expr.Format(k), a.Name, k.Type())
		return nil, nil, false
	}
	e, def := l.guarded(vn, scope, "value of "+kn.Value)
	if e == nil || !l.assignable(vn, &e, kn.Value, a.Elem) {
		return nil, nil, false
	}
	def = expr.AndOf(kdef, def)
	if c, ok := expr.ConstValue(k); ok {
		i := c.Num()
		if !c.IsInt() || i.Sign() < 0 || i.Cmp(big.NewInt(int64(a.Len))) >= 0 {
			l.errs.Add(kpos, "index %s out of range for %s (length %d)", c.RatString(), a.Name, a.Len)
			return nil, nil, false
		}
		return []spec.Assignment{{Var: a.Cell(int(i.Int64())), Value: e, Pos: l.pos(kn)}}, def, true
	}
	var as []spec.Assignment
	for i := 0; i < a.Len; i++ {
		old := expr.VarRef(a.Cell(i), a.Elem)
		v := expr.UpdateCell(k, i, e, old)
		as = append(as, spec.Assignment{Var: a.Cell(i), Value: v, Pos: l.pos(kn)})
	}
	return as, expr.AndOf(def, expr.Compare(expr.Le, expr.IntConst(0), k), expr.Compare(expr.Lt, k, expr.IntConst(int64(a.Len)))), true
}

// arrayAssignment reads a: b, with b an array of a's type or a literal.
func (l *loader) arrayAssignment(a *expr.ArrayVar, kn, vn *yaml.Node, scope *expr.Scope) ([]spec.Assignment, expr.Expr, bool) {
	s, ok := l.scalar(vn, "value of "+a.Name)
	if !ok {
		return nil, nil, false
	}
	cells, bounds, err := expr.ParseArray(s, l.exprPos(vn), scope, "the value of "+a.Name, a.Len, a.Elem)
	if err != nil {
		if _, typed := err.(expr.ErrorList); !typed {
			l.guarded(vn, scope, "value of "+a.Name) // reports the syntax error
			return nil, nil, false
		}
		l.errs = append(l.errs, err.(expr.ErrorList)...)
		return nil, nil, false
	}
	if cells == nil {
		l.errorf(vn, "cannot assign %s to the array %s", s, a.Name)
		return nil, nil, false
	}
	var as []spec.Assignment
	for i, e := range cells {
		as = append(as, spec.Assignment{Var: a.Cell(i), Value: e, Pos: l.pos(kn)})
	}
	return as, expr.AndOf(bounds...), true
}
