package runner

import (
	"math/rand/v2"
	"strings"

	"github.com/stg-tool/stg/spec"
)

// Strings the tester chooses are readable and diverse: it asks the
// solver, in turn, for two random words (of random shapes: capitalised,
// small letters, with a digit or a space, ...), then for a random
// length, keeping the first request the guard allows; the solver's own
// model (which may hold any byte) is the last resort. (Hints are
// equalities rather than regular expressions: Z3 4.8.12 is slow on two
// memberships of one string asserted apart.)

// stringHints returns the soft targets for the string identifier id,
// most specific first.
func stringHints(rng *rand.Rand, id *spec.Ident) []spec.Expr {
	n := 1 + rng.IntN(8)
	return []spec.Expr{
		spec.Compare(spec.Eq, id, spec.StrConst(randomWord(rng, n))),
		spec.Compare(spec.Eq, id, spec.StrConst(randomWord(rng, 1+rng.IntN(8)))),
		spec.Compare(spec.Eq, &spec.StrCall{Fn: spec.StrLen, Args: []spec.Expr{id}}, spec.IntConst(int64(n))),
	}
}

// randomWord returns a word of n bytes of a random shape: a name
// (a capital, then small letters), small letters, capitals, a name with
// one other byte among its letters, letters with digits and spaces, or
// any printable ASCII.
func randomWord(rng *rand.Rand, n int) string {
	const lower, upper, digits = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"
	pick := func(set string) byte { return set[rng.IntN(len(set))] }
	var b strings.Builder
	shape := rng.IntN(11)
	odd := 1 + rng.IntN(max(n-1, 1)) // the other byte of a name, shape 9
	for i := 0; i < n; i++ {
		switch {
		case (shape < 5 || shape == 9) && i == 0: // a name: Capital then small letters
			b.WriteByte(pick(upper))
		case shape == 9 && i == odd:
			b.WriteByte(pick(digits + " -'.1_" + upper))
		case shape < 5 || shape == 9:
			b.WriteByte(pick(lower))
		case shape < 7: // small letters only
			b.WriteByte(pick(lower))
		case shape == 7: // capitals only
			b.WriteByte(pick(upper))
		case shape == 8: // letters with a digit or a space inside
			b.WriteByte(pick(lower + upper + digits + " "))
		default: // any printable ASCII
			b.WriteByte(byte(' ' + rng.IntN(95)))
		}
	}
	return b.String()
}

// pickString asserts the first satisfiable hint for the string id (see
// stringHints), through try.
func (x *execution) pickString(try func([]spec.Expr) (bool, error), id *spec.Ident) error {
	for _, h := range stringHints(x.rng, id) {
		ok, err := try([]spec.Expr{h})
		if ok || err != nil {
			return err
		}
	}
	return nil
}

// guessTries is how many random draws exact evaluation tries for a send
// of a before the solver is asked: one, or stringGuesses when a has a
// string parameter (a draw costs microseconds; a solver check with
// strings and regular expressions, milliseconds).
func guessTries(a *spec.Action) int {
	for _, p := range a.Params {
		if p.Type == spec.StringType {
			return stringGuesses
		}
	}
	return 1
}

const stringGuesses = 48

// relateStrings makes the string values of args (drawn independently)
// related now and then, as guards that compare strings want: a value
// takes the first byte of an earlier one, or equals it.
func (x *execution) relateStrings(a *spec.Action, args map[string]spec.Value) {
	var prev []string
	for _, p := range a.Params {
		v, ok := args[p.Name]
		if !ok || p.Type != spec.StringType {
			continue
		}
		s := v.Str
		if len(prev) > 0 {
			o := prev[x.rng.IntN(len(prev))]
			switch k := x.rng.IntN(8); {
			case k < 3 && len(o) > 0 && len(s) > 0:
				s = o[:1] + s[1:]
			case k == 3:
				s = o
			}
		}
		args[p.Name] = spec.StringValue(s)
		prev = append(prev, s)
	}
}
