package funcs_test

import (
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/stg-tool/stg/examples/microgrid/funcs"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/spec/expr"
)

// tables reads a tables file of the example: INTGR rows [[a, b], r] and
// RISE rows [i, r].
func tables(t *testing.T, file string) (intgr [][3]string, rise [][2]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", file))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Functions struct {
			INTGR [][]any `yaml:"INTGR"`
			RISE  [][]any `yaml:"RISE"`
		}
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	str := func(x any) string {
		switch x := x.(type) {
		case int:
			return big.NewInt(int64(x)).String()
		case float64:
			return big.NewFloat(x).Text('f', -1)
		case string:
			return x
		}
		t.Fatalf("%s: unexpected %T %v", file, x, x)
		return ""
	}
	for _, row := range doc.Functions.INTGR {
		cells := row[0].([]any)
		intgr = append(intgr, [3]string{str(cells[0]), str(cells[1]), str(row[1])})
	}
	for _, row := range doc.Functions.RISE {
		rise = append(rise, [2]string{str(row[0]), str(row[1])})
	}
	if len(intgr) == 0 || len(rise) == 0 {
		t.Fatalf("%s: no rows", file)
	}
	return intgr, rise
}

func bigInt(t *testing.T, s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("not an int: %s", s)
	}
	return n
}

func bigRat(t *testing.T, s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("not a number: %s", s)
	}
	return r
}

// TestTables: the reference implementation agrees with every row of
// Tables 1 and 3, so that SolveTab's Exec never contradicts a row.
func TestTables(t *testing.T) {
	for _, file := range []string{"tables-1.yaml", "tables-3.yaml"} {
		intgr, rise := tables(t, file)
		for _, r := range intgr {
			if got := funcs.Intgr(bigInt(t, r[0]), bigInt(t, r[1])); got.Cmp(bigInt(t, r[2])) != 0 {
				t.Errorf("%s: INTGR([%s, %s]) = %s, want %s", file, r[0], r[1], got, r[2])
			}
		}
		for _, r := range rise {
			if got := funcs.Rise(bigInt(t, r[0])); got.Cmp(bigRat(t, r[1])) != 0 {
				t.Errorf("%s: RISE(%s) = %s, want %s", file, r[0], got.RatString(), r[1])
			}
		}
	}
}

// TestFormula: outside Table 3, INTGR([a, b]) = 195 + ((31a + 17b) mod
// 97), the mod Euclidean (negative inputs too).
func TestFormula(t *testing.T) {
	for _, c := range []struct{ a, b, want int64 }{
		{1, 2, 195 + 65}, {10, 20, 195 + 650 - 6*97}, {-3, 5, 195 + 89}, {-1, -1, 195 + 49}, {0, 200, 200},
		{0, 40, 196}, {0, 97, 195}, {12, 18, 30}, {18, 12, 195 + 83}, {600, 500, 195 + 37},
	} {
		if got := funcs.Intgr(big.NewInt(c.a), big.NewInt(c.b)); got.Int64() != c.want {
			t.Errorf("INTGR([%d, %d]) = %s, want %d", c.a, c.b, got, c.want)
		}
	}
	// Outputs at most 200 are rare: over one period of both inputs, 6
	// pairs in 97 outside the tables, and 195..291 for all.
	low, table := 0, map[[2]int64]bool{{0, 0}: true, {12, 18}: true}
	for a := int64(0); a < 97; a++ {
		for b := int64(0); b < 97; b++ {
			v := funcs.Intgr(big.NewInt(a), big.NewInt(b)).Int64()
			if table[[2]int64{a, b}] {
				continue
			}
			if v < 195 || v > 291 {
				t.Errorf("INTGR([%d, %d]) = %d, out of 195..291", a, b, v)
			}
			if v <= 200 {
				low++
			}
		}
	}
	if low != 6*97-1 { // (0, 0) is a row of Table 3, and 195 by the formula
		t.Errorf("%d pairs of 97² integrate to at most 200, want 6·97 - 1", low)
	}
	if got := funcs.Rise(big.NewInt(229)); got.Cmp(big.NewRat(229, 1000)) != 0 {
		t.Errorf("RISE(229) = %s", got.RatString())
	}
	if got := funcs.Rise(big.NewInt(-5000)); got.Cmp(big.NewRat(-5, 1)) != 0 {
		t.Errorf("RISE(-5000) = %s", got.RatString())
	}
}

// TestCommandsAgree: the Go functions, the Go command (impl/, built
// here) and the Python command the spec names give the same results,
// through package extfunc's protocol.
func TestCommandsAgree(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "impl")
	if out, err := exec.Command("go", "build", "-o", bin, "../impl").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	regs := map[string]*extfunc.Registry{}
	for name, cmd := range map[string]string{"python": "python3 impl/microgrid.py", "go": bin} {
		// As the spec declares them, run in the spec's directory.
		intgr := &expr.Func{Name: "INTGR", Params: []expr.Type{expr.IntType, expr.IntType}, ParamLens: []int{2}, Result: expr.IntType,
			Impl: cmd + " INTGR"}
		rise := &expr.Func{Name: "RISE", Params: []expr.Type{expr.IntType}, Result: expr.RealType, Impl: cmd + " RISE"}
		r, err := extfunc.New([]*expr.Func{intgr, rise}, extfunc.Options{Dir: "..", Timeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		regs[name] = r
	}
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := [][2]int64{{0, 0}, {12, 18}, {123, 96}, {148, 141}, {-7, 3}, {1 << 40, 1 << 41}}
	for range 40 {
		inputs = append(inputs, [2]int64{rng.Int64N(2001) - 1000, rng.Int64N(2001) - 1000})
	}
	for _, in := range inputs {
		a, b := expr.IntValue(big.NewInt(in[0])), expr.IntValue(big.NewInt(in[1]))
		want, _ := funcs.INTGR([]expr.Value{a, b})
		wantR, _ := funcs.RISE([]expr.Value{want})
		for name, r := range regs {
			got, err := r.Call("INTGR", []expr.Value{a, b})
			if err != nil || !got.Equal(want) {
				t.Errorf("%s: INTGR([%d, %d]) = %v, %v; want %v", name, in[0], in[1], got, err, want)
			}
			gotR, err := r.Call("RISE", []expr.Value{want})
			if err != nil || !gotR.Equal(wantR) {
				t.Errorf("%s: RISE(%v) = %v, %v; want %v", name, want, gotR, err, wantR)
			}
		}
	}
}

// TestServeErrors: a request the command cannot read gets an error
// reply, and the command goes on.
func TestServeErrors(t *testing.T) {
	in := "{\"args\":[[1]]}\nnot json\n{\"args\":[1.5]}\n\n{\"args\":[[1,2]]}\n"
	var out strings.Builder
	if err := funcs.Serve("INTGR", strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], `{"error":`) || !strings.HasPrefix(lines[1], `{"error":`) ||
		!strings.HasPrefix(lines[2], `{"error":`) || lines[3] != `{"result":260}` {
		t.Errorf("replies:\n%s", out.String())
	}
	if err := funcs.Serve("NOPE", strings.NewReader(""), &out); err == nil {
		t.Error("unknown function served")
	}
}
