package runner

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

// roundTrip writes a run's trace as a trace file and reads it back.
func roundTrip(t *testing.T, res *Result) []specfile.TraceEvent {
	t.Helper()
	var b bytes.Buffer
	for _, ev := range play.TraceEvents(res.Trace) {
		if err := specfile.WriteTraceEvent(&b, ev); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := specfile.ReadTrace("run.jsonl", &b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	return evs
}

func cmpStarter(mutant string) adapter.Starter {
	return func(context.Context) (adapter.Adapter, error) {
		return adapter.InProcess(&cmpSUT{mutant: mutant}), nil
	}
}

// A saved run replays to the same verdict, without a SUT (Judge) and
// against the SUT, with the same stimuli.
func TestReplaySavedRuns(t *testing.T) {
	r := newRunner(t, "cmp.yaml", Options{Depth: DefaultDepth})
	for _, mutant := range []string{"", "wrong", "nok", "silent"} {
		for seed := int64(1); seed <= 5; seed++ {
			res := runInProcess(t, r, &cmpSUT{mutant: mutant}, seed)
			evs := roundTrip(t, res)
			judged, err := r.Engine().Judge(context.Background(), "run.jsonl", evs)
			if err != nil || judged.Verdict != res.Verdict || len(judged.Trace) != len(res.Trace) {
				t.Fatalf("%q seed %d: judged %v (%v), want %s\n%s\n%s", mutant, seed, judged.Verdict, err, res.Verdict, res.TraceString(), judged.TraceString())
			}
			sc, err := play.ScriptFromTrace(r, "run.jsonl", evs)
			if err != nil {
				t.Fatal(err)
			}
			again, err := play.ReplayOnce(context.Background(), r.Engine(), cmpStarter(mutant), sc, false)
			if err != nil || again.Verdict != res.Verdict || !sameEvents(t, again, res) {
				t.Fatalf("%q seed %d: replayed %v (%v), want\n%s\ngot\n%s", mutant, seed, again.Verdict, err, res.TraceString(), again.TraceString())
			}
			if res.Verdict == Fail && !play.SameFailure(res, again) {
				t.Errorf("%q seed %d: the replay fails another way", mutant, seed)
			}
		}
	}
}

// An exact replay refuses a stimulus the test case does not allow; an
// adapting one solves values it allows, as close as possible.
func TestReplayStimulusNotAllowed(t *testing.T) {
	r := newRunner(t, "cmp.yaml", Options{Depth: DefaultDepth})
	in := func(p int64) play.Stimulus {
		return play.Stimulus{Action: "in", Args: map[string]expr.Value{"p": expr.IntValue(big.NewInt(p))}}
	}
	sc := play.Script{in(1), in(3)}
	_, err := play.ReplayOnce(context.Background(), r.Engine(), cmpStarter(""), sc, false)
	var se *play.StimulusError
	if !errors.As(err, &se) || se.Index != 1 {
		t.Fatalf("exact replay of in(p=1): %v, want a StimulusError for stimulus 1", err)
	}
	res, err := play.ReplayOnce(context.Background(), r.Engine(), cmpStarter(""), sc, true)
	if err != nil || res.Verdict != Pass {
		t.Fatalf("adapting replay: %v %v\n%s", res.Verdict, err, res.TraceString())
	}
	got := play.ScriptOf(res.Trace)
	if len(got) != 2 || got[0].Args["p"].Int.Int64() != 3 || got[1].Args["p"].Int.Int64() != 5 {
		t.Errorf("adapting replay sent %v, want in(p=3) (closest to 1), in(p=5)", got)
	}
}

// A failing run shrinks to no more stimuli, with values as small as the
// guards allow, and the shrunk script still fails the same way.
func TestShrinkCmp(t *testing.T) {
	r := newRunner(t, "cmp.yaml", Options{Depth: DefaultDepth})
	for _, mutant := range []string{"wrong", "nok", "silent"} {
		for seed := int64(1); seed <= 3; seed++ {
			res := runInProcess(t, r, &cmpSUT{mutant: mutant}, seed)
			if res.Verdict != Fail {
				t.Fatalf("%s seed %d: %s", mutant, seed, res.Verdict)
			}
			sh, err := r.Engine().Shrink(context.Background(), cmpStarter(mutant), res, 60)
			if err != nil || !sh.Reproduced {
				t.Fatalf("%s seed %d: %v, reproduced %v", mutant, seed, err, sh.Reproduced)
			}
			if len(sh.Script) > sh.From || sh.Tried > 60 || !play.SameFailure(res, sh.Result) {
				t.Errorf("%s seed %d: shrunk to %d stimuli from %d in %d runs\n%s", mutant, seed, len(sh.Script), sh.From, sh.Tried, sh.Result.TraceString())
			}
			// x is at least 3 and y == x + 2: the smallest values.
			if p := sh.Script[0].Args["p"].Int.Int64(); p != 3 {
				t.Errorf("%s seed %d: first value %d, want 3\n%s", mutant, seed, p, sh.Result.TraceString())
			}
			again, err := play.ReplayOnce(context.Background(), r.Engine(), cmpStarter(mutant), play.ScriptOf(sh.Result.Trace), false)
			if err != nil || !play.SameFailure(res, again) {
				t.Errorf("%s seed %d: the shrunk script replays to %v (%v)", mutant, seed, again.Verdict, err)
			}
		}
	}
}

func sameEvents(t *testing.T, a, b *Result) bool {
	t.Helper()
	var x, y bytes.Buffer
	for _, ev := range play.TraceEvents(a.Trace) {
		specfile.WriteTraceEvent(&x, ev)
	}
	for _, ev := range play.TraceEvents(b.Trace) {
		specfile.WriteTraceEvent(&y, ev)
	}
	return x.String() == y.String()
}

// FuzzJudge: any trace file is judged by the test case without a panic
// or a hang; its errors are positioned or a StimulusError.
func FuzzJudge(f *testing.F) {
	f.Add([]byte(`{"dir":"send","action":"in","args":{"p":3}}` + "\n" + `{"dir":"send","action":"in","args":{"p":5}}` + "\n" + `{"dir":"receive","action":"ok","args":{"p":2}}`))
	f.Add([]byte(`{"dir":"receive","action":"delta"}` + "\n" + `{"dir":"send","action":"in","args":{"p":1}}`))
	f.Add([]byte(`{"dir":"receive","action":"nok","args":{"p":"x"}}`))
	f.Add([]byte(`{"dir":"send","action":"ok"}`))
	r := newRunner(f, "cmp.yaml", Options{Depth: 2, Options: play.Options{MaxSteps: 50}})
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := specfile.ReadTrace("t.jsonl", bytes.NewReader(data))
		if err != nil {
			return
		}
		res, err := r.Engine().Judge(context.Background(), "t.jsonl", evs)
		var se *play.StimulusError
		var el expr.ErrorList
		switch {
		case errors.As(err, &se), errors.As(err, &el):
		case err != nil:
			t.Fatalf("%v", err)
		case res.Verdict == 0:
			t.Fatalf("no verdict:\n%s", res.TraceString())
		}
	})
}
