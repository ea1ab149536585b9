// Package impl implements examples/jobs/spec.yaml once for the reference
// SUT (sut/correct) and its mutants (sut/mutant-*): a job server that
// computes 2n + 1 silently, refuses negative jobs and jobs above 100, and
// parks the jobs above 10 until poke. Run serves it as a process, New as
// an in-process SUT.
//
// The spec leaves two internal choices open: a job in (10, 100] may be
// computed at once or parked, and a job above 100 may be refused or
// parked. This implementation resolves both deterministically: it parks
// every job in (10, 100] and refuses every job above 100.
package impl

import (
	"math/big"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct        Fault = iota
	OffByOne             // answers 2n instead of 2n + 1 (wrong value)
	ParksSmallJobs       // parks the jobs above 5 instead of 10: silent where a result is due
	PokeMiscounts        // a poked job's result does not count itself (count == done)
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault { return []Fault{Correct, OffByOne, ParksSmallJobs, PokeMiscounts} }

// String returns the directory of the program under sut/ that runs with f:
// "correct" or "mutant-...".
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-off-by-one", "mutant-parks-small-jobs", "mutant-poke-miscounts"}[f]
}

// Run serves the JSON Lines protocol on stdin and stdout until stdin ends.
func Run(f Fault) { jsonl.Serve("jobs", &machine{f: f}) }

// New returns a fresh in-process SUT with fault f.
func New(f Fault) adapter.SUT { return jsonl.Adapt("jobs", &machine{f: f}) }

type machine struct {
	f      Fault
	parked *big.Int // the parked job, or nil when idle
	done   int64    // results given so far
}

var (
	ten     = big.NewInt(10)
	five    = big.NewInt(5)
	hundred = big.NewInt(100)
)

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	switch {
	case msg.Action == "submit" && m.parked == nil:
		n, ok := msg.Int("n")
		if !ok {
			return nil, false
		}
		threshold := ten
		if m.f == ParksSmallJobs {
			threshold = five
		}
		switch {
		case n.Sign() < 0 || n.Cmp(hundred) > 0:
			return []jsonl.Message{jsonl.Out("reject")}, true
		case n.Cmp(threshold) > 0:
			m.parked = n
			return nil, true // parked: quiet until poke
		}
		return m.result(n, false), true
	case msg.Action == "poke" && m.parked != nil:
		n := m.parked
		m.parked = nil
		return m.result(n, true), true
	}
	return nil, false
}

// result computes the job n and counts it.
func (m *machine) result(n *big.Int, poked bool) []jsonl.Message {
	r := new(big.Int).Lsh(n, 1)
	if m.f != OffByOne {
		r.Add(r, big.NewInt(1))
	}
	if !poked || m.f != PokeMiscounts {
		m.done++
	}
	return []jsonl.Message{jsonl.Out("result", "r", r, "count", m.done)}
}
