package abstraction

import "math/big"

// inverseMatrix returns a positive multiple of M^-1 for the matrix m of
// an assignment (see affineMatrix), or false if the assignment is not
// invertible. M differs from the identity only in the rows of the
// assigned dimensions S; writing those rows as [B A] (A the square block
// on the columns S), M is invertible iff A is, and the rows S of M^-1
// are [-A^-1·B, A^-1] while the others stay unit rows.
func inverseMatrix(m *affine) (*affine, bool) {
	n := len(m.rows)
	var S []int // assigned homogeneous indices
	pos := make([]int, n)
	for i, row := range m.rows {
		pos[i] = -1
		if !row.isNil() {
			pos[i] = len(S)
			S = append(S, i)
		}
	}
	k := len(S)
	// Gauss–Jordan on [A | I] over the rationals (k is small); the
	// common factor of m cancels out in A^-1·B and is applied to A^-1.
	a := make([][]*big.Rat, k)
	for i := range a {
		a[i] = make([]*big.Rat, 2*k)
		for j := range k {
			a[i][j] = new(big.Rat).SetInt(m.rows[S[i]].at(S[j], new(big.Int)))
			a[i][k+j] = new(big.Rat)
		}
		a[i][k+i].SetInt(&m.scale)
	}
	for c := range k {
		p := -1
		for r := c; r < k; r++ {
			if a[r][c].Sign() != 0 {
				p = r
				break
			}
		}
		if p < 0 {
			return nil, false
		}
		a[c], a[p] = a[p], a[c]
		inv := new(big.Rat).Inv(a[c][c])
		for j := range a[c] {
			a[c][j].Mul(a[c][j], inv)
		}
		for r := range k {
			if r != c && a[r][c].Sign() != 0 {
				f := new(big.Rat).Set(a[r][c])
				for j := range a[r] {
					a[r][j].Sub(a[r][j], new(big.Rat).Mul(f, a[c][j]))
				}
			}
		}
	}
	// Now a[i][k+j] = (L·A)^-1·L = A^-1 (entry i,j). Rows S of M^-1.
	rows := make([][]*big.Rat, k)
	den := big.NewInt(1)
	for i := range k {
		row := make([]*big.Rat, n)
		for c := range n {
			v := new(big.Rat)
			if j := pos[c]; j >= 0 {
				v.Set(a[i][k+j])
			} else {
				for l := range k {
					if b := m.rows[S[l]].at(c, new(big.Int)); b.Sign() != 0 {
						t := new(big.Rat).SetFrac(b, &m.scale)
						v.Sub(v, t.Mul(t, a[i][k+l]))
					}
				}
			}
			lcm(den, v.Denom())
			row[c] = v
		}
		rows[i] = row
	}
	inv := &affine{rows: make([]vec, n)}
	inv.scale.Set(den)
	for i, row := range rows {
		v := make([]big.Int, n)
		for c, x := range row {
			v[c].Quo(den, x.Denom())
			v[c].Mul(&v[c], x.Num())
		}
		inv.rows[S[i]] = fromBig(v)
	}
	return inv, true
}

// transform returns the image of p by the invertible linear map of the
// homogeneous space with matrix gm (up to a positive factor), given cm,
// a positive multiple of gm's inverse: generators map to gm·g and
// constraints to a·cm. A bijection preserves minimality, so no
// conversion is needed; only the echelon form is recomputed.
func (p *poly) transform(cm, gm *affine) *poly {
	q := &poly{sp: p.sp}
	for _, l := range p.lines {
		q.lines = append(q.lines, gm.mulVec(l))
	}
	for _, r := range p.rays {
		q.rays = append(q.rays, gm.mulVec(r))
	}
	var ech echelon
	for _, e := range p.eqs {
		ech.add(cm.vecMul(e))
	}
	q.eqs = ech.rows
	for _, c := range p.ineqs {
		q.ineqs = append(q.ineqs, ech.reduce(cm.vecMul(c)))
	}
	return q
}

// tightenable reports whether tightenVec would change some constraint of
// p: an inequality over integer dimensions only whose variable part has
// a gcd above 1 (the vector being primitive, the constant is then not a
// multiple of it), or such an equality.
func (p *poly) tightenable() bool {
	var g, x big.Int
	check := func(v vec) bool {
		g.SetInt64(0)
		for i := 1; i < v.len(); i++ {
			if v.sign(i) != 0 {
				if !p.sp.isInt(i - 1) {
					return false
				}
				g.GCD(nil, nil, &g, v.at(i, &x))
			}
		}
		return g.Cmp(big.NewInt(1)) > 0
	}
	for _, e := range p.eqs {
		if check(e) {
			return true
		}
	}
	for _, c := range p.ineqs {
		if check(c) {
			return true
		}
	}
	return false
}
