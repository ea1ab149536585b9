package spec

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/stg-tool/stg/spec/expr"
)

// ArrayVar returns the array variable called name, or nil.
func (m *Model) ArrayVar(name string) *expr.ArrayVar {
	for _, a := range m.ArrayDecls() {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// ArrayOf returns the array whose cell is the variable called name,
// and the cell's index; nil when name is not a cell.
func (m *Model) ArrayOf(name string) (*expr.ArrayVar, int) {
	base, index, ok := strings.Cut(name, "[")
	if !ok {
		return nil, 0
	}
	a := m.ArrayVar(base)
	if a == nil {
		return nil, 0
	}
	i, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
	if err != nil || i < 0 || i >= a.Len || a.Cell(i) != name {
		return nil, 0
	}
	return a, i
}

// ArrayDecls returns the arrays of m: Arrays, and the arrays whose
// cells a model built by the tool (a product, a test case) has among its
// Variables without declaring them: variables a[0] ... a[N-1], in
// order, of one type and range.
func (m *Model) ArrayDecls() []*expr.ArrayVar {
	var inferred []*expr.ArrayVar
	known := map[string]bool{}
	for _, a := range m.Arrays {
		known[a.Name] = true
	}
	vs := m.Variables
	for i := 0; i < len(vs); i++ {
		g := cellRE.FindStringSubmatch(vs[i].Name)
		if g == nil || g[2] != "0" || known[g[1]] {
			continue
		}
		n := 1
		for i+n < len(vs) && vs[i+n].Name == expr.CellName(g[1], n) && vs[i+n].Type == vs[i].Type && expr.SameRange(vs[i+n].Range, vs[i].Range) {
			n++
		}
		inferred = append(inferred, &expr.ArrayVar{Name: g[1], Len: n, Elem: vs[i].Type, Range: vs[i].Range, Pos: vs[i].Pos})
		known[g[1]] = true
		i += n - 1
	}
	if inferred == nil {
		return m.Arrays
	}
	return append(append([]*expr.ArrayVar(nil), m.Arrays...), inferred...)
}

// RangeConstraint returns the conjunction of lo <= x && x <= hi over the
// variables x of m with a range (true when none has one). Like the
// Invariant, it is the model author's claim about every reachable state.
func (m *Model) RangeConstraint() expr.Expr {
	var cs []expr.Expr
	for _, v := range m.Variables {
		if v.Range == nil {
			continue
		}
		x := expr.VarRef(v.Name, v.Type)
		cs = append(cs, expr.Compare(expr.Le, expr.BigIntConst(v.Range.Lo), x), expr.Compare(expr.Le, x, expr.BigIntConst(v.Range.Hi)))
	}
	return expr.AndOf(cs...)
}

// Func returns the function called name, or nil.
func (m *Model) Func(name string) *expr.Func {
	for _, f := range m.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// AssignmentTexts returns a transition's assignments as Write writes
// them, target and value: the cells of an array are collapsed back into
// what the loader expands, a[k] := v for a[i] := ite(k == i, v, a[i]) on
// every cell, and a := b for a[i] := b[i].
func (m *Model) AssignmentTexts(as []Assignment) [][2]string { return assignKeys(m, as) }

func assignKeys(m *Model, as []Assignment) [][2]string {
	var kvs [][2]string
	for i := 0; i < len(as); {
		if arr, c := m.ArrayOf(as[i].Var); arr != nil && c == 0 && i+arr.Len <= len(as) {
			group := as[i : i+arr.Len]
			vals, cells := make([]expr.Expr, len(group)), true
			for j, a := range group {
				vals[j], cells = a.Value, cells && a.Var == arr.Cell(j)
			}
			if !cells {
				kvs = append(kvs, [2]string{as[i].Var, expr.Format(as[i].Value)})
				i++
				continue
			}
			if k, v, ok := expr.CellUpdate(arr, vals); ok {
				kvs = append(kvs, [2]string{arr.Name + "[" + expr.Format(k) + "]", expr.Format(v)})
				i += arr.Len
				continue
			}
			if src, ok := expr.ArrayCopy(vals); ok {
				kvs = append(kvs, [2]string{arr.Name, src})
				i += arr.Len
				continue
			}
		}
		kvs = append(kvs, [2]string{as[i].Var, expr.Format(as[i].Value)})
		i++
	}
	return kvs
}

var cellRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\[(0|[1-9][0-9]*)\]$`)
