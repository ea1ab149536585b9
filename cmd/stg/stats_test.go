package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stg-tool/stg/internal/testlong"
)

// statsJSON runs stg with args, which print --stats --format json, and
// decodes the output.
func statsJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := stg(t, args...)
	if code != exitPass {
		t.Fatalf("stg %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stg %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return m
}

// tourAccount is the account example's tour: a few seconds where
// Qui-Donc's (tourQuidonc) takes several times longer.
var tourAccount = []string{filepath.Join("..", "..", "examples", "account", "spec.yaml"), filepath.Join("..", "..", "examples", "account", "purpose-limit.yaml")}

// tourStatsRuns hold the outputs of stg tour --stats --format json (both
// variants: the longest command of this package's tests), each computed
// once for the tests that read it.
var tourStatsRuns struct {
	mu   sync.Mutex
	runs map[string]*tourStatsRun
}

type tourStatsRun struct {
	once sync.Once
	m    map[string]any
}

// tourStatsExamples are the examples whose tour statistics the tests
// read: the tank's by default (a fraction of a second, one symbolic test
// with or without filtering), the account's and Qui-Donc's Fig. 4
// (seconds each, where filtering changes the figures) with STG_LONG=1.
func tourStatsExamples() []string {
	if testlong.Enabled() {
		return []string{"account", "quidonc"}
	}
	return []string{"tank"}
}

// tourStats returns the statistics of the tour of example name (one of
// tourStatsExamples).
func tourStats(t *testing.T, name string) map[string]any {
	t.Helper()
	args := map[string][]string{"tank": tourTank, "account": tourAccount, "quidonc": tourQuidonc}[name]
	tourStatsRuns.mu.Lock()
	if tourStatsRuns.runs == nil {
		tourStatsRuns.runs = map[string]*tourStatsRun{}
	}
	r := tourStatsRuns.runs[name]
	if r == nil {
		r = &tourStatsRun{}
		tourStatsRuns.runs[name] = r
	}
	tourStatsRuns.mu.Unlock()
	r.once.Do(func() {
		r.m = statsJSON(t, append([]string{"tour", "--stats", "--format", "json"}, args...)...)
	})
	if r.m == nil {
		t.Fatalf("stg tour --stats --format json on %s failed (see the first test that ran it)", name)
	}
	return r.m
}

// checkCoverage checks the coverage object shared by symex, tour and
// project: {covered, total, percent, uncovered}, consistent.
func checkCoverage(t *testing.T, what string, v any, covered, total float64) {
	t.Helper()
	cov, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: coverage %v", what, v)
	}
	unc, _ := cov["uncovered"].([]any)
	if cov["covered"] != covered || cov["total"] != total || cov["percent"] != 100*covered/total || float64(len(unc)) != total-covered {
		t.Errorf("%s: coverage %v, want %v/%v", what, cov, covered, total)
	}
}

// TestStatsJSONKeys: the commands that print statistics share the key
// names of stg symex --stats --format json for the same things, and
// their figures are those of the text output.
func TestStatsJSONKeys(t *testing.T) {
	symexKeys := statsJSON(t, "symex", cmpSpec, "--depth", "2", "--stats", "--format", "json")
	for _, k := range []string{"nodes", "transitions", "states", "coverage", "time_ms"} {
		if _, ok := symexKeys[k]; !ok {
			t.Fatalf("symex has no %q: the reference changed", k)
		}
	}
	for _, tt := range []struct {
		args []string
		keys []string
	}{
		{[]string{"abstract", seedsSpec, seedsPurpose}, []string{"states", "transitions", "time_ms"}},
		{[]string{"compose", slotSystem}, []string{"locations", "transitions", "time_ms"}},
		{[]string{"project", slotSystem, "--on", "SM", "--all-leaves"}, []string{"nodes", "transitions", "states", "coverage", "time_ms"}},
		{[]string{"tour"}, []string{"states", "transitions", "coverage", "time_ms"}},
	} {
		var m map[string]any
		if tt.args[0] == "tour" {
			m = tourStats(t, tourStatsExamples()[0])
		} else {
			m = statsJSON(t, append(tt.args, "--stats", "--format", "json")...)
		}
		for _, k := range tt.keys {
			v, ok := m[k]
			if !ok {
				t.Errorf("stg %s --stats --format json: no %q in %v", tt.args[0], k, m)
				continue
			}
			if _, isNum := v.(float64); k != "coverage" && !isNum {
				t.Errorf("stg %s: %s = %v, not a number", tt.args[0], k, v)
			}
		}
	}
}

func TestAbstractStatsJSON(t *testing.T) {
	m := statsJSON(t, "abstract", seedsSpec, seedsPurpose, "--stats", "--format", "json")
	sp, _ := m["sp"].(map[string]any)
	wo, _ := m["without_filtering"].(map[string]any)
	woSP, _ := wo["sp"].(map[string]any)
	// The figures of testdata/abstract/quidonc-stats.txt.
	if m["states"] != 5.0 || m["reachable_states"] != 5.0 || m["transitions"] != 19.0 || m["lts_transitions"] != 15.0 ||
		m["proof_obligations"] != 250.0 || m["unproved"] != 24.0 || m["filtered"] != 5.0 || m["concrete_states"] != 8.0 ||
		sp["states"] != 19.0 || sp["transitions"] != 43.0 || wo["transitions"] != 24.0 || woSP["transitions"] != 52.0 {
		t.Errorf("abstract --stats --format json: %v", m)
	}
}

