package expr

import (
	"fmt"
	"math/big"
)

// ArrayVar is a fixed-size array variable a: [Len]Elem (or an array
// parameter of a function). The loader desugars it into Len scalar
// Variables named by Cell(0)...Cell(Len-1); the ArrayVar remains as the
// declaration, written back as [Len]Elem.
type ArrayVar struct {
	Name  string
	Len   int
	Elem  Type
	Range *Range // of every cell, or nil
	Pos   Pos
}

// Cell returns the name of the i-th cell, "a[i]".
func (a *ArrayVar) Cell(i int) string { return CellName(a.Name, i) }

// CellName is the name of cell i of the array name: "name[i]".
func CellName(name string, i int) string { return fmt.Sprintf("%s[%d]", name, i) }

// Range is the closed interval [Lo, Hi] an int variable stays in.
type Range struct {
	Lo, Hi *big.Int
	Pos    Pos
}

// CellUpdate recognises, in the new values of a's cells, the update
// a[k] := v the loader expands into a[i] := ite(k == i, v, a[i]) on every
// cell (see UpdateCell), and returns k and v.
func CellUpdate(a *ArrayVar, vals []Expr) (k, v Expr, ok bool) {
	if len(vals) != a.Len {
		return nil, nil, false
	}
	for i, val := range vals {
		c, isCond := val.(*Cond)
		if !isCond || !c.index {
			return nil, nil, false
		}
		cmp, isCmp := c.If.(*Binary)
		old, isId := c.Else.(*Ident)
		if !isCmp || cmp.Op != Eq || !isIntLit(cmp.Y, i) || !isId || old.Name != a.Cell(i) || old.Kind != VarIdent {
			return nil, nil, false
		}
		if i == 0 {
			k, v = cmp.X, c.Then
		} else if !Equal(cmp.X, k) || !Equal(c.Then, v) {
			return nil, nil, false
		}
	}
	return k, v, !constOutside(k, a.Len)
}

// ArrayCopy recognises, in the new values of an array's cells, the copy
// a := b (b[i] for every cell i), and returns b.
func ArrayCopy(vals []Expr) (string, bool) { return wholeArray(vals) }

// UpdateCell is the new value of cell i of an array for the update
// a[k] := v: ite(k == i, v, old), with old the cell's value before.
// Printing writes it back as a[k] (see CellUpdate).
func UpdateCell(k Expr, i int, v, old Expr) *Cond {
	return &Cond{If: Compare(Eq, k, IntConst(int64(i))), Then: v, Else: old, At: v.Pos(), index: true}
}

// SameRange reports whether a and b are both nil or the same interval.
func SameRange(a, b *Range) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Lo.Cmp(b.Lo) == 0 && a.Hi.Cmp(b.Hi) == 0
}
