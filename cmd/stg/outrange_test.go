package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputRangeTestcases: a test case generated from a spec whose
// outputs have ranged parameters passes stg check (values out of range
// are ill-typed, Fail by typing, and need no transition; the check used
// to ask for one: "not complete for receive show ... e.g. with v = 11")
// and stg run plays it.
func TestOutputRangeTestcases(t *testing.T) {
	dir := filepath.Join("testdata", "outrange")
	for _, tc := range []struct{ spec, purpose string }{
		{filepath.Join(dir, "spec.yaml"), filepath.Join(dir, "purpose.yaml")},
		{filepath.Join("..", "..", "spec", "specfile", "testdata", "ext", "ranges.yaml"), filepath.Join(dir, "ranges-purpose.yaml")},
	} {
		out := filepath.Join(t.TempDir(), "tc.yaml")
		if code, _, errOut := stg(t, "generate", tc.spec, tc.purpose, "-o", out); code != exitPass {
			t.Fatalf("generate %s: exit %d: %s", tc.spec, code, errOut)
		}
		code, sum, errOut := stg(t, "check", out)
		if code != exitPass || errOut != "" {
			t.Errorf("check of the test case of %s: exit %d: %s", tc.spec, code, errOut)
		}
		if !strings.Contains(sum, "deterministic") {
			t.Errorf("summary %q", sum)
		}
	}
	out := filepath.Join(t.TempDir(), "tc.yaml")
	if code, _, errOut := stg(t, "generate", filepath.Join(dir, "spec.yaml"), filepath.Join(dir, "purpose.yaml"), "-o", out); code != exitPass {
		t.Fatalf("generate: exit %d: %s", code, errOut)
	}
	sut, _ := filepath.Abs(filepath.Join(dir, "sut.sh"))
	if code, o, errOut := stg(t, "run", out, "--runs", "2", "--seed", "1", "-q", "--", sut); code != exitPass {
		t.Errorf("run: exit %d\n%s%s", code, o, errOut)
	}
}
