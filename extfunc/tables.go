package extfunc

import (
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// CheckTables validates the tables file path and returns its external
// functions with the file's rows only: with the spec sp, against the
// signatures of sp's functions and their own rows; without, against
// signatures read from the rows themselves (InferSignatures). Rows of
// the wrong arity or type, and two rows with equal inputs and different
// results, are FILE:LINE:COL errors.
func CheckTables(path string, sp *spec.Model) ([]*expr.Func, error) {
	m := sp
	if m == nil {
		data, err := specfile.ReadModelFile(path)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("%s: cannot read: %v", path, err)
		}
		m = &spec.Model{Name: path, Funcs: InferSignatures(data)}
	}
	bare := &spec.Model{Name: m.Name, Funcs: copyFuncs(m.Funcs, false)}
	if err := specfile.LoadTables(path, bare); err != nil {
		return nil, err
	}
	if sp != nil { // the file's rows against the spec's own
		if err := specfile.LoadTables(path, &spec.Model{Name: m.Name, Funcs: copyFuncs(m.Funcs, true)}); err != nil {
			return nil, err
		}
	}
	return bare.Funcs, nil
}

// copyFuncs copies the external functions, with or without their rows.
func copyFuncs(funcs []*expr.Func, rows bool) []*expr.Func {
	var out []*expr.Func
	for _, f := range funcs {
		if !f.IsExternal() {
			continue
		}
		g := *f
		g.Table = nil
		if rows {
			g.Table = append([]expr.TableRow(nil), f.Table...)
		}
		out = append(out, &g)
	}
	return out
}

// InferSignatures reads, for each function of a tables file, a signature
// from its first row (a nested list is an array parameter), each column
// typed by its values over the rows: int, real (an int column with a
// real in it), bool or string. What it cannot read is left to
// specfile.LoadTables, which reports it with its position.
func InferSignatures(data []byte) []*expr.Func {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	var out []*expr.Func
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "functions" || root.Content[i+1].Kind != yaml.MappingNode {
			continue
		}
		fns := root.Content[i+1]
		for j := 0; j+1 < len(fns.Content); j += 2 {
			if f := inferFunc(fns.Content[j].Value, fns.Content[j+1]); f != nil {
				out = append(out, f)
			}
		}
	}
	return out
}

func inferFunc(name string, rows *yaml.Node) *expr.Func {
	if rows.Kind != yaml.SequenceNode || len(rows.Content) == 0 || rows.Content[0].Kind != yaml.SequenceNode || len(rows.Content[0].Content) == 0 {
		return &expr.Func{Name: name, Result: expr.IntType}
	}
	first := rows.Content[0].Content
	f := &expr.Func{Name: name}
	for _, a := range first[:len(first)-1] {
		if a.Kind == yaml.SequenceNode {
			f.ParamLens = append(f.ParamLens, len(a.Content))
		} else {
			f.ParamLens = append(f.ParamLens, 0)
		}
	}
	var cols []expr.Type
	for _, r := range rows.Content {
		leaves := leavesOf(r)
		if cols == nil {
			cols = make([]expr.Type, len(leaves))
		}
		if len(leaves) != len(cols) {
			continue // LoadTables reports the arity
		}
		for k, n := range leaves {
			cols[k] = joinType(cols[k], scalarType(n))
		}
	}
	for k := range cols {
		if cols[k].Kind == 0 {
			cols[k] = expr.IntType
		}
	}
	f.Params, f.Result = cols[:len(cols)-1], cols[len(cols)-1]
	return f
}

func leavesOf(n *yaml.Node) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		return []*yaml.Node{n}
	}
	var ls []*yaml.Node
	for _, c := range n.Content {
		ls = append(ls, leavesOf(c)...)
	}
	return ls
}

// scalarType is the type a scalar reads as (zero: none).
func scalarType(n *yaml.Node) expr.Type {
	if n.Kind != yaml.ScalarNode {
		return expr.Type{}
	}
	switch n.Tag {
	case "!!int":
		return expr.IntType
	case "!!float":
		return expr.RealType
	case "!!bool":
		return expr.BoolType
	case "!!str":
		s := strings.TrimSpace(n.Value)
		if _, ok := new(big.Rat).SetString(s); ok && !strings.ContainsAny(s, "xXpP") {
			return expr.RealType
		}
		return expr.StringType
	}
	return expr.Type{}
}

// joinType is the type of a column holding values of a and b: the
// first seen, or real for ints and reals.
func joinType(a, b expr.Type) expr.Type {
	switch {
	case a.Kind == 0:
		return b
	case a == expr.IntType && b == expr.RealType:
		return expr.RealType
	}
	return a
}
