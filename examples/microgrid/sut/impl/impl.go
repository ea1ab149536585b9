// Package impl implements examples/microgrid/spec.yaml, the microgrid
// controller, once for the reference SUT (sut/correct) and its mutants
// (sut/mutant-*). Run serves it as a process, New as an in-process SUT.
//
// The controller speaks first: it sends mReq when it starts and after
// each answer. It then takes two measurements getmeas(v), integrates
// them, I = INTGR([v1, v2]), and answers out(msg, p): when I > 200, with
// r = RISE(I), out(ok, (1+r)·I) if r ≤ 1 and out(alarm, (1+r)·I) if r > 1;
// otherwise out(ok, I). INTGR and RISE are the reference implementation
// of package funcs: the library the controller links with. So after the
// second measurement it sends two lines, out and then mReq; after the
// first, nothing (it waits, quiescent).
package impl

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
	"github.com/stg-tool/stg/examples/microgrid/funcs"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct        Fault = iota
	AlarmThreshold       // raises the alarm when r > 0.9 instead of r > 1
	NoRiseFactor         // prices I instead of (1+r)·I after RISE
	FirstTwice           // never reads the second measurement: integrates [v1, v1]
	AlwaysRise           // calls RISE whatever I: (1+r)·I also when I <= 200
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault { return []Fault{Correct, AlarmThreshold, NoRiseFactor, FirstTwice, AlwaysRise} }

// String returns the directory of the program under sut/ that runs with f.
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-alarm-threshold", "mutant-no-rise-factor", "mutant-first-twice", "mutant-always-rise"}[f]
}

const name = "microgrid"

// request is the controller's first word, and its word after each answer.
var request = jsonl.Out("mReq")

// Run serves the JSON Lines protocol on stdin and stdout until stdin
// ends; it writes mReq first.
func Run(f Fault) {
	b, _ := json.Marshal(request)
	if _, err := os.Stdout.Write(append(b, '\n')); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
	jsonl.Serve(name, &machine{f: f})
}

// New returns a fresh in-process SUT with fault f; its mReq is already
// queued.
func New(f Fault) adapter.Adapter {
	return adapter.InProcessSpeaking(jsonl.Adapt(name, &machine{f: f}), adapter.Output{Action: request.Action})
}

var (
	two200 = big.NewInt(200)
	one    = big.NewRat(1, 1)
	limit  = map[bool]*big.Rat{false: big.NewRat(1, 1), true: big.NewRat(9, 10)}
)

// machine is the controller in q1, waiting for measurements.
type machine struct {
	f     Fault
	value [2]*big.Int
	cpt   int
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	v, ok := msg.Int("v")
	if msg.Action != "getmeas" || !ok {
		return nil, false
	}
	m.value[m.cpt] = v
	m.cpt++
	if m.cpt < 2 {
		return nil, true
	}
	m.cpt = 0
	a, b := m.value[0], m.value[1]
	if m.f == FirstTwice {
		b = a
	}
	return []jsonl.Message{m.answer(funcs.Intgr(a, b)), request}, true
}

// answer is q2 to q0: out(msg, p) for the integral i.
func (m *machine) answer(i *big.Int) jsonl.Message {
	ri := new(big.Rat).SetInt(i)
	if i.Cmp(two200) <= 0 && m.f != AlwaysRise {
		return jsonl.Out("out", "msg", "ok", "p", ri.RatString())
	}
	r := funcs.Rise(i)
	p := new(big.Rat).Mul(new(big.Rat).Add(one, r), ri)
	if m.f == NoRiseFactor {
		p = ri
	}
	msg := "ok"
	if r.Cmp(limit[m.f == AlarmThreshold]) > 0 {
		msg = "alarm"
	}
	return jsonl.Out("out", "msg", msg, "p", p.RatString())
}
