package expr

import (
	"bytes"
	"fmt"
	"strings"
)

// AddRow adds row to f's table. A row equal to a known one is dropped;
// a row with the inputs of a known one and another result is an error
// (at the new row's position), and is not added.
func (f *Func) AddRow(row TableRow) ErrorList {
	for _, r := range f.Table {
		if !sameValues(r.Args, row.Args) {
			continue
		}
		if r.Result.Equal(row.Result) {
			return nil
		}
		at := fmt.Sprintf("row at %d:%d", r.Pos.Line, r.Pos.Col)
		switch {
		case !r.Pos.IsValid():
			at = "a known row"
		case r.Pos.File != row.Pos.File:
			at = "row at " + r.Pos.String()
		}
		var errs ErrorList
		errs.Add(row.Pos, "row %s(%s) = %s conflicts with %s (= %s)",
			f.Name, valuesText(row.Args), row.Result, at, r.Result)
		return errs
	}
	f.Table = append(f.Table, row)
	return nil
}

func sameValues(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func valuesText(vs []Value) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return strings.Join(s, ", ")
}

// DeclaredLens returns ParamLens, or all zeros when it is nil.
func (f *Func) DeclaredLens() []int {
	if f.ParamLens != nil {
		return f.ParamLens
	}
	return make([]int, len(f.Params))
}

// String describes a function's signature: INTGR([2]int) int.
func (f *Func) String() string {
	var b bytes.Buffer
	b.WriteString(f.Name + "(")
	k := 0
	for i, size := range f.DeclaredLens() {
		if i > 0 {
			b.WriteString(", ")
		}
		if k >= len(f.Params) {
			break
		}
		if size > 0 {
			b.WriteString(ArrayTypeText(size, f.Params[k]))
		} else {
			b.WriteString(f.Params[k].String())
		}
		k += max(size, 1)
	}
	fmt.Fprintf(&b, ") %s", f.Result)
	return b.String()
}
