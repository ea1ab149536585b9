// Package impl implements the slot machine of examples/slot: the
// machine SM (sm.yaml) as the component under test, and the whole
// system S = Hide(C, Int ⊗ SM) (system.yaml) built from SM and an
// interface Int, once for the reference SUT (sut/correct) and its
// mutants (sut/mutant-*). Run serves it as a process, New (SM) and
// NewSystem (S) as in-process SUTs.
//
// SM speaks first: it sends int_start when it starts (its
// initialisation). It then takes a bet int_bet(v) (bb := v, bank :=
// bank + v), answers int_win(r) with r its decision w, takes the gain
// int_amount(v) (a := v) and answers int_cash(a) (bank := bank - a) and
// int_start (the ending message). w is fixed for the machine's life: the
// spec never assigns it, so a machine that won once wins every round.
//
// The system answers a bet at once: refused when the interface refuses
// it (b <= 0 or b > 100), else cash(10 b) on a win and cash(0) on a loss.
//
// The faults:
//
//   - Pays9x: SM pays int_cash(9 bb) instead of the gain a it was told
//     (the system pays cash(9 b) on a win);
//   - Bet101: the interface does not check the upper bound, so the
//     machine accepts a bet of 101 and more (the system pays cash on a
//     bet it must refuse); SM itself is correct;
//   - NeverWins: SM's w is always false: conformant (the spec leaves w
//     open), but the win purpose never passes.
package impl

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/stg-tool/stg/adapter"
	"github.com/stg-tool/stg/examples/internal/jsonl"
)

// Fault selects the one fault a mutant introduces; Correct introduces none.
type Fault int

const (
	Correct   Fault = iota
	Pays9x          // SM pays 9 times the bet instead of the gain it is told
	Bet101          // the interface forwards bets over 100: a bet of 101 is played
	NeverWins       // SM never wins (w always false)
	numFaults
)

// Faults returns Correct and then every mutant's fault.
func Faults() []Fault { return []Fault{Correct, Pays9x, Bet101, NeverWins} }

// String returns the directory of the program under sut/ that runs with f.
func (f Fault) String() string {
	if f < 0 || f >= numFaults {
		return "unknown"
	}
	return [...]string{"correct", "mutant-pays-9x", "mutant-bet-101", "mutant-never-wins"}[f]
}

const name = "slot"

// start is SM's first word, and its ending message.
var start = jsonl.Out("int_start")

// WinVariable names the environment variable that fixes w for Run
// ("true" or "false"); unset, the program draws it at random.
const WinVariable = "STG_SLOT_WIN"

// Run serves the JSON Lines protocol on stdin and stdout until stdin
// ends: the machine SM, which writes int_start first, or, with the
// argument "system", the whole slot machine.
func Run(f Fault) {
	w := rand.IntN(2) == 0
	if s := os.Getenv(WinVariable); s != "" {
		b, err := strconv.ParseBool(s)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: bad %s=%q: want true or false\n", name, WinVariable, s)
			os.Exit(2)
		}
		w = b
	}
	if len(os.Args) > 1 && os.Args[1] == "system" {
		jsonl.Serve(name, newSystem(f, w))
		return
	}
	b, _ := json.Marshal(start)
	if _, err := os.Stdout.Write(append(b, '\n')); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
	jsonl.Serve(name, newMachine(f, w))
}

// New returns a fresh in-process SM with fault f and decision w; its
// int_start is already queued.
func New(f Fault, w bool) adapter.Adapter {
	return adapter.InProcessSpeaking(jsonl.Adapt(name, newMachine(f, w)), adapter.Output{Action: start.Action})
}

// NewSystem returns a fresh in-process slot machine (Int and SM) with
// fault f and decision w.
func NewSystem(f Fault, w bool) adapter.SUT { return jsonl.Adapt(name, newSystem(f, w)) }

// machine is SM: S1 waiting for a bet (bet false) or S3 for the gain.
type machine struct {
	f        Fault
	w        bool
	bank     *big.Int
	bb, a    *big.Int
	gotBet   bool
	gotStart bool
}

func newMachine(f Fault, w bool) *machine {
	return &machine{f: f, w: w && f != NeverWins, bank: big.NewInt(1000), bb: new(big.Int), a: new(big.Int)}
}

func (m *machine) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	v, ok := msg.Int("v")
	if !ok {
		return nil, false
	}
	switch {
	case msg.Action == "int_bet" && !m.gotBet:
		m.bb.Set(v)
		m.bank.Add(m.bank, v)
		m.gotBet = true
		return []jsonl.Message{jsonl.Out("int_win", "r", m.w)}, true
	case msg.Action == "int_amount" && m.gotBet:
		m.a.Set(v)
		pay := m.a
		if m.f == Pays9x {
			pay = new(big.Int).Mul(big.NewInt(9), m.bb)
		}
		m.bank.Sub(m.bank, pay)
		m.gotBet = false
		return []jsonl.Message{jsonl.Out("int_cash", "v", pay), start}, true
	}
	return nil, false
}

// system is S: the interface Int in I1 in front of SM.
type system struct {
	f  Fault
	sm *machine
}

func newSystem(f Fault, w bool) *system { return &system{f: f, sm: newMachine(f, w)} }

var hundred = big.NewInt(100)

func (s *system) Input(msg jsonl.Message) ([]jsonl.Message, bool) {
	b, ok := msg.Int("v")
	if msg.Action != "bet" || !ok {
		return nil, false
	}
	if b.Sign() <= 0 || b.Cmp(hundred) > 0 && s.f != Bet101 {
		return []jsonl.Message{jsonl.Out("refused")}, true
	}
	outs, _ := s.sm.Input(jsonl.Message{Action: "int_bet", Args: map[string]any{"v": json.Number(b.String())}})
	gain := new(big.Int)
	if outs[0].Args["r"] == true {
		gain.Mul(big.NewInt(10), b)
	}
	outs, _ = s.sm.Input(jsonl.Message{Action: "int_amount", Args: map[string]any{"v": json.Number(gain.String())}})
	return []jsonl.Message{jsonl.Out("cash", "v", outs[0].Args["v"])}, true
}
