package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var slotSystem = filepath.Join("..", "..", "examples", "slot", "system.yaml")

// TestComposeSlot: the flat spec of the slot machine (golden), which
// loads back as a spec with the summary stg check gives the system.
func TestComposeSlot(t *testing.T) {
	code, out, errs := stg(t, "compose", slotSystem)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "slot.flat.yaml", out)
	flat := filepath.Join(t.TempDir(), "flat.yaml")
	if code, _, errs := stg(t, "compose", slotSystem, "-o", flat); code != 0 {
		t.Fatalf("-o: exit %d: %s", code, errs)
	}
	if data, err := os.ReadFile(flat); err != nil || string(data) != out {
		t.Fatalf("-o wrote %q (%v)", data, err)
	}
	c1, sumFlat, e1 := stg(t, "check", flat)
	c2, sumSys, e2 := stg(t, "check", slotSystem)
	if c1 != 0 || c2 != 0 || sumFlat != sumSys {
		t.Errorf("check flat: %d %s%s\ncheck system: %d %s%s", c1, sumFlat, e1, c2, sumSys, e2)
	}
	if !strings.Contains(sumSys, "8 locations") || !strings.Contains(sumSys, "int_bet(v: int) internal") {
		t.Errorf("summary: %s", sumSys)
	}
	code, out, _ = stg(t, "compose", slotSystem, "--format", "dot")
	if code != 0 || !strings.HasPrefix(out, "digraph") || !strings.Contains(out, "SM.s_pay+{Int.i_cash}") {
		t.Errorf("dot: exit %d\n%s", code, out)
	}
}

// TestSystemAsSpec: the commands that read a spec read a system.
func TestSystemAsSpec(t *testing.T) {
	code, out, errs := stg(t, "symex", slotSystem, "--inclusion", "--stats")
	if code != 0 || !strings.Contains(out, "nodes: 16") {
		t.Errorf("symex: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = stg(t, "purposes", slotSystem, "--length", "3", "--format", "text")
	if code != 0 || !strings.Contains(out, "Int.i_refuse: refused!") {
		t.Errorf("purposes: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = stg(t, "dot", slotSystem)
	if code != 0 || !strings.Contains(out, "I7,S1") {
		t.Errorf("dot: exit %d\n%s%s", code, out, errs)
	}
}

const (
	composeA = "kind: spec\nname: a\nvariables: {x: int}\nactions:\n  d: {dir: input, params: {p: int}}\n  e: {dir: output, params: {p: int}}\ninitial: {location: a0, condition: x == 0}\ntransitions:\n  - {name: in, from: a0, action: d, assign: {x: p}, to: a1}\n  - {name: fwd, from: a1, action: e, guard: p == x + 1, to: a0}\n"
	composeB = "kind: spec\nname: b\nvariables: {y: int}\nactions:\n  e: {dir: input, params: {q: int}}\n  f: {dir: output, params: {q: int}}\ninitial: {location: b0, condition: y == 0}\ntransitions:\n  - {name: get, from: b0, action: e, assign: {y: q}, to: b1}\n  - {name: put, from: b1, action: f, guard: q == 2 * y, to: b0}\n"
)

func systemDir(t *testing.T, structure string) string {
	dir := t.TempDir()
	for n, s := range map[string]string{"a.yaml": composeA, "b.yaml": composeB,
		"s.yaml": "kind: system\nname: s\ncomponents: {A: a.yaml, B: b.yaml}\nstructure: " + structure + "\n"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "s.yaml")
}

// TestGenerateSystem: generate on a system with a hidden channel (its
// synchronisation is an internal transition, closed by canonical).
func TestGenerateSystem(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.yaml": "kind: spec\nname: a\nvariables: {x: int}\nactions:\n  d: {dir: input, params: {p: int}}\n  e: {dir: output}\ninitial: {location: a0, condition: x == 0}\ntransitions:\n  - {name: in, from: a0, action: d, assign: {x: p}, to: a1}\n  - {name: fwd, from: a1, action: e, to: a2}\n",
		"b.yaml": "kind: spec\nname: b\nvariables: {y: int}\nactions:\n  e: {dir: input}\n  f: {dir: output, params: {q: int}}\ninitial: {location: b0, condition: y == 0}\ntransitions:\n  - {name: get, from: b0, action: e, assign: {y: y + 1}, to: b1}\n  - {name: put, from: b1, action: f, guard: q == y, to: b2}\n",
		"s.yaml": "kind: system\nname: s\ncomponents: {A: a.yaml, B: b.yaml}\nstructure: \"Hide([e], A * B)\"\n",
		"p.yaml": "kind: purpose\nname: p\nvariables: {}\ninitial: {location: P0}\naccept: [Acc]\ntransitions:\n  - {from: P0, action: f, guard: q == 1, to: Acc}\n",
	}
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := stg(t, "generate", filepath.Join(dir, "s.yaml"), filepath.Join(dir, "p.yaml"))
	if code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	for _, want := range []string{"kind: testcase", "variables: {A.x: int, B.y: int}", "to: Pass"} {
		if !strings.Contains(out, want) {
			t.Errorf("test case without %s:\n%s", want, out)
		}
	}
}

func TestComposeErrors(t *testing.T) {
	tests := []struct {
		structure, want string
	}{
		{`"A * C"`, "s.yaml:4:17: unknown component C"},
		{`"Hide([zz], A * B)"`, "s.yaml:4:13: unknown hidden channel zz"},
		// e is emitted by A and, without A, received by B from the environment.
		{`"B * A"`, "b.yaml:9:5: channel e is used in more than one direction in B * A"},
	}
	for _, tt := range tests {
		code, _, errs := stg(t, "compose", systemDir(t, tt.structure))
		if code != 3 || !strings.Contains(errs, tt.want) {
			t.Errorf("%s: exit %d, %s; want %s", tt.structure, code, errs, tt.want)
		}
	}
	if code, _, errs := stg(t, "compose"); code != 3 || !strings.Contains(errs, "needs one SYSTEM") {
		t.Errorf("no argument: exit %d, %s", code, errs)
	}
	if code, _, errs := stg(t, "compose", slotSystem, "--format", "svg"); code != 3 || !strings.Contains(errs, "unknown --format") {
		t.Errorf("--format svg: exit %d, %s", code, errs)
	}
	if code, _, errs := stg(t, "compose", "nofile.yaml"); code != 3 || !strings.Contains(errs, "nofile.yaml: cannot read") {
		t.Errorf("no file: exit %d, %s", code, errs)
	}
}
