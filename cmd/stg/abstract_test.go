package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	quidoncSpec    = filepath.Join("..", "..", "examples", "quidonc", "spec.yaml")
	quidoncPurpose = filepath.Join("..", "..", "examples", "quidonc", "purpose-fig4.yaml")
	// The golden files read predabs' own reconstruction, which the
	// example's evolution does not change.
	seedsSpec    = filepath.Join("..", "..", "predabs", "testdata", "quidonc.yaml")
	seedsPurpose = filepath.Join("..", "..", "predabs", "testdata", "fig4.yaml")
)

// durations in --stats output vary from run to run.
var durationRE = regexp.MustCompile(`(?m)(time:\s+)\S+$`)

// TestAbstractGolden: stg abstract on Qui-Donc (SEEDS §4(b), with our
// Delay and Enter) and the Fig. 4 purpose, in every format and variant (go test -update rewrites the files).
func TestAbstractGolden(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"quidonc.txt", nil},
		{"quidonc-nofilter-reachable.txt", []string{"--no-filter", "--reachable"}},
		{"quidonc-vars.txt", []string{"--vars", "HandSet,TryCounter,State"}},
		{"quidonc.yaml", []string{"--format", "yaml"}},
		{"quidonc.dot", []string{"--format", "dot"}},
		{"quidonc-stats.txt", []string{"--stats"}},
	} {
		args := append(append([]string{"abstract"}, c.args...), seedsSpec, seedsPurpose)
		code, out, errOut := stgCmd(t, args...)
		if code != exitPass {
			t.Fatalf("%v: exit %d: %s", c.args, code, errOut)
		}
		out = durationRE.ReplaceAllString(out, "${1}TIME")
		file := filepath.Join("testdata", "abstract", c.golden)
		if *update {
			if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("stg %s differs from %s:\n%s", strings.Join(args, " "), file, out)
		}
	}
}

// TestAbstractQuiDonc reads the hard checks of SEEDS §4(d) off the text
// output.
func TestAbstractQuiDonc(t *testing.T) {
	code, out, errOut := stgCmd(t, "abstract", quidoncSpec, quidoncPurpose)
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"O^P     = {Call, HangUp}\n",
		"X^A_sp  = {TryCounter}\n",
		"X^A     = {TryCounter, State}\n",
		"SD^TryCounter = {TryCounter == 0, TryCounter ∈ 1..2}\n",
		"SD^State = {State == welcome, State ∈ {enter_num, find_urgency, find_num, busy}, State == put_down}\n",
		"abstract states: 6 candidates, 5 consistent with I, 5 reachable\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestAbstractErrors(t *testing.T) {
	dir := t.TempDir()
	guarded := filepath.Join(dir, "guarded.yaml")
	src := "kind: purpose\nname: g\nvariables: {}\ninitial: {location: q0}\naccept: [qf]\ntransitions:\n  - {from: q0, action: Call, guard: \"TryCounter == 0\", to: qf}\n"
	if err := os.WriteFile(guarded, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"abstract", quidoncSpec}, "needs SPEC and PURPOSE"},
		{[]string{"abstract", "--format", "svg", quidoncSpec, quidoncPurpose}, "unknown --format"},
		{[]string{"abstract", "--vars", "Nope", quidoncSpec, quidoncPurpose}, "--vars: Nope is not a variable"},
		{[]string{"abstract", "--vars", "State", quidoncSpec, quidoncPurpose}, "not compatible with the abstraction (Prop. 1): TryCounter"},
		{[]string{"abstract", quidoncPurpose, quidoncSpec}, "a purpose is read together with its spec"},
		{[]string{"abstract", quidoncSpec, guarded}, "guarded.yaml:7:5: the abstraction reads a purpose as an LTS"},
		{[]string{"generate", quidoncSpec, quidoncPurpose}, "purpose-fig4.yaml:14:3: stg generate does not read where: state predicates (location q2)"},
	} {
		code, out, errOut := stgCmd(t, c.args...)
		if code != exitError || !strings.Contains(errOut, c.want) {
			t.Errorf("stg %s: exit %d, stderr %q, want %q\n%s", strings.Join(c.args, " "), code, errOut, c.want, out)
		}
	}
}
