package tool

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/play"
	"github.com/stg-tool/stg/spec"
)

// TestLoadModel: every kind of file given where a model is expected is
// read by its kind: a system flattened into its spec, a purpose with its
// spec; the others say what they are.
func TestLoadModel(t *testing.T) {
	sp, err := LoadModel(cmpSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		sp   *spec.Model
		kind spec.ModelKind
		err  string
	}{
		{cmpSpec, nil, spec.SpecKind, ""},
		{slotSystem, nil, spec.SpecKind, ""},
		{cmpPurpose, sp, spec.PurposeKind, ""},
		{cmpPurpose, nil, 0, "a purpose is read together with its spec"},
		{filepath.Join("..", "online", "testdata", "eta11.yaml"), nil, 0, "a sympurpose is not an ioSTS"},
		{filepath.Join("..", "examples", "microgrid", "tables-1.yaml"), nil, 0, `unknown kind "tables"`},
		{"nosuch.yaml", nil, 0, "nosuch.yaml: cannot read: no such file or directory"},
	} {
		m, err := LoadModel(tt.path, tt.sp)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want %q", tt.path, err, tt.err)
		case tt.err == "" && (err != nil || m.Kind != tt.kind):
			t.Errorf("%s: %v, %v; want a %s", tt.path, m, err, tt.kind)
		}
	}
}

// TestCommandsTakeASystem: the commands that take a spec take a system,
// composed as stg compose writes it.
func TestCommandsTakeASystem(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := Check(CheckOptions{Files: []string{slotSystem}, SolverTimeout: DefaultSolverTimeout}, &out, &errOut); err != nil {
		t.Fatalf("check: %v\n%s", err, errOut.String())
	}
	if !strings.HasPrefix(out.String(), "spec slot: ") {
		t.Errorf("check: %q", out.String())
	}
	out.Reset()
	if err := Dot(DotOptions{Files: []string{slotSystem}}, &out); err != nil || !strings.Contains(out.String(), "digraph") {
		t.Errorf("dot: %v\n%s", err, out.String())
	}
}

// TestUsageErrors: the checks of the options come before any file is
// read, with the command's help named.
func TestUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"merge", Merge(MergeOptions{}, &bytes.Buffer{}), "stg report merge needs the REPORT files of the shards (see stg report merge --help)"},
		{"check", Check(CheckOptions{}, &bytes.Buffer{}, &bytes.Buffer{}), "(see stg check --help)"},
		{"dot", Dot(DotOptions{Files: []string{"a"}, Format: "gif"}, &bytes.Buffer{}), `unknown format "gif"`},
		{"generate", Generate(GenerateOptions{Spec: "s", Purposes: []string{"p"}, Domain: "octagons"}, &bytes.Buffer{}, &bytes.Buffer{}), `unknown --domain "octagons"`},
		{"generate timeout", Generate(GenerateOptions{Spec: "s", Purposes: []string{"p"}}, &bytes.Buffer{}, &bytes.Buffer{}), "--solver-timeout must be positive"},
		{"verdict", Verdict(VerdictOptions{Files: []string{"a"}}, &bytes.Buffer{}, &bytes.Buffer{}), "stg verdict needs SPEC SYMPURPOSE TRACE"},
		{"run sut", Run(t.Context(), RunOptions{File: "tc.yaml"}, &bytes.Buffer{}, &bytes.Buffer{}), "stg run needs the SUT"},
		{"run runs", Run(t.Context(), RunOptions{File: "tc.yaml", TCP: "h:1", Given: map[string]bool{"runs": true}}, &bytes.Buffer{}, &bytes.Buffer{}), "--runs must be at least 1"},
		{"run shard", Run(t.Context(), RunOptions{File: "tc.yaml", TCP: "h:1", Shard: "1/2"}, &bytes.Buffer{}, &bytes.Buffer{}), "--shard needs --seed"},
		{"run quiescence", Run(t.Context(), RunOptions{File: "tc.yaml", TCP: "h:1", Quiescence: "200"}, &bytes.Buffer{}, &bytes.Buffer{}), "did you mean 200ms"},
		{"run after-weakpass", Run(t.Context(), RunOptions{File: "tc.yaml", TCP: "h:1", AfterWeakPass: "wait"}, &bytes.Buffer{}, &bytes.Buffer{}), "--after-weakpass"},
	} {
		if Code(tt.err) != play.ExitError || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("%s: exit %d, %v; want 3 and %q", tt.name, Code(tt.err), tt.err, tt.want)
		}
	}
}

// TestRunDefaults: EnsureDefaults fills what is zero and not given.
func TestRunDefaults(t *testing.T) {
	o := RunOptions{Given: map[string]bool{"depth": true}}
	o.EnsureDefaults()
	if o.Runs != 1 || o.Parallel != 1 || o.Plan != "diverse" || o.Depth != 0 || o.Quiescence != "auto" || o.MaxSteps == 0 || o.ShrinkRuns == 0 || o.AfterWeakPass != "stop" {
		t.Errorf("%+v", o)
	}
}

// TestReportWritable: a report that cannot be written is refused before
// any run, and no file is left behind.
func TestReportWritable(t *testing.T) {
	dir := t.TempDir()
	if err := reportWritable(filepath.Join(dir, "r.xml")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.xml")); err == nil {
		t.Error("a file was left behind")
	}
	if err := reportWritable(filepath.Join(dir, "no", "r.xml")); err == nil || !strings.Contains(err.Error(), "cannot write the report") {
		t.Errorf("%v", err)
	}
}

// TestLoadModelSystem: a system file reads as its flat spec, a spec as
// itself, and a file that cannot be read says so (what the analysis
// commands read their spec with).
func TestLoadModelSystem(t *testing.T) {
	slot := filepath.Join("..", "examples", "slot")
	for _, tt := range []struct {
		file, name string
		system     bool
		err        string
	}{
		{filepath.Join(slot, "system.yaml"), "slot", true, ""},
		{filepath.Join(slot, "sm.yaml"), "", false, ""},
		{filepath.Join(slot, "none.yaml"), "", false, "none.yaml: cannot read: "},
	} {
		m, err := LoadModel(tt.file, nil)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want %q", tt.file, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if m.Kind != spec.SpecKind || tt.system && (m.Name != tt.name || !strings.Contains(m.Locations[0], ",")) {
			t.Errorf("%s: %s %q, locations %v", tt.file, m.Kind, m.Name, m.Locations)
		}
	}
}

// TestCombineExits: several files' exit codes combine as a CI gate
// reads them: error, Fail, Inconc, WeakPass, Pass.
func TestCombineExits(t *testing.T) {
	for _, c := range []struct {
		exits []int
		want  int
	}{
		{nil, play.ExitPass},
		{[]int{play.ExitPass, play.ExitPass}, play.ExitPass},
		{[]int{play.ExitPass, play.ExitWeakPass}, play.ExitWeakPass},
		{[]int{play.ExitWeakPass, play.ExitInconc}, play.ExitInconc},
		{[]int{play.ExitInconc, play.ExitFail, play.ExitPass}, play.ExitFail},
		{[]int{play.ExitFail, play.ExitError}, play.ExitError},
	} {
		if got := combineExits(c.exits); got != c.want {
			t.Errorf("combineExits(%v) = %d, want %d", c.exits, got, c.want)
		}
	}
}
