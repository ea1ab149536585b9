package runner

import (
	"math/rand/v2"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
)

// TestStringDraws: the strings the tester draws for exact evaluation are
// printable, of every shape, and related (a shared first byte or equal)
// often enough that a guard like first[0] == last[0] && first != last
// is met within guessTries draws.
func TestStringDraws(t *testing.T) {
	x := &execution{rng: rand.New(rand.NewPCG(1, 2))}
	a := &spec.Action{Name: "person", Params: []*spec.Param{
		{Name: "first", Type: expr.StringType}, {Name: "last", Type: expr.StringType},
	}}
	if got := guessTries(a); got != stringGuesses {
		t.Errorf("guessTries = %d for string parameters, want %d", got, stringGuesses)
	}
	if got := guessTries(&spec.Action{Params: []*spec.Param{{Name: "n", Type: expr.IntType}}}); got != 1 {
		t.Errorf("guessTries = %d without strings, want 1", got)
	}
	const n = 2000
	shared, equal, names := 0, 0, 0
	for range n {
		args := map[string]expr.Value{"first": x.randomValue(expr.StringType), "last": x.randomValue(expr.StringType)}
		x.relateStrings(a, args)
		f, l := args["first"].Str, args["last"].Str
		for _, s := range []string{f, l} {
			for i := 0; i < len(s); i++ {
				if s[i] < ' ' || s[i] > '~' {
					t.Fatalf("drew %q: not printable ASCII", s)
				}
			}
		}
		switch {
		case f == l:
			equal++
		case f[0] == l[0]:
			shared++
		}
		if f[0] >= 'A' && f[0] <= 'Z' {
			names++
		}
	}
	if shared < n/10 || equal < n/20 || names < n/4 {
		t.Errorf("of %d draws: %d share a first byte, %d are equal, %d start with a capital", n, shared, equal, names)
	}
}
