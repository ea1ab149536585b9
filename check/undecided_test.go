package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/expr"
)

// hard is a spec whose two in-transitions overlap exactly where
// p^3 = x^3 + y^3 with x, y, p > 0 (Fermat, n = 3): no solution, and
// beyond what Z3 decides in a short timeout.
var hard = testdata("hard.yaml")

func TestUndecidedIsAFinding(t *testing.T) {
	ctx := newContext(t)
	ctx.SetTimeout(200 * time.Millisecond)
	f, err := Determinism(ctx, parse(t, hard, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Errors) != 0 || len(f.Undecided) != 1 {
		t.Fatalf("got errors %v and undecided %v, want one undecided pair", expr.ErrorList(f.Errors), expr.ErrorList(f.Undecided))
	}
	got := f.Undecided[0].Error()
	for _, want := range []string{"m.yaml:9:5: ", "cannot decide whether transition A -in-> A and transition A -in-> A (line 8)", solver.ErrUnknown.Error()} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}

func TestUndecidedGap(t *testing.T) {
	ctx := newContext(t)
	ctx.SetTimeout(200 * time.Millisecond)
	m := parse(t, `kind: testcase
name: gap
variables: {x: int, y: int}
actions:
  out: {dir: receive, params: {p: int}}
initial: {location: A}
verdicts: {pass: [Pass], fail: [Fail]}
transitions:
  - {from: A, action: out, guard: "p * p * p != x * x * x + y * y * y || p <= 0 || x <= 0 || y <= 0", to: Pass}
`, nil)
	f, err := ReceiveCompleteness(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Errors) != 0 || len(f.Undecided) != 1 ||
		!strings.Contains(f.Undecided[0].Error(), "m.yaml:9:5: the solver cannot decide whether test case location A is complete for receive out") {
		t.Errorf("got errors %v and undecided %v, want one undecided gap at m.yaml:9:5", expr.ErrorList(f.Errors), expr.ErrorList(f.Undecided))
	}
}

// twoSteps is a test case: in(p) with p >= 3, then ok(x) passes.
var twoSteps = testdata("two-steps.yaml")

// testdata returns the text of a file of testdata/ (shared with the
// tests of stg check).
func testdata(name string) string {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestVerdictNames(t *testing.T) {
	tests := []struct {
		name  string
		edits []string // old, new, old, new, ...
		want  []string
	}{
		{"well named", nil, nil},
		{"pass named otherwise", []string{"pass: [Pass]", "pass: [Good]", "to: Pass}", "to: Good}\n  - {from: B, action: ok, guard: \"false\", to: Pass}"}, []string{
			"m.yaml:14:5: pass verdict location Good must be named Pass",
			"m.yaml:15:5: location Pass is not listed in the pass verdicts"}},
		{"Fail not a verdict", []string{"fail: [Fail], ", ""}, []string{"m.yaml:12:5: location Fail is not listed in the fail verdicts"}},
		{"swapped", []string{"fail: [Fail], inconc: [Inconc]", "fail: [Inconc], inconc: [Fail]"}, []string{
			"location Fail is not listed in the fail verdicts", "inconc verdict location Fail must be named Inconc",
			"fail verdict location Inconc must be named Fail", "location Inconc is not listed in the inconc verdicts"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := twoSteps
			for i := 0; i < len(tt.edits); i += 2 {
				src = strings.Replace(src, tt.edits[i], tt.edits[i+1], 1)
			}
			got := expr.ErrorList(VerdictNames(parse(t, src, nil))).Error()
			if len(tt.want) == 0 && got != "" {
				t.Errorf("got %q, want nothing", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("got %q, want %q", got, w)
				}
			}
		})
	}
}

func TestPassReachable(t *testing.T) {
	tests := []struct {
		name          string
		from, to      string
		depth, budget int
		want          solver.Result
	}{
		{"two steps", "", "", 2, 100, solver.Sat},
		{"too deep", "", "", 1, 100, solver.Unsat},
		{"infeasible", `"p == x"`, `"p == x && x < 3"`, 8, 100, solver.Unsat},
		{"out of budget", "", "", 8, 1, solver.Unknown},
	}
	ctx := newContext(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := parse(t, strings.Replace(twoSteps, tt.from, tt.to, 1), nil)
			got, err := PassReachable(ctx, m, tt.depth, tt.budget)
			if err != nil || got != tt.want {
				t.Errorf("PassReachable = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
