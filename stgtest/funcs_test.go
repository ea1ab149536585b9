package stgtest

import (
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/extfunc"
	"github.com/stg-tool/stg/runner"
	"github.com/stg-tool/stg/spec/expr"
)

// double sends in(p) with DBL(p) > 10 and passes on out(q) with
// q == DBL(p) (kept in x).
const double = `kind: testcase
name: double
functions:
  DBL: {params: [int], result: int, table: [[1, 2]]IMPL}
variables: {x: int}
actions:
  in: {dir: send, params: {p: int}}
  out: {dir: receive, params: {q: int}}
  delta: {dir: receive}
initial: {location: A, condition: "x == 0"}
verdicts: {pass: [Pass], fail: [Fail], inconc: [Inconc]}
transitions:
  - {from: A, action: in, guard: "DBL(p) > 10 && p < 50", assign: {x: "DBL(p)"}, to: B}
  - {from: A, action: out, to: Fail}
  - {from: A, action: delta, to: Inconc}
  - {from: B, action: out, guard: "q == x", to: Pass}
  - {from: B, action: out, guard: "q != x", to: Fail}
  - {from: B, action: delta, to: Fail}
`

// doubler answers in(p) with out(2p), or out(2p + off).
func doubler(off int64) adapter.Starter {
	return adapter.GoSUT(func() adapter.SUT {
		return adapter.SUTFunc(func(_ string, args map[string]expr.Value) ([]adapter.Output, error) {
			q := new(big.Int).Lsh(args["p"].Int, 1)
			return []adapter.Output{{Action: "out", Args: map[string]any{"q": q.Add(q, big.NewInt(off))}}}, nil
		})
	})
}

func dbl(a []expr.Value) (expr.Value, error) {
	return expr.IntValue(new(big.Int).Lsh(a[0].Int, 1)), nil
}

// TestFuncs: a test case that calls an external function plays, with a
// Go implementation or with its impl: command; a call that fails fails
// the test as an error.
func TestFuncs(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "dbl.sh")
	body := "#!/bin/sh\nwhile read -r line; do n=$(echo \"$line\" | tr -dc '0-9-'); echo \"{\\\"result\\\":$((n * 2))}\"; done\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	goImpl := map[string]extfunc.GoFunc{"DBL": dbl}
	failing := map[string]extfunc.GoFunc{"DBL": func([]expr.Value) (expr.Value, error) { return expr.Value{}, errors.New("no license") }}
	for _, tt := range []struct {
		name    string
		impl    string
		impls   map[string]extfunc.GoFunc
		start   adapter.Starter
		outcome string
		want    string
	}{
		{"go pass", "", goImpl, doubler(0), "pass", "Pass"},
		{"go fail", "", goImpl, doubler(1), "fail", "Fail"},
		{"command pass", ", impl: sh " + script, nil, doubler(0), "pass", "Pass"},
		{"command fail", ", impl: sh " + script, nil, doubler(1), "fail", "Fail"},
		{"no implementation", "", nil, doubler(0), "fail", "DBL("},
		{"failing implementation", "", failing, doubler(0), "fail", "no license"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := config{seed: 1, seedSet: true, runs: 3, opts: runner.DefaultOptions(), impls: tt.impls}
			text := strings.Replace(double, "IMPL", tt.impl, 1)
			r := record("TestX", func(t testing.TB) { play(t, text, tt.start, c) })
			if r.outcome != tt.outcome {
				t.Fatalf("outcome %s, want %s: %s\nlogs: %q", r.outcome, tt.outcome, r.msg, r.logs)
			}
			got := r.msg + strings.Join(r.logs, "\n")
			if !strings.Contains(got, tt.want) {
				t.Errorf("%q is missing from\n%s", tt.want, got)
			}
		})
	}
}
