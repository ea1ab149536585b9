package e2e

// On-line testing with symbolic test purposes (package online) against
// every example, in process (issue 9): the purposes are generated from a
// coverage criterion by symbolic execution (symex) and split into one
// purpose per accept node; 1,000 seeded runs per example against the
// correct SUT never give Fail (Theorem 1 of the AGATHA paper), and every
// mutant gets Fail under some generated purpose.

import (
	"context"
	"fmt"
	"math/big"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples"
	atmpaper "github.com/stg-tool/stg/examples/atm-paper/sut/impl"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/online"
	"github.com/stg-tool/stg/solver"
	"github.com/stg-tool/stg/spec"
	"github.com/stg-tool/stg/spec/specfile"
	"github.com/stg-tool/stg/symex"
)

// onlineCriteria says how the purposes of each example are generated:
// k-inclusion where the tree restricted by inclusion is finite and its
// longest path short, else the length criterion (TG_n, with the Extout
// of paths ending in an input). Each is the smallest k or n whose
// purposes can kill every mutant, given the shortest trace that shows
// the mutant's fault:
//
//	cmp        k-inclusion 1 = length 6 (no-end needs [in in ok end])
//	atm        length 6: the Extout [deposit ask cash ask cash ask refuse]
//	           (third-withdrawal; the tree by inclusion is infinite)
//	retry      length 9: the Extout ending with the frame after a
//	           message given up on (seq-kept-after-failure; infinite
//	           by inclusion)
//	vending    length 4: the Extout [choose coin coin cancel change]
//	           (refund-last-coin needs two coins)
//	buffer     length 7: the Extout ending with full after three puts
//	           (capacity-off-by-one; k-inclusion 1 would be length 18)
//	atm-paper  k-inclusion 3 = length 6: [deposit ask cash ask cash ask
//	           noMoney] (third-withdrawal-paid: cp0 is free, only a
//	           deposit pins it; examples/atm-paper/README.md)
var onlineCriteria = []struct {
	example   string
	length, k int // one of them
}{
	{example: "cmp", k: 1},
	{example: "atm", length: 6},
	{example: "retry", length: 9},
	{example: "vending", length: 4},
	{example: "buffer", length: 7},
	{example: "atm-paper", k: 3},
}

// onlineRuns are the runs of the correct SUT of each example, spread
// over its purposes (and, for atm-paper, its initial states), with
// STG_LONG=1; onlineSoundRuns without. A mutant plays the same schedule
// up to its first Fail, at most onlineRuns runs in either case (the
// slowest to kill needs 223).
const (
	onlineRuns      = 1000
	onlineSoundRuns = 50
)

// onlineSUT is an implementation of an example, in process.
type onlineSUT struct {
	name string                      // "correct", "mutant-no-end"
	new  func(start int) adapter.SUT // a fresh SUT from the example's start-th initial state
}

// onlineExample is an example tested on-line.
type onlineExample struct {
	name      string
	spec      string // the spec's file
	length, k int    // the criterion
	// starts name the initial states the SUTs can start from: one, "",
	// when the spec fixes the initial values; for atm-paper, whose
	// initial values are free, several balances and counters.
	starts []string
	suts   []onlineSUT // correct first
}

// atmPaperStarts are the initial states of atm-paper's SUTs: balances on
// both sides of the fee (1000) and of the amounts the tester asks for,
// and withdrawal counters below, at and above the limit (cp ≤ 2).
var atmPaperStarts = []struct{ m, cp int64 }{
	{0, 0}, {500, 0}, {900, 0}, {999, 1}, {1000, 0}, {1500, 2}, {5000, 0}, {-20, 0}, {3000, 3},
}

// onlineExamples returns the examples in the order of onlineCriteria,
// their SUTs from examples.SUTs and, for atm-paper, from its impl package.
func onlineExamples(t *testing.T) []onlineExample {
	t.Helper()
	bySUT := map[string][]onlineSUT{}
	for _, s := range examples.SUTs() {
		bySUT[s.Example] = append(bySUT[s.Example], onlineSUT{s.Name, func(int) adapter.SUT { return s.New() }})
	}
	var starts []string
	for _, s := range atmPaperStarts {
		starts = append(starts, fmt.Sprintf("m0=%d cp0=%d", s.m, s.cp))
	}
	for _, f := range atmpaper.Faults() {
		bySUT["atm-paper"] = append(bySUT["atm-paper"], onlineSUT{f.String(), func(start int) adapter.SUT {
			s := atmPaperStarts[start]
			return atmpaper.NewAt(f, atmpaper.Initial{M: big.NewInt(s.m), CP: big.NewInt(s.cp)})
		}})
	}
	var r []onlineExample
	for _, c := range onlineCriteria {
		suts := bySUT[c.example]
		if len(suts) == 0 || suts[0].name != "correct" {
			t.Fatalf("%s: no correct in-process implementation", c.example)
		}
		ex := onlineExample{name: c.example, spec: filepath.Join("..", "examples", c.example, "spec.yaml"),
			length: c.length, k: c.k, starts: []string{""}, suts: suts}
		if c.example == "atm-paper" {
			ex.starts = starts
		}
		r = append(r, ex)
	}
	return r
}

