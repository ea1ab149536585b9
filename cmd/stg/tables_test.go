package main

import (
	"path/filepath"
	"strings"
	"testing"
)

var microgridDir = filepath.Join("..", "..", "examples", "microgrid")

// TestCheckTables: stg check on a tables file, alone (signatures read
// from the rows) and after its spec; errors are FILE:LINE:COL.
func TestCheckTables(t *testing.T) {
	spec := filepath.Join(microgridDir, "spec.yaml")
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{filepath.Join(microgridDir, "tables-1.yaml")}, 0,
			[]string{"2 functions (INTGR([2]int) int: 2 rows, RISE(int) real: 2 rows), no two rows with equal inputs and different results (signatures read from the rows"}},
		{[]string{spec, filepath.Join(microgridDir, "tables-3.yaml")}, 0,
			[]string{"2 functions (INTGR([2]int) int: 4 rows, RISE(int) real: 3 rows)", "consistent with spec microgrid"}},
		{[]string{writeFile(t, "dup.yaml", "kind: tables\nfunctions:\n  F: [[1, 2], [1, 2], [1, 3]]\n")}, 3,
			[]string{"dup.yaml:3:23: row F(1) = 3 conflicts with row at 3:7 (= 2)"}},
		{[]string{writeFile(t, "types.yaml", "kind: tables\nfunctions:\n  F: [[1, 2], [true, 2], [1, 2, 3]]\n")}, 3,
			[]string{"types.yaml:3:16: argument 1 of F: \"true\" is not a value of type int", "types.yaml:3:26: row of F has 3 values, want 2"}},
		{[]string{spec, writeFile(t, "t.yaml", "kind: tables\nfunctions:\n  INTGR: [[1, 2]]\n  FOO: [[1, 2]]\n")}, 3,
			[]string{"t.yaml:3:11: row of INTGR has 2 values, want 3", "t.yaml:4:3: function FOO is not declared by microgrid"}},
		{[]string{spec, writeFile(t, "t.yaml", "kind: tables\nfunctions:\n  RISE: [[228, 0.97], [300, 2.5]]\n")}, 3,
			[]string{"t.yaml:3:23: row RISE(300) = 2.5 conflicts with row at ", "tables-1.yaml:6:22 (= 2.42)"}},
		{[]string{cmpSpec, filepath.Join(microgridDir, "tables-1.yaml")}, 3,
			[]string{"function INTGR is not declared by cmp"}},
	} {
		code, out, errOut := stg(t, append([]string{"check"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("stg check %v: exit %d, want %d; stdout %q, stderr %q", tc.args, code, tc.code, out, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("stg check %v: output %q does not contain %q", tc.args, out+errOut, w)
			}
		}
	}
}

// TestGenerateTables: stg generate decides the microgrid's guards with
// Table 1 (no Pass on the low answer t8 after [148, 141]) and not with
// --functions uninterpreted; --tables replaces the spec's tables.
func TestGenerateTables(t *testing.T) {
	spec := filepath.Join(microgridDir, "spec.yaml")
	purpose := filepath.Join(microgridDir, "testdata", "purpose-300.yaml")
	passOnLow := func(out string) bool {
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "name: t8") && strings.Contains(l, "to: Pass") {
				return true
			}
		}
		return false
	}
	code, out, errOut := stg(t, "generate", spec, purpose)
	if code != 0 || passOnLow(out) {
		t.Errorf("with the tables: exit %d (stderr %q), Pass on t8: %v\n%s", code, errOut, passOnLow(out), out)
	}
	if !strings.Contains(out, "table:") {
		t.Errorf("the test case does not carry the rows:\n%s", out)
	}
	code, out, errOut = stg(t, "generate", "--functions", "uninterpreted", spec, purpose)
	if code != 0 || !passOnLow(out) {
		t.Errorf("uninterpreted: exit %d (stderr %q), Pass on t8: %v", code, errOut, passOnLow(out))
	}
	ok := filepath.Join(microgridDir, "testdata", "purpose-300-ok.yaml")
	if code, _, errOut := stg(t, "generate", spec, ok); code != 3 || !strings.Contains(errOut, "Accept is unreachable") {
		t.Errorf("ok after [148, 141] with Table 1: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := stg(t, "generate", "--tables", filepath.Join(microgridDir, "tables-3.yaml"), spec, purpose); code != 0 {
		t.Errorf("--tables tables-3.yaml: exit %d, stderr %q", code, errOut)
	}
	bad := writeFile(t, "bad.yaml", "kind: tables\nfunctions:\n  RISE: [[300, 2.5], [300, 2.4]]\n")
	if code, _, errOut := stg(t, "generate", "--tables", bad, spec, purpose); code != 3 || !strings.Contains(errOut, "bad.yaml:3:22: row RISE(300) = 2.4 conflicts") {
		t.Errorf("--tables with a conflicting row: exit %d, stderr %q", code, errOut)
	}
	for _, args := range [][]string{{"--functions", "summaries"}, {"--functions", "uninterpreted", "--tables", bad}} {
		code, _, errOut := stg(t, append(append([]string{"generate"}, args...), spec, purpose)...)
		if code != 3 || !strings.Contains(errOut, "see stg generate --help") {
			t.Errorf("stg generate %v: exit %d, stderr %q, want a usage error", args, code, errOut)
		}
	}
}

// TestSymexStatsWithoutFunctions: stg symex --stats prints the columns of
// the functions (functions, m, rows, SolveTab) only for a spec that
// declares external functions.
func TestSymexStatsWithoutFunctions(t *testing.T) {
	code, out, errOut := stg(t, "symex", cmpSpec, "--stats")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if strings.Contains(out, "functions:") || !strings.HasPrefix(out, "height  states  coverage") {
		t.Errorf("cmp has no functions, yet:\n%s", out)
	}
	code, out, errOut = stg(t, "symex", cmpSpec, "--stats", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, key := range []string{`"functions"`, `"m"`, `"rows"`, `"solvetab"`, `"dep"`} {
		if strings.Contains(out, key) {
			t.Errorf("cmp has no functions, yet the JSON has %s:\n%s", key, out)
		}
	}
	_, out, _ = stg(t, "symex", filepath.Join(microgridDir, "spec.yaml"), "--height", "6", "--delta", "none", "--stats")
	if !strings.HasPrefix(out, "functions: summaries") || !strings.Contains(out, "m  height  INTGR  RISE  states") {
		t.Errorf("microgrid:\n%s", out)
	}
}
