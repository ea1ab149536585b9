package e2e

// The slot machine of the component-systems paper (issue 11, SEEDS.md
// §3(d)): the purposes that the system's behaviours define for its
// machine SM (projection with external constraints, Def 18), played on
// line against SM's SUT alone, and the system's own purposes against
// the whole slot machine.

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	slot "github.com/stg-tool/stg/examples/slot/sut/impl"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/online"
	"github.com/stg-tool/stg/project"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

const slotSystem = "../examples/slot/system.yaml"

// slotPurposes writes the Def 18 purposes of the slot's behaviours on
// SM into a directory, as stg purposes SYSTEM --on SM -o DIR does, and
// reads each back as stg run would: a runner per purpose, by the name
// of the purpose's last step but one (s_win, s_lose) or "s_init".
func slotPurposes(t *testing.T, z *solver.Context) map[string]*online.Runner {
	t.Helper()
	s, err := project.Load(z, slotSystem, "SM", symex.Options{Inclusion: true})
	if err != nil {
		t.Fatal(err)
	}
	var leaves []*symex.Node
	for _, b := range s.Behaviours() {
		leaves = append(leaves, b.Node)
	}
	dir := t.TempDir()
	files, skipped, err := s.PurposeFiles(z, leaves, dir)
	if err != nil || len(skipped) > 0 {
		t.Fatalf("purposes: %v %v", err, skipped)
	}
	if err := project.Write(files); err != nil {
		t.Fatal(err)
	}
	runners := map[string]*online.Runner{}
	for _, f := range files {
		sp, err := specfile.LoadSymPurpose(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := specfile.LoadFile(sp.SpecPath(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(sp.SpecPath()) != "sm.yaml" {
			t.Fatalf("%s names %s, want SM's own spec", f.Path, sp.SpecPath())
		}
		x, err := symex.NewExecutor(z, m, symex.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tp, err := online.NewPurpose(x, sp)
		if err != nil {
			t.Fatal(err)
		}
		names := sp.Accept[0].Names
		key := names[len(names)-1]
		if len(names) > 2 {
			key = names[2]
		}
		runners[key] = online.NewRunner(online.NewTester(z, tp), online.Options{})
	}
	if len(runners) != 3 || runners["s_win"] == nil || runners["s_lose"] == nil {
		t.Fatalf("purposes %v, want s_init, s_win and s_lose", len(runners))
	}
	return runners
}

// sent returns the values the tester sent on action in a run.
func sent(res *online.Result, action string) []*big.Int {
	var vs []*big.Int
	for _, st := range online.Steps(res) {
		if ev := st.Event; ev.Stim && ev.Action == action {
			vs = append(vs, ev.Args["v"].Int)
		}
	}
	return vs
}

// TestSlotProjectedPurposeOnline: on-line testing of SM alone with the
// purposes projected from the system (acceptance of issue 11): the
// correct SM passes the win purpose when it wins and is never failed in
// 50 seeded runs (1,000 with STG_LONG=1), whose stimuli are all the system's (a bet in
// (0, 100], a gain of 10 times the bet); the 9x mutant fails whenever it
// wins; the never-wins mutant (conformant: w is open) is never failed
// and never passes; the bet-101 mutant's machine is SM's correct one.
func TestSlotProjectedPurposeOnline(t *testing.T) {
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	runners := slotPurposes(t, z)
	win := runners["s_win"]
	ctx := context.Background()
	start := time.Now()
	counts := map[online.Verdict]int{}
	n := testlong.Runs(50, 1000)
	progress := testlong.NewProgress(t, "runs", n)
	for seed := int64(1); seed <= int64(n); seed++ {
		progress.Add(1)
		w := seed%2 == 0
		res, err := win.Run(ctx, slot.New(slot.Correct, w), seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		counts[res.Verdict]++
		switch {
		case res.Verdict == online.Fail:
			t.Fatalf("seed %d: the correct SM fails: %s", seed, res.Reason)
		case w && res.Verdict != online.Pass && res.Verdict != online.WeakPass:
			t.Errorf("seed %d: a winning SM gives %s (%s), want Pass", seed, res.Verdict, res.Reason)
		case !w && res.Verdict != online.Inconc:
			t.Errorf("seed %d: a losing SM gives %s, want Inconc", seed, res.Verdict)
		}
		bets, gains := sent(res, "int_bet"), sent(res, "int_amount")
		for i, b := range bets {
			if b.Sign() <= 0 || b.Cmp(big.NewInt(100)) > 0 {
				t.Fatalf("seed %d: the tester sent a bet of %s, which the interface never forwards", seed, b)
			}
			if i < len(gains) && gains[i].Cmp(new(big.Int).Mul(big.NewInt(10), b)) != 0 {
				t.Fatalf("seed %d: the tester sent a gain of %s for a bet of %s", seed, gains[i], b)
			}
		}
	}
	t.Logf("%d runs of the win purpose against the correct SM in %v: %d Pass, %d WeakPass, %d Inconc",
		n, time.Since(start).Round(time.Millisecond), counts[online.Pass], counts[online.WeakPass], counts[online.Inconc])

	for _, c := range []struct {
		purpose string
		f       slot.Fault
		w       bool
		want    online.Verdict
	}{
		{"s_win", slot.Pays9x, true, online.Fail},
		{"s_lose", slot.Pays9x, false, online.Fail},
		{"s_lose", slot.Correct, false, online.Pass},
		{"s_win", slot.NeverWins, true, online.Inconc},
		{"s_lose", slot.NeverWins, true, online.Pass},
		{"s_win", slot.Bet101, true, online.Pass},
		{"s_init", slot.Correct, true, online.Pass},
	} {
		for seed := int64(1); seed <= int64(testlong.Runs(5, 20)); seed++ {
			res, err := runners[c.purpose].Run(ctx, slot.New(c.f, c.w), seed)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != c.want {
				t.Errorf("%s purpose, %s SM (w %v), seed %d: %s (%s), want %s", c.purpose, c.f, c.w, seed, res.Verdict, res.Reason, c.want)
				break
			}
		}
	}
}

// TestSlotSystemOnline: the system's own behaviours (symbolic execution
// of system.yaml, accept at the end of each), played against the whole
// slot machine: the correct one is never failed; the faulty interface
// that forwards bets over 100 is failed by the forbidden-bet purpose,
// the 9x machine by the win purpose.
func TestSlotSystemOnline(t *testing.T) {
	z, err := solver.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	s, err := project.Load(z, slotSystem, "SM", symex.Options{Inclusion: true})
	if err != nil {
		t.Fatal(err)
	}
	x, err := symex.NewExecutor(z, s.Flat, symex.Options{})
	if err != nil {
		t.Fatal(err)
	}
	runners := map[string]*online.Runner{}
	for _, b := range s.Behaviours() {
		key := b.Node.Action.Name
		if key == "cash" && strings.Contains(b.Node.PathString(), "s_win") {
			key = "win"
		}
		tp, err := online.NewPurpose(x, &spec.SymPurpose{Name: key, Accept: []spec.AcceptPath{{Names: b.Node.Path()}}})
		if err != nil {
			t.Fatal(err)
		}
		runners[key] = online.NewRunner(online.NewTester(z, tp), online.Options{})
	}
	if runners["refused"] == nil || runners["win"] == nil {
		t.Fatalf("behaviours: %v", runners)
	}
	verdicts := func(purpose string, f slot.Fault, runs int) map[online.Verdict]int {
		vs := map[online.Verdict]int{}
		for seed := int64(1); seed <= int64(runs); seed++ {
			res, err := runners[purpose].Run(context.Background(), adapter.InProcess(slot.NewSystem(f, true)), seed)
			if err != nil {
				t.Fatal(err)
			}
			vs[res.Verdict]++
		}
		return vs
	}
	for purpose := range runners {
		if vs := verdicts(purpose, slot.Correct, 50); vs[online.Fail] > 0 {
			t.Errorf("%s purpose: the correct slot machine fails: %v", purpose, vs)
		}
	}
	if vs := verdicts("refused", slot.Bet101, 50); vs[online.Fail] == 0 {
		t.Errorf("the interface forwarding bets over 100 is not failed: %v", verdictString(vs))
	}
	if vs := verdicts("win", slot.Pays9x, 20); vs[online.Fail] != 20 {
		t.Errorf("the 9x machine: %v, want Fail in every run", verdictString(vs))
	}
}

func verdictString(vs map[online.Verdict]int) string {
	return fmt.Sprintf("%d Pass, %d WeakPass, %d Fail, %d Inconc", vs[online.Pass], vs[online.WeakPass], vs[online.Fail], vs[online.Inconc])
}

// TestSlotCommands: the route a user takes, as processes: stg purposes
// SYSTEM --on SM -o DIR, then stg run on the win purpose against the SM
// programs, w fixed by STG_SLOT_WIN: the correct machine passes, the 9x
// one fails, the one that never wins is Inconc (exit codes 0, 1, 2). It
// builds stg, and doctest's guide-systems plays the same route (its
// correct and 9x machines): a long test.
func TestSlotCommands(t *testing.T) {
	testlong.Skip(t)
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./cmd/stg", "./examples/slot/sut/...")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	stg := filepath.Join(bin, "stg")
	if out, err := exec.Command(stg, "purposes", slotSystem, "--on", "SM", "-o", dir).CombinedOutput(); err != nil {
		t.Fatalf("stg purposes: %v\n%s", err, out)
	}
	win := filepath.Join(dir, "slot-SM-s_init-s_bet-s_win-s_amount-s_pay-s_end.yaml")
	for _, c := range []struct {
		program string
		code    int
	}{
		{"correct", 0},
		{"mutant-pays-9x", 1},
		{"mutant-never-wins", 2},
	} {
		cmd := exec.Command(stg, "run", win, "--runs", "3", "--seed", "7", "--", filepath.Join(bin, c.program))
		cmd.Env = append(os.Environ(), slot.WinVariable+"=true")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code {
			t.Errorf("stg run %s: exit %d, want %d\n%s", c.program, code, c.code, out)
		}
	}
}
