package impl

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/spec/expr"
)

// converse plays measurement pairs against a fresh SUT with fault f and
// returns what it said: "mReq", "out(ok, 1122/25)", and "." for
// quiescence after the first measurement of a pair.
func converse(t *testing.T, f Fault, pairs [][2]int64) []string {
	t.Helper()
	ctx := context.Background()
	a := New(f)
	defer a.Close()
	var said []string
	drain := func() {
		for {
			out, err := a.Receive(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			if out == nil {
				return
			}
			if out.Action == "mReq" {
				said = append(said, "mReq")
				continue
			}
			p, _ := new(big.Rat).SetString(fmt.Sprint(out.Args["p"]))
			said = append(said, fmt.Sprintf("out(%v, %s)", out.Args["msg"], p.RatString()))
		}
	}
	drain()
	for _, pr := range pairs {
		for i, v := range pr {
			if err := a.Send(ctx, adapter.Input{Action: "getmeas", Args: map[string]expr.Value{"v": expr.IntValue(big.NewInt(v))}}); err != nil {
				t.Fatal(err)
			}
			n := len(said)
			drain()
			if i == 0 && len(said) == n {
				said = append(said, ".")
			}
		}
	}
	return said
}

func TestCorrect(t *testing.T) {
	got := converse(t, Correct, [][2]int64{{123, 96}, {148, 141}, {12, 18}, {1, 2}, {600, 500}, {0, 40}})
	want := []string{"mReq",
		".", "out(ok, 22458/50)", "mReq", // 228: RISE 0.97, (1.97)(228) = 449.16
		".", "out(alarm, 1026)", "mReq", // 300: RISE 2.42, 3.42 * 300
		".", "out(ok, 30)", "mReq", // 30 <= 200
		".", "out(ok, 1638/5)", "mReq", // 195 + (31 + 34 mod 97) = 260: RISE 0.26, 1.26 * 260
		".", "out(ok, 35728/125)", "mReq", // 195 + (27100 mod 97 = 37) = 232: RISE 0.232, 1.232 * 232
		".", "out(ok, 196)", "mReq", // 195 + (680 mod 97 = 1) = 196 <= 200
	}
	fix := func(s []string) []string {
		for i, x := range s {
			if strings.HasPrefix(x, "out(") {
				// normalise the rationals
				var msg, p string
				fmt.Sscanf(strings.TrimSuffix(strings.TrimPrefix(x, "out("), ")"), "%s %s", &msg, &p)
				r, _ := new(big.Rat).SetString(p)
				s[i] = "out(" + msg + " " + r.RatString() + ")"
			}
		}
		return s
	}
	if g, w := fix(got), fix(want); !slices.Equal(g, w) {
		t.Errorf("correct:\n got %v\nwant %v", g, w)
	}
}

// TestMutantsDeviate: each mutant says something else than the correct
// controller on one of these pairs, and the same elsewhere.
func TestMutantsDeviate(t *testing.T) {
	pairs := [][2]int64{{123, 96}, {148, 141}, {12, 18}, {1, 2}}
	want := converse(t, Correct, pairs)
	for _, f := range Faults()[1:] {
		if got := converse(t, f, pairs); slices.Equal(got, want) {
			t.Errorf("%s answers as the correct controller: %v", f, got)
		}
	}
	if n := len(Faults()); n != int(numFaults) {
		t.Errorf("Faults() has %d entries, want %d", n, numFaults)
	}
}

// TestPrograms: the programs under sut/ are exactly the faults, each
// running the fault its directory names (sut/mutant-first-twice runs
// impl.Run(impl.FirstTwice)).
func TestPrograms(t *testing.T) {
	byName := map[string]Fault{}
	for _, f := range Faults() {
		byName[f.String()] = f
	}
	mains, err := filepath.Glob(filepath.Join("..", "*", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, main := range mains {
		dir := filepath.Base(filepath.Dir(main))
		dirs = append(dirs, dir)
		src, err := os.ReadFile(main)
		if err != nil {
			t.Fatal(err)
		}
		f, ok := byName[dir]
		want := "impl.Run(impl." + goName(f) + ")"
		if !ok || !strings.Contains(string(src), want) {
			t.Errorf("%s does not call %s", main, want)
		}
	}
	if len(dirs) != len(Faults()) {
		t.Errorf("programs %v for faults %v", dirs, Faults())
	}
}

// goName is the name of f's constant.
func goName(f Fault) string {
	return [...]string{"Correct", "AlarmThreshold", "NoRiseFactor", "FirstTwice", "AlwaysRise"}[f]
}
