package online

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/internal/testlong"
	"github.com/stg-tool/stg/play"
)

// A randSpec is a small random spec over one counter n (initially 0):
// locations l0..l2, inputs a and b defined in every location (one
// transition each: the spec is input-enabled and deterministic on
// inputs), and a few output transitions x!, y! with guards n < k,
// each incrementing n, so that outputs run dry and quiescence comes.
type randSpec struct {
	trans   []randTrans
	partial bool
}

type randTrans struct {
	id, from, to int
	action       string
	input        bool
	bound        int // output guard n < bound
	inc          int // n := n + inc
}

var randInputs, randOutputs = []string{"a", "b"}, []string{"x", "y"}

// A partial spec leaves some inputs out of some locations, and has at
// most one transition by each output in a location: it is
// deterministic, so a SUT executing it that ignores an input the spec
// does not specify conforms (the trace it is on then leaves the spec's).
func newRandSpec(rng *rand.Rand, partial bool) randSpec {
	s := randSpec{partial: partial}
	add := func(t randTrans) {
		t.id = len(s.trans)
		s.trans = append(s.trans, t)
	}
	for l := 0; l < 3; l++ {
		for _, in := range randInputs {
			if !partial || rng.IntN(3) > 0 {
				add(randTrans{from: l, to: rng.IntN(3), action: in, input: true, inc: rng.IntN(2)})
			}
		}
		outs := randOutputs[:rng.IntN(3)]
		if !partial {
			outs = nil
			for k := rng.IntN(3); k > 0; k-- {
				outs = append(outs, randOutputs[rng.IntN(2)])
			}
		}
		for _, out := range outs {
			add(randTrans{from: l, to: rng.IntN(3), action: out, bound: 1 + rng.IntN(5), inc: 1})
		}
	}
	return s
}

// yaml writes s as a spec file.
func (s randSpec) yaml() string {
	var b strings.Builder
	b.WriteString("kind: spec\nname: rand\nvariables: {n: int}\nactions:\n")
	for _, a := range randInputs {
		fmt.Fprintf(&b, "  %s: {dir: input}\n", a)
	}
	for _, a := range randOutputs {
		fmt.Fprintf(&b, "  %s: {dir: output}\n", a)
	}
	b.WriteString("initial: {location: l0, condition: n == 0}\ntransitions:\n")
	for _, t := range s.trans {
		guard := ""
		if !t.input {
			guard = fmt.Sprintf(", guard: n < %d", t.bound)
		}
		fmt.Fprintf(&b, "  - {name: t%d, from: l%d, action: %s%s, assign: {n: n + %d}, to: l%d}\n", t.id, t.from, t.action, guard, t.inc, t.to)
	}
	return b.String()
}

// enabled returns the transitions of s from (loc, n) by inputs (input)
// or by outputs whose guard holds.
func (s randSpec) enabled(loc, n int, input bool) []randTrans {
	var ts []randTrans
	for _, t := range s.trans {
		if t.from == loc && t.input == input && (input || n < t.bound) {
			ts = append(ts, t)
		}
	}
	return ts
}

// walk returns the transition names of a random path of s of at most
// 5 steps ending with an output (an accept path), "" when it found none.
func (s randSpec) walk(rng *rand.Rand) string {
	for try := 0; try < 20; try++ {
		loc, n, last := 0, 0, 0
		var names []string
		for k := 0; k < 5; k++ {
			ts := append(s.enabled(loc, n, true), s.enabled(loc, n, false)...)
			if len(ts) == 0 {
				break
			}
			t := ts[rng.IntN(len(ts))]
			names = append(names, fmt.Sprintf("t%d", t.id))
			loc, n = t.to, n+t.inc
			if !t.input {
				last = k + 1
				if rng.IntN(2) == 0 {
					break
				}
			}
		}
		if last > 0 {
			return strings.Join(names[:last], " ")
		}
	}
	return ""
}

// slowSUT is a Timed SUT executing a randSpec with no clock: its inputs
// wait in an inbox, and it reads them when it pleases; when the engine
// waits, it reads inputs or emits an enabled output at random until it
// emits one or is quiescent (no output enabled, inbox empty). Its
// outputs so cross the stimuli the tester sent meanwhile. Executing the
// spec (and doing anything once off its traces), it conforms to it
// (ioco).
type slowSUT struct {
	s      randSpec
	rng    *rand.Rand
	loc, n int
	inbox  []string
	gone   bool // off the spec's traces (consume)
	wild   int  // outputs left to emit at random once gone
}

func (u *slowSUT) Send(ctx context.Context, in adapter.Input) error {
	u.inbox = append(u.inbox, in.Action)
	return nil
}

func (u *slowSUT) Receive(ctx context.Context, wait time.Duration) (*adapter.Output, error) {
	if wait == 0 && u.rng.IntN(2) == 0 {
		return nil, nil
	}
	for {
		outs := u.s.enabled(u.loc, u.n, false)
		if u.gone {
			outs = nil
			if u.wild > 0 {
				outs = []randTrans{{action: "x", to: u.loc}, {action: "y", to: u.loc}}
			}
		}
		if len(u.inbox) > 0 && (len(outs) == 0 || u.rng.IntN(2) == 0) {
			u.consume(u.inbox[0])
			u.inbox = u.inbox[1:]
			if wait == 0 {
				return nil, nil
			}
			continue
		}
		if len(outs) == 0 {
			return nil, nil // quiescent
		}
		t := outs[u.rng.IntN(len(outs))]
		u.loc, u.n = t.to, u.n+t.inc
		if u.gone {
			u.wild--
		}
		return &adapter.Output{Action: t.action}, nil
	}
}