// TestTourStatsJSON: the figures of Table II in JSON, both variants. On
// Qui-Donc (STG_LONG=1; instantiate's TestQuidoncFigures checks them by
// default), as TestTourStats reads the table: 8 symbolic, 7 instantiated
// with filtering (cut at their first infeasible step and completed); 9
// and 7 without. On the account example (STG_LONG=1): 2 and 2; 4 and 1
// without. On the tank (by default): 1 and 1 either way.
func TestTourStatsJSON(t *testing.T) {
	for _, name := range tourStatsExamples() {
		m := tourStats(t, name)
		wo, _ := m["without_filtering"].(map[string]any)
		want := map[string][7]float64{ // states, transitions, symbolic, instantiated, without: symbolic, instantiated; coverage total
			"quidonc": {15, 36, 8, 7, 9, 7, 12},
			"account": {14, 30, 2, 2, 4, 1, 9},
			"tank":    {12, 14, 1, 1, 1, 1, 4},
		}[name]
		if m["states"] != want[0] || m["transitions"] != want[1] || m["symbolic_tests"] != want[2] || m["instantiated"] != want[3] ||
			wo["symbolic_tests"] != want[4] || wo["instantiated"] != want[5] {
			t.Errorf("tour --stats --format json on %s: %v, want %v", name, m, want)
		}
		total := m["coverage"].(map[string]any)["total"].(float64)
		covered := m["coverage"].(map[string]any)["covered"].(float64)
		if total != want[6] || covered < 1 {
			t.Errorf("coverage %v/%v of %s's %v transitions", covered, total, name, want[6])
		}
		checkCoverage(t, "tour", m["coverage"], covered, total)
	}
}

// TestTourVars: --vars chooses the abstraction variables, as for stg
// abstract: the rule's own variables give the rule's tour; a set without
// a variable of the purpose's state predicates is refused as stg
// abstract refuses it; an unknown variable is named. On the tank by
// default (level and asked are the rule's; asked alone lacks level), and
// on Qui-Donc with STG_LONG=1 (TryCounter and State; State alone lacks
// TryCounter, which the purpose's Call and HangUp need).
func TestTourVars(t *testing.T) {
	type tourVars struct {
		name, rule, without, missing string // the rule's variables; a set without missing
		args                         []string
	}
	cases := []tourVars{{"tank", "level, asked", "asked", "level", tourTank}}
	if testlong.Enabled() {
		cases = append(cases, tourVars{"quidonc", "TryCounter, State", "State", "TryCounter", tourQuidonc})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkTourVars(t, c.args, c.rule, c.without, c.missing) })
	}
}

// checkTourVars runs stg tour with --vars rule (the same SP, tour and
// instances as without --vars), without (refused: missing is not an
// abstraction variable) and Nope (not a variable), on the spec and
// purpose of args.
func checkTourVars(t *testing.T, args []string, rule, without, missing string) {
	code, def, errOut := stg(t, append([]string{"tour", "-o", t.TempDir()}, args...)...)
	if code != exitPass {
		t.Fatalf("without --vars: exit %d %s", code, errOut)
	}
	code, out, errOut := stg(t, append([]string{"tour", "-o", t.TempDir(), "--vars", rule}, args...)...)
	if code != exitPass {
		t.Fatalf("--vars %s (the rule's): exit %d %s", rule, code, errOut)
	}
	for _, prefix := range []string{"SP: ", "covering tour: ", "instantiated: "} {
		if got, want := lineWith(out, prefix), lineWith(def, prefix); got != want || want == "" {
			t.Errorf("--vars %s (the rule's): %q, want %q", rule, got, want)
		}
	}
	for _, tt := range []struct{ vars, want string }{
		{without, "not compatible with the abstraction (Prop. 1): " + missing},
		{"Nope", "Nope is not a variable"},
	} {
		for _, stats := range [][]string{nil, {"--stats"}} {
			a := append(append([]string{"tour", "--vars", tt.vars}, stats...), args...)
			code, _, errOut := stg(t, a...)
			if code != exitError || !strings.Contains(errOut, tt.want) {
				t.Errorf("stg %s: exit %d, %q; want %q", strings.Join(a, " "), code, errOut, tt.want)
			}
		}
	}
}

func TestComposeStats(t *testing.T) {
	m := statsJSON(t, "compose", slotSystem, "--stats", "--format", "json")
	if m["components"] != 2.0 || m["locations"] != 8.0 || m["transitions"] != 11.0 || m["internal_transitions"] != 8.0 {
		t.Errorf("compose --stats --format json: %v", m)
	}
	code, out, errOut := stg(t, "compose", slotSystem, "--stats")
	if code != exitPass || !strings.Contains(out, "locations: 8\ntransitions: 11 (8 internal)\n") {
		t.Errorf("compose --stats: exit %d\n%s%s", code, out, errOut)
	}
}

func TestProjectStats(t *testing.T) {
	m := statsJSON(t, "project", slotSystem, "--on", "SM", "--all-leaves", "--stats", "--format", "json")
	// slot.project.txt: three behaviours, the twins N2' and N4' of the
	// win one and two more.
	if m["behaviours"] != 3.0 || m["nodes"] != m["states"] || m["purposes"] != 3.0 || m["twins"] != 4.0 {
		t.Errorf("project --stats --format json: %v", m)
	}
	checkCoverage(t, "project", m["coverage"], 11, 11)
	code, out, _ := stg(t, "project", slotSystem, "--on", "SM", "--all-leaves", "--stats")
	if code != exitPass || !strings.Contains(out, "behaviours: 3\n") || !strings.Contains(out, "coverage: 11/11 (100 %)\n") {
		t.Errorf("project --stats: exit %d\n%s", code, out)
	}
	one := statsJSON(t, "project", slotSystem, "--on", "SM", "--path", "14", "--stats", "--format", "json")
	if one["behaviours"] != 1.0 || one["nodes"] != m["nodes"] {
		t.Errorf("--path 14: %v", one)
	}
}

// lineWith returns the first line of out that begins with prefix.
func lineWith(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
