package main

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stg-tool/stg/internal/testlong"
)

var (
	tourQuidonc = []string{filepath.Join("..", "..", "examples", "quidonc", "spec.yaml"), filepath.Join("..", "..", "examples", "quidonc", "purpose-fig4.yaml")}
	tourTank    = []string{filepath.Join("..", "..", "examples", "tank", "spec.yaml"), filepath.Join("..", "..", "examples", "tank", "purpose-high-then-empty.yaml")}
)

// quidoncTourOut is the output of stg tour -o DIR on Qui-Donc's fig4
// purpose and DIR, computed once for the tests that read them.
var quidoncTourOut = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp(builds.dir, "quidonc-tour-")
	if err != nil {
		return "", err
	}
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"stg", "tour", "-o", dir}, tourQuidonc...), &stdout, &stderr); code != exitPass {
		return "", fmt.Errorf("stg tour -o %s on quidonc: exit %d: %s", dir, code, stderr.String())
	}
	return dir + "\n" + stdout.String(), nil
})

// quidoncTourFiles returns the directory and the output of quidoncTourOut.
func quidoncTourFiles(t *testing.T) (dir, out string) {
	t.Helper()
	s, err := quidoncTourOut()
	if err != nil {
		t.Fatal(err)
	}
	dir, out, _ = strings.Cut(s, "\n")
	return dir, out
}

// TestTourWritesTestcases: stg tour -o DIR writes one test case per
// instance (7 of the tour's 8, then the feasible prefix of t1 and the 5
// tests of the completion), which stg check and stg dot accept.
func TestTourWritesTestcases(t *testing.T) {
	dir, out := quidoncTourFiles(t)
	for _, want := range []string{"SP: 15 states, 36 transitions", "covering tour: 8 symbolic tests, total length 81", "instantiated: 7/8 (87.5 %)", "not instantiable"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) != 13 {
		t.Fatalf("%d files written, want 13: %v", len(files), files)
	}
	for _, f := range files {
		if code, _, errOut := stgCmd(t, "check", f); code != exitPass {
			t.Errorf("stg check %s: exit %d: %s", f, code, errOut)
		}
		if code, out, errOut := stgCmd(t, "dot", f); code != exitPass || !strings.HasPrefix(out, "digraph") {
			t.Errorf("stg dot %s: exit %d: %s", f, code, errOut)
		}
	}
}

// TestTourGo: --format go writes Go test files of one package, one per
// instance: the account's 2 tests and its completion's 1 by default,
// quidonc's 13 with STG_LONG=1.
func TestTourGo(t *testing.T) {
	args, want := tourAccount, 3
	if testlong.Enabled() {
		args, want = tourQuidonc, 13
	}
	dir := t.TempDir()
	code, _, errOut := stgCmd(t, append([]string{"tour", "-o", dir, "--format", "go", "--package", "qd_test"}, args...)...)
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if len(files) != want {
		t.Fatalf("%d files written, want %d", len(files), want)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, src, parser.PackageClauseOnly)
		if err != nil || file.Name.Name != "qd_test" {
			t.Errorf("%s: %v, package %v", f, err, file)
		}
	}
}

// TestTourReflexive: the tank's test needs an inserted pour, shown in
// brackets; without insertions it has no instance.
func TestTourReflexive(t *testing.T) {
	code, out, errOut := stgCmd(t, append([]string{"tour"}, tourTank...)...)
	if code != exitPass || !strings.Contains(out, "[fill?(n=") || !strings.Contains(out, "instantiated: 1/1 (100 %)") {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
	code, out, errOut = stgCmd(t, append([]string{"tour", "--reflexive", "0"}, tourTank...)...)
	if code != exitPass || !strings.Contains(out, "instantiated: 0/1 (0 %)") {
		t.Errorf("--reflexive 0: exit %d: %s%s", code, out, errOut)
	}
}

// TestTourStats: the columns of Table II, both variants. The default run
// reads the table of the tank (instantiate's TestQuidoncFigures checks
// quidonc's figures); STG_LONG=1 reads quidonc's.
func TestTourStats(t *testing.T) {
	args, symbolic, instantiated := tourTank, "1", "1"
	if testlong.Enabled() {
		args, symbolic, instantiated = tourQuidonc, "8", "7"
	}
	code, out, errOut := stgCmd(t, append([]string{"tour", "--stats"}, args...)...)
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "#symbolic") || !strings.HasPrefix(lines[1], "without") || !strings.HasPrefix(lines[2], "with filtering") {
		t.Fatalf("unexpected stats:\n%s", out)
	}
	if f := strings.Fields(lines[2]); f[2] != symbolic || f[5] != instantiated {
		t.Errorf("with filtering: %v, want %s symbolic, %s instantiated", f, symbolic, instantiated)
	}
}

func TestTourErrors(t *testing.T) {
	dir := t.TempDir()
	notPurpose := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(notPurpose, []byte("kind: spec\nname: x\nvariables: {}\nactions: {}\ninitial: {location: A}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("kind: purpose\nname: b\ninitial: {location: q0}\nwhere: {q9: \"TryCounter == 0\"}\ntransitions: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tour", tourQuidonc[0]}, "needs SPEC and PURPOSE"},
		{append([]string{"tour", "--format", "dot"}, tourQuidonc...), "unknown --format"},
		{append([]string{"tour", "--reflexive", "-1"}, tourQuidonc...), "--reflexive must be at least 0"},
		{[]string{"tour", tourQuidonc[0], notPurpose}, "must be a purpose"},
		{[]string{"tour", tourQuidonc[0], filepath.Join(dir, "missing.yaml")}, "missing.yaml"},
		{[]string{"tour", tourQuidonc[0], bad}, "bad.yaml:4:"},
	} {
		code, _, errOut := stgCmd(t, c.args...)
		if code != exitError || !strings.Contains(errOut, c.want) {
			t.Errorf("stg %v: exit %d, stderr %q; want exit %d with %q", c.args, code, errOut, exitError, c.want)
		}
	}
}
