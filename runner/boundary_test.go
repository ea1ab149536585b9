package runner

import (
	"testing"
)

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
