package play

import (
	"math/big"
	"math/rand/v2"

	"github.com/stg-tool/stg/spec/expr"
)

// The random values both oracles start their choices from (the targets
// they ask the solver for, and the values of parameters nothing
// constrains); drawn from the run's seeded source, so that a run depends
// on its seed.

// RandomValue returns a random value of type t, of small magnitude:
// mostly within [-10, 20], sometimes within ±100, rarely within ±1000; a
// random constant of an enumeration or a boolean; the empty string (the
// STG route draws words of its own).
func RandomValue(rng *rand.Rand, t expr.Type) expr.Value {
	var n int64
	switch k := rng.IntN(20); {
	case k < 14:
		n = rng.Int64N(31) - 10
	case k < 19:
		n = rng.Int64N(201) - 100
	default:
		n = rng.Int64N(2001) - 1000
	}
	switch t.Kind {
	case expr.Int:
		return expr.IntValue(big.NewInt(n))
	case expr.Real:
		return expr.RatValue(big.NewRat(n, []int64{1, 1, 2, 4, 10}[rng.IntN(5)]))
	case expr.Bool:
		return expr.BoolValue(rng.IntN(2) == 0)
	case expr.EnumKind:
		return expr.EnumValue(t.Enum, rng.IntN(len(t.Enum.Values)))
	}
	return expr.Zero(t)
}

// Near returns a random number a small distance from v (v itself when
// it is not a number).
func Near(rng *rand.Rand, v expr.Value) expr.Value {
	d := rng.Int64N(41) - 10
	switch v.T.Kind {
	case expr.Int:
		return expr.IntValue(new(big.Int).Add(v.Int, big.NewInt(d)))
	case expr.Real:
		return expr.RatValue(new(big.Rat).Add(v.Rat, big.NewRat(d, []int64{1, 2, 4}[rng.IntN(3)])))
	}
	return v
}
