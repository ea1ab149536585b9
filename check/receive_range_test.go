package check_test

import (
	"strings"
	"testing"

	"github.com/stg-tool/stg/check"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/specfile"
)

// rangedTC receives show(v) with v in [0, 10]; its guards cover GUARDS.
const rangedTC = `kind: testcase
name: t
variables: {}
actions:
  show: {dir: receive, params: {v: {type: int, range: [0, 10]}}}
  delta: {dir: receive}
initial: {location: W}
verdicts: {pass: [Pass], fail: [Fail], inconc: [Inconc]}
locations: [W, Pass, Fail, Inconc]
transitions:
  - {from: W, action: show, guard: "GUARD1", to: Pass}
  - {from: W, action: show, guard: "GUARD2", to: Fail}
  - {from: W, action: delta, to: Fail}
`

// TestReceiveCompletenessInRange: receive completeness counts only the
// values in the parameters' ranges (out of range is ill-typed: Fail by
// typing), and still finds a gap inside the range.
func TestReceiveCompletenessInRange(t *testing.T) {
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, tc := range []struct{ g1, g2, gap string }{
		{"v == 3", "v >= 0 && v <= 10 && v != 3", ""},
		{"v == 3", "v != 3", ""},
		{"v <= 5", "v > 6", "v = 6"},
		{"v == 3", "v > 3", "e.g. with v = "},
	} {
		text := strings.NewReplacer("GUARD1", tc.g1, "GUARD2", tc.g2).Replace(rangedTC)
		m, err := specfile.ParseModel("tc.yaml", []byte(text), nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := check.ReceiveCompleteness(z, m.WithParamRanges())
		if err != nil || len(f.Undecided) > 0 {
			t.Fatalf("%s / %s: %v %v", tc.g1, tc.g2, err, f.Undecided)
		}
		switch {
		case tc.gap == "" && len(f.Errors) > 0:
			t.Errorf("%s / %s: %v", tc.g1, tc.g2, f.Errors[0])
		case tc.gap != "" && (len(f.Errors) != 1 || !strings.Contains(f.Errors[0].Msg, tc.gap)):
			t.Errorf("%s / %s: %v, want a gap %q", tc.g1, tc.g2, f.Errors, tc.gap)
		}
		for _, e := range f.Errors {
			for _, bad := range []string{"v = -", "v = 11", "v = 12"} {
				if strings.Contains(e.Msg, bad) {
					t.Errorf("%s / %s: witness out of range: %v", tc.g1, tc.g2, e)
				}
			}
		}
	}
}