// onlineSession holds an example's purposes on one solver context: a
// Runner per purpose, used by one goroutine.
type onlineSession struct {
	ex        onlineExample
	z         *solver.Context
	criterion string // as symex names it: "k-inclusion 3 (length 6)"
	paths     [][]string
	runners   []*online.Runner
}

// newOnlineSession generates ex's purposes from its criterion, split
// into one purpose per accept node, each on-line as an online.Purpose.
func newOnlineSession(ex onlineExample) (*onlineSession, error) {
	m, err := specfile.LoadFile(ex.spec, nil)
	if err != nil {
		return nil, err
	}
	z, err := solver.NewContext()
	if err != nil {
		return nil, err
	}
	s := &onlineSession{ex: ex, z: z}
	if err := s.generate(m); err != nil {
		z.Close()
		return nil, fmt.Errorf("%s: %v", ex.name, err)
	}
	return s, nil
}

func (s *onlineSession) generate(m *spec.Model) error {
	x, err := symex.NewExecutor(s.z, m, symex.Options{})
	if err != nil {
		return err
	}
	var p *symex.Purpose
	if s.ex.k > 0 {
		p, err = x.KInclusion(s.ex.k)
	} else {
		p, err = x.Length(s.ex.length)
	}
	if err != nil {
		return err
	}
	s.criterion = p.Criterion
	for i, sp := range p.Split() {
		path := sp.AcceptPaths()[0]
		tp, err := online.NewPurpose(x, &spec.SymPurpose{
			Name:   fmt.Sprintf("%s-%d", s.ex.name, i+1),
			Accept: []spec.AcceptPath{{Names: path}},
		})
		if err != nil {
			return fmt.Errorf("purpose %d, accept %v: %v", i+1, path, err)
		}
		if len(tp.Infeasible) > 0 {
			return fmt.Errorf("purpose %d: generated accept path %v is infeasible", i+1, path)
		}
		s.paths = append(s.paths, path)
		s.runners = append(s.runners, online.NewRunner(online.NewTester(s.z, tp), online.Options{}))
	}
	return nil
}

func (s *onlineSession) close() { s.z.Close() }

// run plays one run of purpose i against sut from initial state start.
func (s *onlineSession) run(i int, sut onlineSUT, start int, seed int64) (*online.Result, error) {
	res, err := s.runners[i].Run(context.Background(), adapter.InProcess(sut.new(start)), seed)
	if err != nil {
		return nil, fmt.Errorf("%s/%s, purpose %v, %sseed %d: %v", s.ex.name, sut.name, s.paths[i], s.ex.startString(start), seed, err)
	}
	return res, nil
}

// startString names initial state start, for the log: "m0=900 cp0=0, ".
func (ex onlineExample) startString(start int) string {
	if ex.starts[start] == "" {
		return ""
	}
	return ex.starts[start] + ", "
}

// schedule returns the purpose, initial state and seed of run i of
// onlineRuns: purpose i mod P, seed i, and initial state (i + i/P) mod S,
// so that each round over the purposes starts each from the next state.
func (s *onlineSession) schedule(i int) (purpose, start int, seed int64) {
	p := len(s.runners)
	return i % p, (i + i/p) % len(s.ex.starts), int64(i)
}

// soundness is what the runs of a correct SUT gave.
type soundness struct {
	runs  int
	count map[online.Verdict]int
	fails []string // each Fail, with its purpose, seed and trace
}

// sound plays the first onlineSoundRuns runs of the schedule (onlineRuns
// with STG_LONG=1) against the correct SUT.
func (s *onlineSession) sound() (soundness, error) {
	r := soundness{count: map[online.Verdict]int{}}
	for i := range testlong.Runs(onlineSoundRuns, onlineRuns) {
		p, start, seed := s.schedule(i)
		res, err := s.run(p, s.ex.suts[0], start, seed)
		if err != nil {
			return r, err
		}
		r.runs++
		r.count[res.Verdict]++
		if res.Verdict == online.Fail {
			r.fails = append(r.fails, fmt.Sprintf("purpose %v, %sseed %d: %s\n%s", s.paths[p], s.ex.startString(start), seed, res.Reason, res.TraceString()))
		}
	}
	return r, nil
}

