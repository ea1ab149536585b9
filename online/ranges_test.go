package online

import (
	"context"
	"math/big"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// rangeSpec reads in(p), p in [3, 5] (its guard alone allows any
// p >= 0), and answers echo(p).
const rangeSpec = `
kind: spec
name: rng
variables: {x: int}
actions:
  in:   {dir: input, params: {p: {type: int, range: [3, 5]}}}
  echo: {dir: output, params: {p: int}}
initial: {location: A, condition: x == 0}
transitions:
  - {name: t_in, from: A, action: in, guard: p >= 0, assign: {x: p}, to: B}
  - {name: t_echo, from: B, action: echo, guard: p == x, to: A}
`

// TestStimulusInRange: on-line stimuli lie in the range of their
// parameter, whatever the seed.
func TestStimulusInRange(t *testing.T) {
	z, _, tp := purposeOn(t, rangeSpec, symPurpose(t, "kind: sympurpose\nname: p\nspec: rng.yaml\naccept:\n  - [t_in, t_echo]\n"))
	r := NewRunner(NewTester(z, tp), Options{})
	echo := adapter.SUTFunc(func(_ string, args map[string]expr.Value) ([]adapter.Output, error) {
		return []adapter.Output{{Action: "echo", Args: map[string]any{"p": args["p"].Int}}}, nil
	})
	seen := map[int64]bool{}
	for seed := int64(1); seed <= 30; seed++ {
		res, err := r.Run(context.Background(), adapter.InProcess(echo), seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if res.Verdict != Pass || len(Steps(res)) == 0 || !Steps(res)[0].Event.Stim {
			t.Fatalf("seed %d: %s (%s)\n%s", seed, res.Verdict, res.Reason, res.TraceString())
		}
		p := Steps(res)[0].Event.Args["p"].Int
		if p.Cmp(big.NewInt(3)) < 0 || p.Cmp(big.NewInt(5)) > 0 {
			t.Errorf("seed %d: sent p = %s, outside [3, 5]", seed, p)
		}
		seen[p.Int64()] = true
	}
	if len(seen) < 2 {
		t.Errorf("30 runs sent only %v", seen)
	}
}

// purposeOn returns a solver context, closed when the test ends, the
// spec specSrc (YAML) and the symbolic purpose sp on it.
func purposeOn(t testing.TB, specSrc string, sp *spec.SymPurpose) (*solver.Context, *spec.Model, *Purpose) {
	t.Helper()
	m, err := specfile.ParseModel("spec.yaml", []byte(specSrc), nil)
	if err != nil {
		t.Fatal(err)
	}
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(z.Close)
	x, err := symex.NewExecutor(z, m, symex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tp, err := NewPurpose(x, sp)
	if err != nil {
		t.Fatal(err)
	}
	return z, m, tp
}

// symPurpose reads a symbolic purpose from src.
func symPurpose(t *testing.T, src string) *spec.SymPurpose {
	t.Helper()
	sp, err := specfile.ParseSymPurpose("purpose.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// echoSpec answers in(p) with out(p) when p lies in out's range [0, 9];
// otherwise the value it would answer is none of out's, and it is
// quiescent for good.
const echoSpec = `kind: spec
name: echo
variables: {x: int}
actions:
  in:  {dir: input, params: {p: int}}
  out: {dir: output, params: {v: {type: int, range: [0, 9]}}}
initial: {location: A, condition: x == 0}
transitions:
  - {name: t_in, from: A, action: in, assign: {x: p}, to: B}
  - {name: t_out, from: B, action: out, guard: v == x, to: A}
`

// TestOutputRangeOnline: the stimuli toward out lie where out's range
// lets it answer, and a SUT silent where only an out-of-range answer
// would satisfy the guard is never failed (the symbolic execution reads
// the range, in its path conditions and its quiescence).
func TestOutputRangeOnline(t *testing.T) {
	z, _, tp := purposeOn(t, echoSpec, symPurpose(t, "kind: sympurpose\nname: p\nspec: echo.yaml\naccept:\n  - [t_in, t_out]\n"))
	r := NewRunner(NewTester(z, tp), Options{})
	correct := adapter.SUTFunc(func(_ string, args map[string]expr.Value) ([]adapter.Output, error) {
		if p := args["p"].Int; p.Sign() >= 0 && p.Cmp(big.NewInt(9)) <= 0 {
			return []adapter.Output{{Action: "out", Args: map[string]any{"v": p}}}, nil
		}
		return nil, nil
	})
	for seed := int64(1); seed <= 30; seed++ {
		res, err := r.Run(context.Background(), adapter.InProcess(correct), seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if res.Verdict != Pass {
			t.Errorf("seed %d: %s (%s)\n%s", seed, res.Verdict, res.Reason, res.TraceString())
		}
	}
}
