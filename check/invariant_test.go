package check

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec/expr"
	"github.com/stg-tool/stg/spec/specfile"
)

const invSpec = `kind: spec
name: inv
types: {Phase: [idle, busy]}
variables:
  n: {type: int, range: [0, 2]}
  s: Phase
invariant: "s == idle || n > 0"
actions:
  go:   {dir: input, params: {p: int}}
  stop: {dir: output}
initial: {location: A, condition: "n == 0 && s == idle"}
transitions:
  - {from: A, action: go, guard: "p > 0 && p <= 2", assign: {n: p, s: busy}, to: A}
  - {from: A, action: stop, guard: "s == busy", assign: {s: idle, n: 0}, to: A}
`

// TestInvariant: each line edit either keeps the invariant and ranges
// inductive or is reported at its place with a witness.
func TestInvariant(t *testing.T) {
	ctx := newContext(t)
	for _, c := range []struct {
		line int
		repl string
		want string // "" for no finding
	}{
		{0, "", ""},
		{11, `initial: {location: A, condition: "n == 0 && s == busy"}`, "m.yaml:11:36: the initial condition does not imply the invariant and ranges, e.g. with n = 0, s = busy"},
		{11, `initial: {location: A, condition: "n == 3 && s == idle"}`, "m.yaml:11:36: the initial condition does not imply the invariant and ranges, e.g. with n = 3, s = idle"},
		{13, `  - {from: A, action: go, guard: "p >= 0 && p <= 2", assign: {n: p, s: busy}, to: A}`,
			"m.yaml:13:5: transition A -go-> A does not preserve the invariant and ranges: it leads from [p = 0, "},
		{13, `  - {from: A, action: go, guard: "p > 0", assign: {n: p, s: busy}, to: A}`,
			"m.yaml:13:5: transition A -go-> A does not preserve the invariant and ranges: it leads from [p = "},
		{14, `  - {from: A, action: stop, guard: "s == busy", assign: {n: 0}, to: A}`,
			"m.yaml:14:5: transition A -stop-> A does not preserve the invariant and ranges: it leads from [n = "},
		{7, `invariant: "s == idle || n > 1"`, "m.yaml:13:5: transition A -go-> A does not preserve the invariant and ranges: it leads from [p = 1"},
	} {
		src := invSpec
		if c.line > 0 {
			src = editLine(src, c.line, c.repl)
		}
		f, err := Invariant(ctx, parse(t, src, nil))
		if err != nil {
			t.Fatal(err)
		}
		got := expr.ErrorList(f.Errors).Error()
		if len(f.Undecided) > 0 {
			t.Errorf("undecided: %v", expr.ErrorList(f.Undecided))
		}
		switch {
		case c.want == "" && got != "":
			t.Errorf("line %d: unexpected %s", c.line, got)
		case c.want != "" && !strings.HasPrefix(got, c.want):
			t.Errorf("line %d = %s:\ngot  %s\nwant %s...", c.line, c.repl, got, c.want)
		}
		if c.want != "" && strings.Contains(c.want, "does not preserve") && !strings.Contains(got, "] to [") {
			t.Errorf("line %d: no state after in %s", c.line, got)
		}
	}
}

// TestInvariantExamples: the examples that state an invariant or
// ranges state inductive ones.
func TestInvariantExamples(t *testing.T) {
	ctx := newContext(t)
	for _, name := range []string{"quidonc"} {
		file := filepath.Join(examplesDir(t), name, "spec.yaml")
		m, err := specfile.LoadFile(file, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Invariant == nil {
			t.Errorf("%s: no invariant", file)
		}
		f, err := Invariant(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		if errs := append(f.Errors, f.Undecided...); len(errs) > 0 {
			t.Errorf("%s: %v", file, expr.ErrorList(errs))
		}
	}
}

func editLine(src string, n int, repl string) string {
	lines := strings.Split(src, "\n")
	lines[n-1] = repl
	return strings.Join(lines, "\n")
}