// lateKills are the mutants that the schedule kills only after a
// hundred runs or more (retry's after 104, atm-paper's after 223): more
// than half of the runs of the test. They play with STG_LONG=1; by
// default every other mutant of every example must be killed.
var lateKills = map[string]bool{
	"retry/mutant-seq-kept-after-failure":    true,
	"atm-paper/mutant-third-withdrawal-paid": true,
}

// onlineKill is how a mutant was killed: the first Fail of the schedule.
type onlineKill struct {
	runs    int // runs played, the killing one included
	purpose int
	start   int
	res     *online.Result // nil when the mutant survives every run
}

// kill plays the first runs of the schedule against mutant up to its
// first Fail: at most ceil(runs/P) runs per purpose.
func (s *onlineSession) kill(mutant onlineSUT, runs int) (onlineKill, error) {
	var k onlineKill
	for i := range runs {
		p, start, seed := s.schedule(i)
		res, err := s.run(p, mutant, start, seed)
		if err != nil {
			return k, err
		}
		k.runs++
		if res.Verdict == online.Fail {
			k.purpose, k.start, k.res = p, start, res
			break
		}
	}
	return k, nil
}

// onlineOutcome is what one example gave.
type onlineOutcome struct {
	ex        onlineExample
	criterion string
	paths     [][]string // the accept path of each purpose
	sound     soundness
	kills     map[string]onlineKill // by mutant
	err       error
}

// playOnline generates ex's purposes, plays the soundness runs of its
// correct SUT and searches each mutant's kill, on one session.
func playOnline(ex onlineExample) onlineOutcome {
	o := onlineOutcome{ex: ex, kills: map[string]onlineKill{}}
	s, err := newOnlineSession(ex)
	if err != nil {
		o.err = err
		return o
	}
	defer s.close()
	o.criterion, o.paths = s.criterion, s.paths
	if o.sound, o.err = s.sound(); o.err != nil {
		return o
	}
	for _, m := range ex.suts[1:] {
		if lateKills[ex.name+"/"+m.name] && !testlong.Enabled() {
			continue
		}
		if o.kills[m.name], o.err = s.kill(m, onlineRuns); o.err != nil {
			return o
		}
	}
	return o
}

// TestOnlineSymbolicPurposes plays, for every example, the purposes that
// a coverage criterion generates (onlineCriteria) on-line, in process:
// onlineSoundRuns seeded runs (onlineRuns with STG_LONG=1) of the correct
// SUT spread over the purposes
// (Theorem 1: none may end in Fail), and the same runs against each
// mutant up to its first Fail (each must get one; lateKills only with
// STG_LONG=1). Quiescence is exact
// in process, so a Fail on δ is a missing output. The log prints a
// table of the verdicts and, for each mutant, the purpose, initial
// state, seed and trace of its kill.
func TestOnlineSymbolicPurposes(t *testing.T) {
	t.Parallel()
	exs := onlineExamples(t)
	// One job per example, on one session (solver context, tree,
	// purposes) that its soundness runs and its mutants' kills share:
	// the purposes are generated once, and two workers share nothing.
	// The longest job, atm-paper's, goes first.
	outs := make([]onlineOutcome, len(exs))
	progress := testlong.NewProgress(t, "examples", len(exs))
	parallel(len(exs), 2, func(i int) {
		defer progress.Add(1)
		j := len(exs) - 1 - i
		outs[j] = playOnline(exs[j])
	})

	var table, kills strings.Builder
	fmt.Fprintf(&table, "\n| example | criterion | purposes | runs | Pass | WeakPass | Inconc | Fail | mutants killed | runs to kill |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, o := range outs {
		if o.err != nil {
			t.Errorf("%s: %v", o.ex.name, o.err)
			continue
		}
		c := o.sound.count
		for _, f := range o.sound.fails {
			t.Errorf("%s: the correct SUT got Fail: %s", o.ex.name, f)
		}
		if c[online.Pass]+c[online.WeakPass] == 0 {
			t.Errorf("%s: no run of the correct SUT reached an accept node in %d runs", o.ex.name, o.sound.runs)
		}
		killed, toKill := 0, []string{}
		for _, m := range o.ex.suts[1:] {
			kl, played := o.kills[m.name]
			if !played {
				toKill = append(toKill, "-")
				continue
			}
			toKill = append(toKill, fmt.Sprint(kl.runs))
			if kl.res == nil {
				t.Errorf("%s: mutant %s survives the %d runs over the %d purposes of %s",
					o.ex.name, m.name, kl.runs, len(o.paths), o.criterion)
				fmt.Fprintf(&kills, "%s/%s: survives %d runs\n", o.ex.name, m.name, kl.runs)
				continue
			}
			killed++
			fmt.Fprintf(&kills, "%s/%s: killed after %d runs by purpose %d/%d %v, %sseed %d: %s\n%s",
				o.ex.name, m.name, kl.runs, kl.purpose+1, len(o.paths), o.paths[kl.purpose], o.ex.startString(kl.start), kl.res.Seed, kl.res.Reason, kl.res.TraceString())
		}
		fmt.Fprintf(&table, "| %s | %s | %d | %d | %d | %d | %d | %d | %d/%d | %s |\n", o.ex.name, o.criterion, len(o.paths),
			o.sound.runs, c[online.Pass], c[online.WeakPass], c[online.Inconc], c[online.Fail], killed, len(o.ex.suts)-1, strings.Join(toKill, ", "))
	}
	t.Log(table.String() + "\nkills (first Fail of each mutant in the runs of the schedule, in process):\n" + kills.String())
}

