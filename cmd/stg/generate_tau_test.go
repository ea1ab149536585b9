package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	jobsSpec        = filepath.Join("..", "..", "examples", "jobs", "spec.yaml")
	jobsPurpose     = filepath.Join("..", "..", "examples", "jobs", "purpose.yaml")
	jobsPurposePark = filepath.Join("..", "..", "examples", "jobs", "purpose-park.yaml")
)

// TestGenerateInternalActions: a spec with internal actions gives a test
// case on the τ-closure; τ-cycles that assign and non-deterministic
// closures are refused with FILE:LINE:COL.
func TestGenerateInternalActions(t *testing.T) {
	cycle := writeFile(t, "cycle.yaml", `kind: spec
name: counter
variables: {x: int}
actions:
  go: {dir: input}
  out: {dir: output, params: {v: int}}
  tick: {dir: internal}
initial: {location: A, condition: x == 0}
transitions:
  - {from: A, action: go, to: B}
  - {from: B, action: tick, guard: x < 5, assign: {x: x + 1}, to: B}
  - {from: B, action: out, guard: v == x, to: A}
`)
	choice := writeFile(t, "choice.yaml", `kind: spec
name: choice
variables: {x: int}
actions:
  go: {dir: input}
  out: {dir: output, params: {v: int}}
  left: {dir: internal}
  right: {dir: internal}
initial: {location: A, condition: x == 0}
transitions:
  - {from: A, action: go, to: B}
  - {from: B, action: left, to: L}
  - {from: B, action: right, assign: {x: 1}, to: R}
  - {from: L, action: out, to: A}
  - {from: R, action: out, to: A}
`)
	purpose := writeFile(t, "p.yaml", `kind: purpose
name: out
variables: {}
initial: {location: W}
accept: [Acc]
transitions:
  - {from: W, action: out, to: Acc}
`)
	tests := []cliCase{
		{"jobs", []string{"generate", jobsSpec, jobsPurpose}, 0, []string{
			"{from: 'Queued,Wait', action: delta, guard: job <= 10, to: Fail}",
			"guard: r == 2 * job + 1 && count == done + 1 && r == 21",
		}, nil},
		{"jobs park", []string{"generate", jobsSpec, jobsPurposePark}, 0, []string{
			"{from: 'Queued,Queued', action: delta, guard: job >= 11, to: 'quiet(Queued),Parked'}",
			"{from: 'quiet(Queued),Parked', action: result, to: Fail}",
		}, nil},
		{"assigning τ-cycle", []string{"generate", cycle, purpose}, 3, nil, []string{
			cycle + ":11:5: transition B -tick-> B changes variables on the cycle of internal transitions [B -tick-> B]",
		}},
		{"non-deterministic closure", []string{"generate", choice, purpose}, 3, nil, []string{
			choice + ":13:5: after internal actions from B, τ-path [B -left-> L] then transition L -out-> A (line 14) and τ-path [B -right-> R] then transition R -out-> A (line 15) can both fire on out with different effects",
		}},
	}
	runCases(t, tests)
}

// TestRunInternalActions plays the jobs test cases against the example's
// programs: Pass against the correct server, Fail against each mutant on
// the test case that shows its fault.
func TestRunInternalActions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the SUTs")
	}
	dir := t.TempDir()
	build := func(name string) string { return buildProgram(t, "./examples/jobs/sut/"+name) }
	tcs := map[string]string{}
	for name, p := range map[string]string{"result21": jobsPurpose, "park": jobsPurposePark} {
		tcs[name] = filepath.Join(dir, name+".tc.yaml")
		if code, _, errOut := stg(t, "generate", jobsSpec, p, "-o", tcs[name]); code != 0 {
			t.Fatalf("generate %s: exit %d: %s", p, code, errOut)
		}
	}
	tests := []struct {
		sut, tc string
		code    int
		want    string
	}{
		{"correct", "result21", 0, "reached Pass on output result(r=21, count=1)"},
		{"correct", "park", 0, "reached Pass on output result("},
		{"mutant-off-by-one", "result21", 1, "reached Fail on output result(r=20, count=1)"},
		{"mutant-parks-small-jobs", "result21", 1, "reached Fail on quiescence"},
		{"mutant-poke-miscounts", "park", 1, "count=0"},
	}
	bins := map[string]string{}
	for _, tt := range tests {
		t.Run(tt.sut+"/"+tt.tc, func(t *testing.T) {
			if bins[tt.sut] == "" {
				bins[tt.sut] = build(tt.sut)
			}
			code, out, errOut := stg(t, "run", tcs[tt.tc], "--seed", "1", "--startup", "100ms", "--", bins[tt.sut])
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, want %d with %q:\n%s\n%s", code, tt.code, tt.want, out, errOut)
			}
		})
	}
	os.RemoveAll(dir)
}
