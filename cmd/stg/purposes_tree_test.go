package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// purposePaths runs stg purposes ... and returns its accept paths.
func purposePaths(t *testing.T, args ...string) [][]string {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "p.yaml")
	code, _, errOut := stgCmd(t, append(append([]string{"purposes"}, args...), "-o", out)...)
	if code != exitPass {
		t.Fatalf("stg purposes %v: exit %d: %s", args, code, errOut)
	}
	p, err := specfile.LoadSymPurpose(out)
	if err != nil {
		t.Fatal(err)
	}
	var paths [][]string
	for _, a := range p.Accept {
		paths = append(paths, a.Names)
	}
	return paths
}

// TestPurposesSummaries: stg purposes builds on the tree of stg symex.
// On examples/microgrid (Table 1 and implementations) it defaults to
// summaries: TG8 has only the paths the tables explain, a subset of the
// uninterpreted tree's; --m 1 learns rows and adds paths; Table 3 (all
// outcomes) gives the uninterpreted paths.
func TestPurposesSummaries(t *testing.T) {
	unint := purposePaths(t, microgridSpec, "--length", "8", "--functions", "uninterpreted")
	static := purposePaths(t, microgridSpec, "--length", "8")
	learnt := purposePaths(t, microgridSpec, "--length", "8", "--m", "1")
	table3 := purposePaths(t, microgridSpec, "--length", "8", "--add-tables", filepath.Join("..", "..", "examples", "microgrid", "tables-3.yaml"))
	if len(unint) != 6 || len(static) == 0 || len(static) >= len(learnt) || len(learnt) >= len(unint) {
		t.Errorf("accept paths: uninterpreted %d, static %d, m = 1 %d", len(unint), len(static), len(learnt))
	}
	for _, ps := range [][][]string{static, learnt, table3} {
		for _, p := range ps {
			if !slices.ContainsFunc(unint, func(q []string) bool { return slices.Equal(p, q) }) {
				t.Errorf("%v is not a path of the uninterpreted tree", p)
			}
		}
	}
	if len(table3) != len(unint) {
		t.Errorf("Table 3: %d paths, want %d", len(table3), len(unint))
	}
	code, _, errOut := stgCmd(t, "purposes", microgridSpec, "--length", "8", "--functions", "uninterpreted", "--m", "1")
	if code != exitError || !strings.Contains(errOut, "need --functions summaries") {
		t.Errorf("uninterpreted with --m: exit %d, %s", code, errOut)
	}
}

// TestPurposesDeltaLoop: with --delta loop the purposes go on after
// quiescence (atm-paper TG3: [deposit, delta, ask, cash] ...); with the
// default sink no accept path has a step after delta. Each path exists
// in the tree built as NeedsDeltaLoop says.
func TestPurposesDeltaLoop(t *testing.T) {
	sink := purposePaths(t, atmPaper, "--length", "3")
	loop := purposePaths(t, atmPaper, "--length", "3", "--delta", "loop")
	if symex.NeedsDeltaLoop(sink) || !symex.NeedsDeltaLoop(loop) || len(loop) <= len(sink) {
		t.Fatalf("sink %d paths, loop %d paths", len(sink), len(loop))
	}
	if !slices.ContainsFunc(loop, func(p []string) bool { return slices.Equal(p, []string{"deposit", "delta", "ask", "cash"}) }) {
		t.Errorf("no [deposit, delta, ask, cash] in %v", loop)
	}
	m, err := specfile.LoadFile(atmPaper, nil)
	if err != nil {
		t.Fatal(err)
	}
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	e, err := symex.NewExecutor(z, m, symex.Options{DeltaLoop: symex.NeedsDeltaLoop(loop)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.PurposeOf("loop", loop); err != nil {
		t.Error(err)
	}
}

// TestSymexNoDep: --no-dep changes the microgrid rows m = 1 and m = 2
// of Table 2 (SolveTab as Algorithm 1), and --per-call is reported. The
// default run checks the row m = 1, STG_LONG=1 both.
func TestSymexNoDep(t *testing.T) {
	base := []string{microgridSpec, "--height", "15", "--delta", "none"}
	for _, m := range testlong.Pick([]string{"1", "2"}, func(i int, _ string) bool { return i == 0 }) {
		dep := symexJSON(t, append(base, "--m", m)...)
		nodep := symexJSON(t, append(base, "--m", m, "--no-dep")...)
		if dep["dep"] != true || nodep["dep"] != false {
			t.Fatalf("dep %v / %v", dep["dep"], nodep["dep"])
		}
		a, _ := json.Marshal([]any{dep["states"], dep["coverage"], dep["rows"]})
		b, _ := json.Marshal([]any{nodep["states"], nodep["coverage"], nodep["rows"]})
		if string(a) == string(b) {
			t.Errorf("m = %s: --no-dep gives the same row %s", m, a)
		}
	}
	if s := symexJSON(t, append(base, "--m", "1", "--per-call")...); s["per_call"] != true {
		t.Errorf("per_call %v", s["per_call"])
	}
}