// TestOnlineNoFeeLength bounds the criterion that kills atm-paper's
// no-fee mutant (the cashFee branch withdraws x without the fee). Its
// only symptom is the balance, read by sum after a withdrawal, and the
// initial balance m0 is free:
//
//   - length 2 (k-inclusion 1) has no purpose with a sum after a
//     withdrawal: no run can kill it, from any initial state;
//   - length 3 has one, [ask, cash|cashFee, check, sum] (the Extout of
//     [ask, cash|cashFee, check]); but sum(m0 - x), after a withdrawal
//     of x from m0 < 1000 without the fee, is explained by the fee
//     branch from m0 + 1 when m0 + 1 < 1000, and by the no-fee branch
//     from m0 only if m0 >= 1000: only m0 = 999 shows the fault (from
//     m0 = 900 it survives, from 999 it is killed).
//
// TestOnlineSymbolicPurposes kills it at length 6 (k-inclusion 3). The
// default run plays the kill; the survivals (610 runs without a Fail)
// play with STG_LONG=1.
func TestOnlineNoFeeLength(t *testing.T) {
	t.Parallel()
	base := onlineExamples(t)[len(onlineCriteria)-1]
	if base.name != "atm-paper" {
		t.Fatalf("the last example is %s, not atm-paper", base.name)
	}
	var mutant onlineSUT
	for _, m := range base.suts {
		if m.name == atmpaper.NoFee.String() {
			mutant = m
		}
	}
	var all []int
	for i := range atmPaperStarts {
		all = append(all, i)
	}
	for _, c := range []struct {
		length int
		starts []int // indices in atmPaperStarts
		runs   int
		kill   bool
	}{
		{length: 2, starts: all, runs: 270},
		{length: 3, starts: []int{2}, runs: 170},             // m0=900
		{length: 3, starts: []int{3}, runs: 170, kill: true}, // m0=999, cp0=1
	} {
		if !c.kill && !testlong.Enabled() {
			continue
		}
		ex := base
		var starts []string
		for _, i := range c.starts {
			starts = append(starts, ex.starts[i])
		}
		ex.length, ex.k, ex.starts = c.length, 0, starts
		ex.suts = []onlineSUT{{mutant.name, func(start int) adapter.SUT { return mutant.new(c.starts[start]) }}}
		s, err := newOnlineSession(ex)
		if err != nil {
			t.Fatal(err)
		}
		kl, err := s.kill(ex.suts[0], c.runs)
		s.close()
		if err != nil {
			t.Fatal(err)
		}
		what := fmt.Sprintf("no-fee, length %d (%d purposes), from %s", c.length, len(s.paths), strings.Join(starts, "; "))
		switch {
		case kl.res != nil && !c.kill:
			t.Errorf("%s: Fail, though the spec explains every trace of these purposes: purpose %v, %sseed %d: %s\n%s",
				what, s.paths[kl.purpose], ex.startString(kl.start), kl.res.Seed, kl.res.Reason, kl.res.TraceString())
		case kl.res == nil && c.kill:
			t.Errorf("%s: survives %d runs", what, kl.runs)
		case kl.res == nil:
			t.Logf("%s: survives %d runs, as it must", what, kl.runs)
		default:
			t.Logf("%s: killed after %d runs by purpose %v, seed %d: %s", what, kl.runs, s.paths[kl.purpose], kl.res.Seed, kl.res.Reason)
		}
	}
}
