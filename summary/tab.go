package summary

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// A Tab gives the known rows of each external function, by name: the
// tables tab_p of Notation 31, p(Args...) = Result for every row.
type Tab map[string][]expr.TableRow

// TabOf returns a copy of the tables of m's external functions.
func TabOf(m *spec.Model) Tab {
	t := Tab{}
	for _, f := range m.Funcs {
		if f.IsExternal() {
			t[f.Name] = slices.Clone(f.Table)
		}
	}
	return t
}

// Clone returns a copy of t (rows are immutable and shared).
func (t Tab) Clone() Tab {
	c := make(Tab, len(t))
	for k, rows := range t {
		c[k] = slices.Clone(rows)
	}
	return c
}

// Sizes returns the number of rows of each function.
func (t Tab) Sizes() map[string]int {
	s := make(map[string]int, len(t))
	for k, rows := range t {
		s[k] = len(rows)
	}
	return s
}

// Lookup returns the result of f on args when a row gives it.
func (t Tab) Lookup(f string, args []expr.Value) (expr.Value, bool) {
	for _, r := range t[f] {
		if sameValues(r.Args, args) {
			return r.Result, true
		}
	}
	return expr.Value{}, false
}

// Add adds the row f(args) = result, and reports whether it is new. A
// result other than the one a row already gives for args is an error.
func (t Tab) Add(f *expr.Func, args []expr.Value, result expr.Value) (bool, error) {
	if r, ok := t.Lookup(f.Name, args); ok {
		if !r.Equal(result) {
			return false, fmt.Errorf("%s(%s) = %s, but its table says %s", f.Name, ValuesString(args), result, r)
		}
		return false, nil
	}
	t[f.Name] = append(t[f.Name], expr.TableRow{Args: slices.Clone(args), Result: result})
	return true, nil
}

// Marshal writes t as a tables file (kind: tables) for the external
// functions of m, arrays nested as m declares them; m is not changed.
func (t Tab) Marshal(m *spec.Model) ([]byte, error) {
	c := &spec.Model{Name: m.Name}
	for _, f := range m.Funcs {
		g := *f
		if f.IsExternal() {
			g.Table = t[f.Name]
		}
		c.Funcs = append(c.Funcs, &g)
	}
	return specfile.MarshalTables(c)
}

func sameValues(a, b []expr.Value) bool {
	return slices.EqualFunc(a, b, expr.Value.Equal)
}

// ValuesString prints values as "123, 96".
func ValuesString(vs []expr.Value) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return strings.Join(s, ", ")
}
