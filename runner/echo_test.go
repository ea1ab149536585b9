package runner

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/spec/expr"
)

// echoSUT implements testdata/echo/spec.yaml: store(s) is answered by
// greet("Dear " + s) when s is a name (a capital, then small letters),
// by reject otherwise. Its mutants alter the greeting ("echo": "Dear "
// + s + "!" for names of 4 letters or more) or accept any letters
// ("lax").
type echoSUT struct{ mutant string }

var (
	echoName = regexp.MustCompile(`^[A-Z][a-z]+$`)
	echoLax  = regexp.MustCompile(`^[A-Za-z]+$`)
)

func (e *echoSUT) Input(action string, args map[string]expr.Value) ([]adapter.Output, error) {
	if action != "store" {
		return nil, fmt.Errorf("echo: unknown input %s", action)
	}
	s := args["s"].Str
	valid := echoName
	if e.mutant == "lax" {
		valid = echoLax
	}
	if !valid.MatchString(s) {
		return []adapter.Output{{Action: "reject"}}, nil
	}
	msg := "Dear " + s
	if e.mutant == "echo" && len(s) >= 4 {
		msg += "!"
	}
	return []adapter.Output{{Action: "greet", Args: map[string]any{"msg": msg}}}, nil
}

// TestEchoCorrect plays 30 seeded runs (100 with STG_LONG=1) of the echo
// test case against the correct SUT, planning as stg run does: no
// error, no Fail.
func TestEchoCorrect(t *testing.T) {
	runs := testlong.Runs(30, 100)
	if testing.Short() {
		runs = 20
	}
	opts := DefaultOptions()
	r := newRunner(t, "echo/testcase.yaml", opts)
	verdicts := map[Verdict]int{}
	for seed := int64(1); seed <= int64(runs); seed++ {
		res, err := r.Run(context.Background(), adapter.InProcess(&echoSUT{}), seed)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, res.TraceString())
		}
		if res.Verdict == Fail {
			t.Fatalf("seed %d: Fail against the correct SUT: %s\n%s", seed, res.Reason, res.TraceString())
		}
		verdicts[res.Verdict]++
	}
	t.Logf("%d runs: %v", runs, verdicts)
	if verdicts[Pass] < runs*9/10 {
		t.Errorf("only %d Pass of %d runs", verdicts[Pass], runs)
	}
}

// TestEchoMutants: the mutant that alters the echo gets Fail (planning
// leads to names of 4 letters or more); the mutant that accepts any
// letters gets Fail with a random walk (depth 0) within 20 runs.
func TestEchoMutants(t *testing.T) {
	for _, tt := range []struct {
		mutant string
		depth  int
		runs   int
	}{
		{"echo", DefaultDepth, 5},
		{"lax", 0, 20},
	} {
		opts := DefaultOptions()
		opts.Depth = tt.depth
		r := newRunner(t, "echo/testcase.yaml", opts)
		failed := 0
		for seed := int64(1); seed <= int64(tt.runs); seed++ {
			res, err := r.Run(context.Background(), adapter.InProcess(&echoSUT{mutant: tt.mutant}), seed)
			if err != nil {
				t.Fatalf("mutant %s seed %d: %v\n%s", tt.mutant, seed, err, res.TraceString())
			}
			if res.Verdict == Fail {
				failed++
			}
		}
		if failed == 0 {
			t.Errorf("mutant %s, depth %d: no Fail in %d runs", tt.mutant, tt.depth, tt.runs)
		}
		t.Logf("mutant %s, depth %d: %d Fail of %d runs", tt.mutant, tt.depth, failed, tt.runs)
	}
}

// TestEchoDependsOnSeedAlone: runs of the echo test case give the same
// trace whatever ran before them in their Runner (string candidates,
// the solver's answers and the memo of planning depend on the seed
// alone).
func TestEchoDependsOnSeedAlone(t *testing.T) {
	const seeds = 6
	play := func(r *Runner, seed int64) string {
		res, err := r.Run(context.Background(), adapter.InProcess(&echoSUT{}), seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		return res.Verdict.String() + "\n" + res.TraceString()
	}
	batch, fresh := newRunner(t, "echo/testcase.yaml", DefaultOptions()), newRunner(t, "echo/testcase.yaml", DefaultOptions())
	var traces [seeds + 1]string
	for seed := int64(1); seed <= seeds; seed++ {
		traces[seed] = play(batch, seed)
	}
	for seed := int64(seeds); seed >= 1; seed-- {
		if got := play(fresh, seed); got != traces[seed] {
			t.Errorf("seed %d: in order\n%s\nin reverse order\n%s", seed, traces[seed], got)
		}
	}
}
