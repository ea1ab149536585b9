package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectSlot: stg project prints the slot's three behaviours
// projected on SM (golden text), the win one with six steps, external
// constraints and the twins N2' and N4'; --path ID projects one; yaml
// and dot render the same.
func TestProjectSlot(t *testing.T) {
	code, out, errs := stg(t, "project", slotSystem, "--on", "SM", "--all-leaves")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "slot.project.txt", out)
	if !strings.Contains(out, "cash!v@9 (system node 14), projected on SM: 6 step(s)") ||
		!strings.Contains(out, "twin N2'") || !strings.Contains(out, "twin N4'") || strings.Contains(out, "twin N3'") {
		t.Errorf("win projection:\n%s", out)
	}
	code, one, errs := stg(t, "project", slotSystem, "--on", "SM", "--path", "14")
	if code != 0 || strings.Count(one, "behaviour ") != 1 || !strings.Contains(out, one) {
		t.Errorf("--path 14: exit %d\n%s%s", code, one, errs)
	}
	code, y, errs := stg(t, "project", slotSystem, "--on", "SM", "--path", "14", "--format", "yaml")
	if code != 0 || !strings.Contains(y, "twin_satisfiable: true") || !strings.Contains(y, "label: accept") {
		t.Errorf("yaml: exit %d\n%s%s", code, y, errs)
	}
	code, d, errs := stg(t, "project", slotSystem, "--on", "SM", "--all-leaves", "--format", "dot")
	if code != 0 || !strings.HasPrefix(d, "digraph") || strings.Count(d, `_twin [style=dashed, label="N`) != 4 {
		t.Errorf("dot: exit %d\n%s%s", code, d, errs)
	}
}

// TestProjectErrors: usage and input errors exit 3 with a message.
func TestProjectErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"project", slotSystem, "--all-leaves"}, "--on COMPONENT"},
		{[]string{"project", slotSystem, "--on", "SM"}, "one of --path ID and --all-leaves"},
		{[]string{"project", slotSystem, "--on", "SM", "--path", "3", "--all-leaves"}, "one of --path ID and --all-leaves"},
		{[]string{"project", slotSystem, "--on", "XX", "--all-leaves"}, `no sub-system "XX"`},
		{[]string{"project", slotSystem, "--on", "SM", "--path", "999"}, "no node 999"},
		{[]string{"project", slotSystem, "--on", "SM", "--all-leaves", "--format", "png"}, "--format"},
		{[]string{"project", "nope.yaml", "--on", "SM", "--all-leaves"}, "nope.yaml"},
		{[]string{"purposes", slotSystem, "--on", "SM", "--length", "2"}, "takes no criterion"},
	} {
		code, _, errs := stg(t, c.args...)
		if code != 3 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want 3 and %q", c.args, code, errs, c.want)
		}
	}
}

// TestPurposesOn: stg purposes SYSTEM --on SM -o DIR writes the three
// purposes of SM, whose spec is sm.yaml relative to DIR; the win one
// carries the interface's constraint, and stg run plays it.
func TestPurposesOn(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := stg(t, "purposes", slotSystem, "--on", "SM", "-o", dir)
	if code != 0 || !strings.Contains(errs, "wrote 3 files") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	win := filepath.Join(dir, "slot-SM-s_init-s_bet-s_win-s_amount-s_pay-s_end.yaml")
	data, err := os.ReadFile(win)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "constraint: s_bet.v <= 100 && s_bet.v > 0 && s_amount.v == 10 * s_bet.v") {
		t.Errorf("win purpose:\n%s", data)
	}
	code, out, errs := stg(t, "purposes", slotSystem, "--on", "SM", "--path", "14")
	if code != 0 || strings.Count(out, "kind: sympurpose") != 1 || !strings.Contains(out, "s_win") {
		t.Errorf("--path 14: exit %d\n%s%s", code, out, errs)
	}
	// The whole system is a sub-system of itself: its purposes name its
	// flat spec, written next to them.
	whole := "Hide([int_start, int_bet, int_win, int_amount, int_cash], Int * SM)"
	code, _, errs = stg(t, "purposes", slotSystem, "--on", whole, "-o", dir)
	if code != 0 || !strings.Contains(errs, "wrote 4 files") {
		t.Fatalf("--on the system: exit %d: %s", code, errs)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "slot-Hide*"))
	if len(files) != 4 {
		t.Errorf("--on the system wrote %v", files)
	}
}

// TestSymexTauReduce: stg symex SYSTEM --inclusion --tau-reduce prints
// the slot's three behaviours, each internal chain hidden in the visible
// step it leads to (Def 13).
func TestSymexTauReduce(t *testing.T) {
	code, out, errs := stg(t, "symex", slotSystem, "--inclusion", "--tau-reduce")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"τ^1 bet?v@1 -> I2,S1", "  refused! -> I1,S1", "v@9 == v@7", "τ^1 delta!"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Count(out, "τ^5 cash!") != 2 {
		t.Errorf("want two cash! behaviours behind five internal steps:\n%s", out)
	}
}
