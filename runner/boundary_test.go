package runner

import (
	"math/big"
	"slices"
	"testing"

	"github.com/stg-tool/stg/spec"
)

func TestBoundaryHints(t *testing.T) {
	p := &spec.Ident{Name: "p", Kind: spec.ParamIdent, T: spec.IntType}
	x := &spec.Ident{Name: "x", Kind: spec.VarIdent, T: spec.IntType}
	r := &spec.Ident{Name: "r", Kind: spec.ParamIdent, T: spec.RealType}
	b := &spec.Ident{Name: "b", Kind: spec.ParamIdent, T: spec.BoolType}
	five := spec.IntConst(5)
	for _, tt := range []struct {
		name string
		id   *spec.Ident
		cons []spec.Expr
		want []string
	}{
		{"p <= 5", p, []spec.Expr{spec.Compare(spec.Le, p, five)}, []string{"p == 5", "p == 5 + 1"}},
		{"p < 5", p, []spec.Expr{spec.Compare(spec.Lt, p, five)}, []string{"p == 5 + -1", "p == 5"}},
		{"5 < p (swapped: p > 5)", p, []spec.Expr{spec.Compare(spec.Lt, five, p)}, []string{"p == 5", "p == 5 + 1"}},
		{"p >= x", p, []spec.Expr{spec.Compare(spec.Ge, p, x)}, []string{"p == x + -1", "p == x"}},
		{"p == x + 2, inside a conjunction", p, []spec.Expr{spec.AndOf(spec.Compare(spec.Ge, x, five), spec.Compare(spec.Eq, p, spec.Arith(spec.Add, x, spec.IntConst(2))))},
			[]string{"p == x + 2 + -1", "p == x + 2", "p == x + 2 + 1"}},
		{"duplicates once", p, []spec.Expr{spec.Compare(spec.Le, p, five), spec.Compare(spec.Gt, p, five)}, []string{"p == 5", "p == 5 + 1"}},
		{"p on both sides: no atom", p, []spec.Expr{spec.Compare(spec.Le, p, spec.Arith(spec.Add, p, five))}, nil},
		{"another identifier", p, []spec.Expr{spec.Compare(spec.Le, x, five)}, nil},
		{"real", r, []spec.Expr{spec.Compare(spec.Ne, r, spec.RatConst(ratOf(1, 2)))}, []string{"r == 0.5 + -1.0", "r == 0.5", "r == 0.5 + 1.0"}},
		{"bool: none", b, []spec.Expr{spec.Compare(spec.Eq, b, spec.True())}, nil},
	} {
		var got []string
		for _, h := range boundaryHints(tt.id, tt.cons) {
			got = append(got, spec.Format(h))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestBoundaryValuesChosen checks, on cmp.yaml (first input p >= 3, the
// second p == x + 2), that both the boundary 3 and values off it are
// chosen as first input over seeds, for every strategy.
func TestBoundaryValuesChosen(t *testing.T) {
	for _, plan := range []Strategy{Shortest, Diverse} {
		r := newRunner(t, "cmp.yaml", Options{Depth: DefaultDepth, Plan: plan})
		values := map[int64]int{}
		for seed := range int64(120) {
			res := runInProcess(t, r, &cmpSUT{}, seed)
			for _, s := range res.Trace {
				if s.Kind == Sent {
					values[s.Args[0].Value.Int.Int64()]++
					break
				}
			}
		}
		if values[3] < 10 || len(values) < 20 {
			t.Errorf("%s: first inputs %v: want the boundary 3 at least 10 times in 120 runs, and 20 distinct values", plan, values)
		}
	}
}

func TestStretchSchedule(t *testing.T) {
	// Consecutive seeds take consecutive stretches, negative ones too:
	// every window of depth/2+1 seeds tries each stretch once.
	for _, depth := range []int{0, 1, 8, 13} {
		k := depth/2 + 1
		for start := int64(-7); start < 7; start++ {
			seen := map[int]bool{}
			for s := start; s < start+int64(k); s++ {
				st := stretchOf(s, depth)
				if st < 0 || st > depth/2 {
					t.Fatalf("stretchOf(%d, %d) = %d", s, depth, st)
				}
				seen[st] = true
			}
			if len(seen) != k {
				t.Errorf("depth %d, seeds %d..%d: stretches %v", depth, start, start+int64(k)-1, seen)
			}
		}
	}
	for _, name := range []string{"shortest", "diverse", "random"} {
		s, err := ParseStrategy(name)
		if err != nil || s.String() != name {
			t.Errorf("ParseStrategy(%q) = %v, %v", name, s, err)
		}
	}
	if _, err := ParseStrategy("longest"); err == nil {
		t.Error("ParseStrategy(longest): no error")
	}
}

func ratOf(a, b int64) *big.Rat { return big.NewRat(a, b) }