// consume reads the input in. An input the spec does not specify in the
// SUT's state takes it off the spec's traces (a partial spec is
// deterministic): ioco requires nothing after it, and the SUT then emits
// up to 3 outputs at random and is quiescent for good.
func (u *slowSUT) consume(in string) {
	if u.gone {
		return
	}
	for _, t := range u.s.enabled(u.loc, u.n, true) {
		if t.action == in {
			u.loc, u.n = t.to, u.n+t.inc
			return
		}
	}
	if u.s.partial {
		u.gone, u.wild = true, u.rng.IntN(4)
	}
}

func (u *slowSUT) Close() error               { return nil }
func (u *slowSUT) Started() (time.Time, bool) { return time.Now().Add(-time.Hour), true }

// mutate returns s with one output transition changed: another action,
// target or bound; nil when s has no output transition.
func (s randSpec) mutate(rng *rand.Rand) *randSpec {
	var outs []int
	for i, t := range s.trans {
		if !t.input {
			outs = append(outs, i)
		}
	}
	if len(outs) == 0 {
		return nil
	}
	m := randSpec{trans: append([]randTrans(nil), s.trans...), partial: s.partial}
	t := &m.trans[outs[rng.IntN(len(outs))]]
	switch rng.IntN(3) {
	case 0:
		t.action = map[string]string{"x": "y", "y": "x"}[t.action]
	case 1:
		t.to = (t.to + 1 + rng.IntN(2)) % 3
	default:
		t.bound += 1 + rng.IntN(2)
	}
	return &m
}

// TestQueuedSoundness: on random small specs (every other one partial)
// and purposes, SUTs that execute the spec and delay their outputs past
// the stimuli sent (the tester stimulates without waiting) never get
// Fail, though outputs cross stimuli (judged after every stimulus, they
// fail; and on partial specs a reading that leaves the spec's traces by
// an input must not fail either: without inflight.lost it does); each
// run's trace gets the same verdict off-line (ReplayQueued); mutants of
// the SUTs (one output transition changed) are still caught.
func TestQueuedSoundness(t *testing.T) {
	specs, seeds := testlong.Runs(40, 300), 8 // all 300 specs with STG_LONG=1
	if testing.Short() {
		specs = 40
	}
	rng := rand.New(rand.NewPCG(7, 21))
	verdicts, crossed, left, caught, mutants := map[Verdict]int{}, 0, 0, 0, 0
	for i := 0; i < specs; i++ {
		s := newRandSpec(rng, i%2 == 1)
		p1, p2 := s.walk(rng), s.walk(rng)
		if p1 == "" || p2 == "" {
			continue
		}
		paths := []string{p1, p2}
		if strings.HasPrefix(p1+" ", p2+" ") || strings.HasPrefix(p2+" ", p1+" ") {
			paths = paths[:1] // no accept node above another
		}
		tr := crossTester(t, s.yaml(), paths...)
		r := NewRunner(tr, Options{Options: play.Options{MaxSteps: 40}})
		for seed := int64(0); seed < int64(seeds); seed++ {
			res := runSlow(t, r, s, rng, seed)
			verdicts[res.Verdict]++
			if strings.Contains(res.Reason, "ioco requires nothing") {
				left++
			}
			if res.Verdict == Fail {
				t.Fatalf("false Fail on\n%s\npurpose %v seed %d: %s\n%s", s.yaml(), tr.Purpose().AcceptPaths(), seed, res.Reason, res.TraceString())
			}
			checkReplay(t, tr, res)
			for _, st := range Steps(res) {
				if st.InFlight > 0 {
					crossed++
					break
				}
			}
		}
		if m := s.mutate(rng); m != nil {
			mutants++
			for seed := int64(0); seed < int64(seeds); seed++ {
				if runSlow(t, r, *m, rng, seed).Verdict == Fail {
					caught++
					break
				}
			}
		}
	}
	t.Logf("verdicts %v; %d runs judged an output with stimuli in flight, %d Inconc after a reading left the spec's traces; %d of %d mutants caught",
		verdicts, crossed, left, caught, mutants)
	if crossed == 0 || verdicts[Pass]+verdicts[WeakPass] == 0 {
		t.Errorf("no crossing or no pass: the random runs are too narrow")
	}
	if caught == 0 {
		t.Errorf("no mutant caught")
	}
}

// runSlow plays one run of r against a slowSUT executing s.
func runSlow(t testing.TB, r *Runner, s randSpec, rng *rand.Rand, seed int64) *Result {
	t.Helper()
	u := &slowSUT{s: s, rng: rand.New(rand.NewPCG(rng.Uint64(), uint64(seed)))}
	res, err := r.Run(context.Background(), u, seed)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkReplay replays the trace of res off-line with ReplayQueued: the
// same verdict (the fake SUT's silences are exact, none is retracted).
func checkReplay(t *testing.T, tr *Tester, res *Result) {
	t.Helper()
	var evs []Event
	for _, te := range play.TraceEvents(res.Trace) {
		ev, err := EventOf(tr.Purpose().Executor().Spec(), te)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	steps, err := tr.ReplayQueued(evs, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := None
	if n := len(steps); n > 0 {
		got = steps[n-1].Verdict
	}
	if want := res.Verdict; got != want && !(want == Inconc && got == None) {
		t.Fatalf("ReplayQueued gives %s, the run %s (%s)\n%s", got, want, res.Reason, res.TraceString())
	}
}
