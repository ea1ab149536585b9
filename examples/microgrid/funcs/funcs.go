// Package funcs is the reference implementation of the external
// functions of the microgrid controller (examples/microgrid/spec.yaml),
// INTGR and RISE: Exec_INTGR and Exec_RISE of the function-summaries
// paper, whose text gives neither, only the tuples of its Tables 1 and 3.
// Ours is "table lookup, else a formula", consistent with both tables:
//
//	INTGR([a, b]) = the value Table 3 lists, else 195 + ((31a + 17b) mod 97)
//	RISE(I)       = the value Table 3 lists, else I / 1000 (exactly)
//
// (Table 1 is a subset of Table 3.) mod is Euclidean, as in the model
// language: 0 ≤ (31a + 17b) mod 97 < 97, so INTGR is 195..291 outside
// the tables, and at most 200 for 6 residues in 97: a deterministic
// pseudo-random integration under which, as in the paper's experiments,
// outputs ≤ 200 are rare (the paper gives no INTGR). The same
// functions serve the controller SUT (sut/impl), the in-process
// implementation registered with Register, and the command of impl/
// (Serve; impl/microgrid.py is the same in Python).
package funcs

import (
	"fmt"
	"math/big"

	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec/expr"
)

// intgrRows and riseRows are Table 3's tuples.
var (
	intgrRows = map[[2]int64]int64{{0, 0}: 0, {12, 18}: 30, {123, 96}: 228, {148, 141}: 300}
	riseRows  = map[int64][2]int64{202: {7, 10}, 228: {97, 100}, 300: {242, 100}}
)

var (
	base    = big.NewInt(195)
	modulus = big.NewInt(97)
	ca, cb  = big.NewInt(31), big.NewInt(17)
)

// Intgr returns INTGR([a, b]).
func Intgr(a, b *big.Int) *big.Int {
	if a.IsInt64() && b.IsInt64() {
		if v, ok := intgrRows[[2]int64{a.Int64(), b.Int64()}]; ok {
			return big.NewInt(v)
		}
	}
	m := new(big.Int).Mul(ca, a)
	m.Add(m, new(big.Int).Mul(cb, b))
	m.Mod(m, modulus) // Euclidean: 0 <= m < 97
	return m.Add(m, base)
}

// Rise returns RISE(i).
func Rise(i *big.Int) *big.Rat {
	if i.IsInt64() {
		if v, ok := riseRows[i.Int64()]; ok {
			return big.NewRat(v[0], v[1])
		}
	}
	return new(big.Rat).SetFrac(i, big.NewInt(1000))
}

// INTGR is Intgr as an extfunc.GoFunc: two int arguments (the cells of
// the array), an int result.
func INTGR(args []expr.Value) (expr.Value, error) {
	if len(args) != 2 || args[0].T != expr.IntType || args[1].T != expr.IntType {
		return expr.Value{}, fmt.Errorf("INTGR takes the two int cells of an array, got %v", args)
	}
	return expr.IntValue(Intgr(args[0].Int, args[1].Int)), nil
}

// RISE is Rise as an extfunc.GoFunc: an int argument, a real result.
func RISE(args []expr.Value) (expr.Value, error) {
	if len(args) != 1 || args[0].T != expr.IntType {
		return expr.Value{}, fmt.Errorf("RISE takes an int, got %v", args)
	}
	return expr.RatValue(Rise(args[0].Int)), nil
}

// Register makes INTGR and RISE the in-process implementations of the
// functions of r (instead of the spec's commands).
func Register(r *extfunc.Registry) error {
	if err := r.Register("INTGR", INTGR); err != nil {
		return err
	}
	return r.Register("RISE", RISE)
}
