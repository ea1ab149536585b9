package check

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

func newContext(t *testing.T) *solver.Context {
	t.Helper()
	ctx, err := solver.NewContext()
	if err != nil {
		t.Fatalf("solver: %v", err)
	}
	t.Cleanup(ctx.Close)
	return ctx
}

func parse(t *testing.T, src string, sp *spec.Model) *spec.Model {
	t.Helper()
	m, err := specfile.ParseModel("m.yaml", []byte(src), sp)
	if err != nil {
		t.Fatalf("ParseModel: %v", err)
	}
	return m
}

// examplesDir is examples/ at the root of the module.
func examplesDir(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	return filepath.Join(filepath.Dir(file), "..", "examples")
}

func TestCmpIsDeterministic(t *testing.T) {
	dir := filepath.Join(examplesDir(t), "cmp")
	sp, err := specfile.LoadFile(filepath.Join(dir, "spec.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := specfile.LoadFile(filepath.Join(dir, "purpose.yaml"), sp)
	if err != nil {
		t.Fatal(err)
	}
	ctx := newContext(t)
	for _, m := range []*spec.Model{sp, p} {
		f, err := Determinism(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		errs := f.Errors
		if len(errs) > 0 {
			t.Errorf("%s %s: %v", m.Kind, m.Name, expr.ErrorList(errs))
		}
	}
}

// TestExamplesAreDeterministic checks every spec under examples/.
func TestExamplesAreDeterministic(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(examplesDir(t), "*", "*.yaml"))
	ctx := newContext(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if k, err := specfile.PeekKind(f, data); err != nil || k == spec.PurposeKind {
			continue
		}
		m, err := specfile.ParseModel(f, data, nil)
		if err != nil {
			continue // the spec tests report it
		}
		found, err := Determinism(ctx, m)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		errs := found.Errors
		if len(errs) > 0 && !strings.Contains(f, "nondet") {
			t.Errorf("%s: %v", f, expr.ErrorList(errs))
		}
	}
}

const nondet = `kind: spec
name: nd
variables: {x: int}
actions:
  in:  {dir: input, params: {p: int}}
  out: {dir: output}
  tau: {dir: internal}
initial: {location: A, condition: x == 0}
transitions:
  - {from: A, action: in, guard: "p > 1", assign: {x: p}, to: B}
  - {from: A, action: in, guard: "p < 0", to: B}
  - {name: big, from: A, action: in, guard: "p == 2 && x < 5", to: C}
  - {from: A, action: out, to: B}
  - {from: B, action: tau, to: A}
  - {from: B, action: tau, to: C}
  - {from: C, action: out, guard: "x >= 0", to: A}
  - {from: C, action: in, guard: "x >= 0", to: A}
`

func TestNonDeterministic(t *testing.T) {
	m := parse(t, nondet, nil)
	f, err := Determinism(newContext(t), m)
	if err != nil {
		t.Fatal(err)
	}
	errs := f.Errors
	// Only the first and third transitions overlap; internal actions
	// and different actions are not compared.
	if len(errs) != 1 {
		t.Fatalf("got %d errors, want 1: %v", len(errs), expr.ErrorList(errs))
	}
	e := errs[0]
	if got := e.Pos.String(); got != "m.yaml:12:5" {
		t.Errorf("position %s, want m.yaml:12:5 (the later transition)", got)
	}
	for _, want := range []string{"non-deterministic", "big (A -in-> C)", "A -in-> B (line 10)", "p = 2, x = "} {
		if !strings.Contains(e.Msg, want) {
			t.Errorf("message %q does not contain %q", e.Msg, want)
		}
	}
}

func TestEmptyInitialCondition(t *testing.T) {
	src := strings.Replace(nondet, "condition: x == 0", "condition: x > 0 && x < 1", 1)
	src = strings.Replace(src, `guard: "p == 2 && x < 5"`, `guard: "p == 0"`, 1)
	f, err := Determinism(newContext(t), parse(t, src, nil))
	if err != nil {
		t.Fatal(err)
	}
	errs := f.Errors
	if len(errs) != 1 || !strings.Contains(errs[0].Msg, "initial condition x > 0 && x < 1 has no solution") ||
		errs[0].Pos.String() != "m.yaml:8:35" {
		t.Errorf("got %v, want the initial condition at m.yaml:8:35", expr.ErrorList(errs))
	}
}

func TestPurposeNeedNotBeDeterministic(t *testing.T) {
	sp := parse(t, nondet, nil)
	p := parse(t, `kind: purpose
name: p
variables: {}
initial: {location: W}
accept: [Acc]
transitions:
  - {from: W, action: in, guard: "p > 0", to: Acc}
  - {from: W, action: in, guard: "p > 1", to: W}
  - {from: W, action: "*", to: W}
`, sp)
	f, err := Determinism(newContext(t), p)
	if err != nil || len(f.Errors)+len(f.Undecided) > 0 {
		t.Errorf("Determinism(purpose) = %v, %v; want nothing", f, err)
	}
}

func TestTestcase(t *testing.T) {
	tc := parse(t, strings.Replace(twoSteps, `guard: "p != x"`, `guard: "p >= x"`, 1), nil) // undecided_test.go
	f, err := Determinism(newContext(t), tc)
	if err != nil {
		t.Fatal(err)
	}
	errs := f.Errors
	if len(errs) != 1 || errs[0].Pos.Line != 15 || !strings.Contains(errs[0].Msg, "B -ok-> Fail and transition B -ok-> Pass") {
		t.Errorf("got %v, want the ok transitions at line 15", expr.ErrorList(errs))
	}
}

func TestReceiveCompleteness(t *testing.T) {
	ctx := newContext(t)
	m, err := specfile.ParseModel("tc.yaml", []byte(`kind: testcase
name: gap
variables: {x: int}
actions:
  in: {dir: send, params: {p: int}}
  out: {dir: receive, params: {v: int}}
  delta: {dir: receive}
initial: {location: A, condition: x == 0}
verdicts: {pass: [Pass], fail: [Fail], inconc: [Inconc]}
transitions:
  - {from: A, action: in, assign: {x: p}, to: B}
  - {from: A, action: out, to: Fail}
  - {from: A, action: delta, to: A}
  - {from: B, action: out, guard: "v == x", to: Pass}
  - {from: B, action: out, guard: "v < x", to: Fail}
  - {from: B, action: delta, to: Fail}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ReceiveCompleteness(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	errs := f.Errors
	if len(errs) != 1 {
		t.Fatalf("got %v, want one gap (out with v > x in B)", errs)
	}
	if got := errs[0].Error(); !strings.Contains(got, "tc.yaml:14:5:") || !strings.Contains(got, "location B is not complete for receive out") {
		t.Errorf("message %q", got)
	}
}
