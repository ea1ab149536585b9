package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

var atmPaper = filepath.Join("..", "..", "examples", "atm-paper", "spec.yaml")

// TestSymexATM: Fig. 2 of the AGATHA paper from the command line.
func TestSymexATM(t *testing.T) {
	code, out, errOut := stgCmd(t, "symex", atmPaper, "--inclusion", "--stats", "--format", "json")
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]float64{"nodes": 9, "transitions": 8, "cut_by_inclusion": 5, "longest_path": 2} {
		if s[k] != want {
			t.Errorf("%s = %v, want %v", k, s[k], want)
		}
	}
	for _, format := range []string{"text", "yaml", "json", "dot"} {
		code, out, errOut := stgCmd(t, "symex", atmPaper, "--depth", "2", "--format", format)
		if code != exitPass || !strings.Contains(out, "cashFee") {
			t.Errorf("--format %s: exit %d\n%s\n%s", format, code, out, errOut)
		}
	}
}

func TestSymexBoundReported(t *testing.T) {
	retry := filepath.Join("..", "..", "examples", "retry", "spec.yaml")
	code, out, errOut := stgCmd(t, "symex", retry, "--inclusion", "--max-nodes", "50", "--stats")
	if code != exitPass || !strings.Contains(errOut, "bound reached") || !strings.Contains(out, "bound_reached: true") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

func TestSymexErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"symex"}, "one SPEC"},
		{[]string{"symex", atmPaper, "--format", "svg"}, "--format"},
		{[]string{"symex", atmPaper, "--delta", "maybe"}, "--delta"},
		{[]string{"symex", runTestcaseFile}, "not a testcase"},
		{[]string{"purposes", atmPaper}, "--length N or --k-inclusion K"},
		{[]string{"purposes", atmPaper, "--length", "2", "--k-inclusion", "1"}, "one of them"},
		{[]string{"purposes", atmPaper, "--length", "2", "--split"}, "-o DIR"},
	} {
		code, out, errOut := stgCmd(t, tt.args...)
		if code != exitError || !strings.Contains(errOut+out, tt.want) {
			t.Errorf("stg %v: exit %d, %q, want 3 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestPurposesATM: Fig. 4 (1-inclusion = TG_2: 18 nodes, 10 accept) and
// --split writing 10 purposes that load and check against the spec.
func TestPurposesATM(t *testing.T) {
	code, out, errOut := stgCmd(t, "purposes", atmPaper, "--k-inclusion", "1", "--stats", "--format", "json")
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s symex.PurposeStats
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if want := (symex.PurposeStats{Nodes: 18, Accept: 10, Skip: 7, Bottom: 1}); s != want {
		t.Errorf("stats %+v, want %+v", s, want)
	}
	dir := filepath.Join(t.TempDir(), "purposes")
	if code, _, errOut := stgCmd(t, "purposes", atmPaper, "--length", "2", "--split", "-o", dir); code != exitPass {
		t.Fatalf("--split: exit %d: %s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) != 10 {
		t.Fatalf("--split wrote %d files, want 10", len(files))
	}
	for _, f := range files {
		p, err := specfile.LoadSymPurpose(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := specfile.LoadFile(p.SpecPath(), nil)
		if err != nil {
			t.Fatalf("%s: its spec: %v", f, err)
		}
		names := symex.Names(m)
		if err := p.Check(m, func(t *spec.Transition) string { return names[t] }); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if len(p.Accept) != 1 {
			t.Errorf("%s: %d accept paths", f, len(p.Accept))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "atm-paper-TG2-deposit-ask-cash.yaml")); err != nil {
		t.Error(err)
	}
}

// TestDotSymPurpose draws a symbolic purpose: one accept node (green),
// its skip ancestors and the ⊥ siblings.
func TestDotSymPurpose(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := stgCmd(t, "purposes", atmPaper, "--length", "2", "--split", "-o", dir); code != exitPass {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := stgCmd(t, "dot", filepath.Join(dir, "atm-paper-TG2-deposit-ask-cash.yaml"))
	if code != exitPass || strings.Count(out, "palegreen") != 1 || !strings.Contains(out, "lightsteelblue") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

var microgridSpec = filepath.Join("..", "..", "examples", "microgrid", "spec.yaml")

// symexFigures runs stg symex --stats --format json and decodes it.
func symexJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := stgCmd(t, append([]string{"symex"}, append(args, "--stats", "--format", "json")...)...)
	if code != exitPass {
		t.Fatalf("stg symex %v: exit %d: %s", args, code, errOut)
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSymexMicrogrid: the rows of Tables 2 and 4 of the
// function-summaries paper from the command line (the m = 0 rows call no
// implementation), the Table 2 columns in text, and --tables-out.
func TestSymexMicrogrid(t *testing.T) {
	base := []string{microgridSpec, "--height", "15", "--delta", "none"}
	s := symexJSON(t, append(base, "--m", "0")...)
	cov := s["coverage"].(map[string]any)
	rows := s["rows"].(map[string]any)
	if s["states"] != 16.0 || cov["covered"] != 5.0 || cov["total"] != 8.0 || cov["percent"] != 62.5 || rows["INTGR"] != 2.0 || rows["RISE"] != 2.0 {
		t.Errorf("Table 1, m = 0: %v", s)
	}
	if u := cov["uncovered"].([]any); len(u) != 3 || u[0] != "t5" || u[1] != "t7" || u[2] != "t8" {
		t.Errorf("uncovered %v", u)
	}
	s = symexJSON(t, append(base, "--add-tables", filepath.Join("..", "..", "examples", "microgrid", "tables-3.yaml"))...)
	cov, rows = s["coverage"].(map[string]any), s["rows"].(map[string]any)
	if cov["covered"] != 8.0 || rows["INTGR"] != 4.0 || rows["RISE"] != 3.0 || s["solvetab"].(map[string]any)["execs"] != 0.0 {
		t.Errorf("Table 3, m = 0: %v", s)
	}
	s = symexJSON(t, append(base, "--functions", "uninterpreted")...)
	if s["coverage"].(map[string]any)["covered"] != 8.0 || s["functions"] != "uninterpreted" {
		t.Errorf("uninterpreted: %v", s)
	}

	out := filepath.Join(t.TempDir(), "tables.yaml")
	code, text, errOut := stgCmd(t, "symex", microgridSpec, "--height", "15", "--delta", "none", "--m", "1", "--order", "dfs", "--stats", "--tables-out", out)
	if code != exitPass {
		t.Fatalf("m = 1: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"m  height  INTGR  RISE  states  coverage", "\n1  15 ", "uncovered: ", "order dfs"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	m, err := specfile.LoadFile(microgridSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := len(m.Func("RISE").Table)
	if err := specfile.LoadTables(out, m); err != nil {
		t.Fatalf("--tables-out wrote an unreadable file: %v", err)
	}
	if got := len(m.Func("RISE").Table); before != 2 || got != 3 {
		t.Errorf("RISE: %d rows, then %d with the enriched tables, want 2 and 3", before, got)
	}
}

// TestSymexFunctionErrors: bad options, inclusion with summaries, and an
// implementation that crashes (named with its inputs, exit 3, no hang).
func TestSymexFunctionErrors(t *testing.T) {
	flat := filepath.Join("..", "..", "symex", "testdata", "microgrid-flat.yaml")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"symex", microgridSpec, "--order", "random"}, "--order"},
		{[]string{"symex", microgridSpec, "--functions", "magic"}, "--functions"},
		{[]string{"symex", microgridSpec, "--m", "-1"}, "--m"},
		{[]string{"symex", microgridSpec, "--functions", "uninterpreted", "--m", "2"}, "need --functions summaries"},
		{[]string{"symex", microgridSpec, "--inclusion", "--functions", "summaries"}, "inclusion is not available"},
		{[]string{"symex", microgridSpec, "--inclusion", "--m", "1"}, "inclusion is not available"},
		{[]string{"symex", microgridSpec, "--add-tables", "nonexistent.yaml"}, "nonexistent.yaml"},
		{[]string{"symex", flat, "--height", "15", "--delta", "none", "--m", "1"}, "INTGR("},
	} {
		code, out, errOut := stgCmd(t, tt.args...)
		if code != exitError || !strings.Contains(errOut+out, tt.want) {
			t.Errorf("stg %v: exit %d, %q, want 3 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestSymexTablesDeprecated: --tables of stg symex and stg purposes,
// which adds rows where --tables of run, verdict and generate replaces
// them, still adds them, with a warning naming --add-tables.
func TestSymexTablesDeprecated(t *testing.T) {
	tables := filepath.Join("..", "..", "examples", "microgrid", "tables-3.yaml")
	for _, cmd := range [][]string{
		{"symex", microgridSpec, "--height", "15", "--delta", "none", "--stats", "--format", "json"},
		{"purposes", microgridSpec, "--length", "8", "--stats", "--format", "json"},
	} {
		_, added, _ := stgCmd(t, append(cmd, "--add-tables", tables)...)
		code, old, errOut := stgCmd(t, append(cmd, "--tables", tables)...)
		if code != exitPass || !strings.Contains(errOut, "stg "+cmd[0]+": --tables is deprecated here: use --add-tables") {
			t.Errorf("stg %s --tables: exit %d, stderr %q", cmd[0], code, errOut)
		}
		if strip := regexp.MustCompile(`"time_ms": [0-9.e+-]+`); strip.ReplaceAllString(old, "") != strip.ReplaceAllString(added, "") {
			t.Errorf("stg %s: --tables gives\n%s\n--add-tables\n%s", cmd[0], old, added)
		}
	}
}
