package tool

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/specfile"
)

var (
	cmpPurpose = filepath.Join("..", "examples", "cmp", "purpose.yaml")
)

// undecidedTestcase has a receive gap exactly where p^3 = x^3 + y^3
// with positive p, x, y: none, but beyond what Z3 decides quickly.
const undecidedTestcase = `kind: testcase
name: hard
variables: {x: int, y: int}
actions:
  out: {dir: receive, params: {p: int}}
initial: {location: A}
verdicts: {pass: [Pass], fail: [Fail]}
transitions:
  - {from: A, action: out, guard: "p * p * p != x * x * x + y * y * y || p <= 0 || x <= 0 || y <= 0", to: Pass}
`

func TestValidateUndecidedIsAWarning(t *testing.T) {
	m, err := specfile.ParseModel("hard.yaml", []byte(undecidedTestcase), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer ctx.Close()
	ctx.SetTimeout(200 * time.Millisecond)
	var warn bytes.Buffer
	n, err := validate(ctx, m, &warn)
	if err != nil || n != 1 {
		t.Errorf("validate = %d, %v; want 1 undecided and no error", n, err)
	}
	if want := "hard.yaml:9:5: warning: the solver cannot decide whether test case location A is complete for receive out (solver: unknown"; !strings.HasPrefix(warn.String(), want) {
		t.Errorf("warnings %q, want %q...", warn.String(), want)
	}
}

func TestSwappedSpecPurpose(t *testing.T) {
	if err := SwappedSpecPurpose("check", cmpSpec, cmpPurpose); err != nil {
		t.Errorf("right order: %v", err)
	}
	err := SwappedSpecPurpose("generate", cmpPurpose, cmpSpec)
	if err == nil || !strings.Contains(err.Error(), "the spec comes first: stg generate "+cmpSpec+" "+cmpPurpose) {
		t.Errorf("swapped: %v", err)
	}
	if err := SwappedSpecPurpose("check", "nope.yaml", cmpSpec); err != nil {
		t.Errorf("a missing file is for the loader to report: %v", err)
	}
}

func TestDurationHint(t *testing.T) {
	for s, want := range map[string]string{"200": "did you mean 200ms (or 200s)?", "1.5": "did you mean 1.5ms", "200ms": "", "auto": "", "NaN": "", "1e3": ""} {
		if got := DurationHint(s); !strings.Contains(got, want) || (want == "") != (got == "") {
			t.Errorf("DurationHint(%q) = %q, want %q", s, got, want)
		}
	}
}
